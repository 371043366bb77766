"""Image classification from scratch with the augmentation layers inside the model: they transform images in
training and pass them through unchanged at inference. Images are 16x16 RGB; the class is the colour of a
square at a random place, so flips and small rotations do not change it.
"""

import numpy as np

import highlevel as keras
from highlevel import layers


def make_images(n, rng):
    x = rng.integers(0, 40, size=(n, 16, 16, 3)).astype("float32")
    y = rng.integers(0, 3, size=n)
    for i, c in enumerate(y):
        r, col = rng.integers(2, 9, size=2)
        x[i, r : r + 6, col : col + 6, c] = 255.0
    return x, y


def main():
    keras.utils.set_random_seed(20)
    rng = np.random.default_rng(20)
    x, y = make_images(320, rng)

    data_augmentation = keras.Sequential(
        [layers.RandomFlip("horizontal"), layers.RandomRotation(0.1)], name="augmentation"
    )
    inputs = keras.Input(shape=(16, 16, 3))
    h = data_augmentation(inputs)
    h = layers.Rescaling(1.0 / 255)(h)
    h = layers.Conv2D(8, 3, strides=2, padding="same", activation="relu")(h)
    h = layers.SeparableConv2D(16, 3, padding="same", activation="relu")(h)
    h = layers.GlobalAveragePooling2D()(h)
    h = layers.Dropout(0.2)(h)
    outputs = layers.Dense(3, activation="softmax")(h)
    model = keras.Model(inputs, outputs)

    # Augmentation is random in training and the identity at inference.
    augmented = keras.ops.convert_to_numpy(data_augmentation(x[:4], training=True))
    assert augmented.shape == (4, 16, 16, 3) and not np.allclose(augmented, x[:4])
    np.testing.assert_allclose(keras.ops.convert_to_numpy(data_augmentation(x[:4], training=False)), x[:4])

    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x[:256], y[:256], epochs=6, batch_size=32, validation_data=(x[256:], y[256:]), verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]
    assert history.history["val_accuracy"][-1] > 0.8, history.history["val_accuracy"]
    return {k: v[-1] for k, v in history.history.items()}
