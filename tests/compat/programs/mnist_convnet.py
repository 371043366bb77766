"""A small convnet on MNIST-shaped images (28x28x1, synthetic): the label is the quadrant that holds a bright blob."""

import numpy as np

import highlevel as keras
from highlevel import layers


def make_images(n, rng):
    x = rng.uniform(0, 60, size=(n, 28, 28)).astype("uint8")
    y = rng.integers(0, 4, size=n)
    for i, quadrant in enumerate(y):
        r, c = divmod(int(quadrant), 2)
        top, left = 2 + 14 * r + rng.integers(0, 4), 2 + 14 * c + rng.integers(0, 4)
        x[i, top : top + 7, left : left + 7] = 255
    return x, y


def main():
    keras.utils.set_random_seed(3)
    rng = np.random.default_rng(3)
    x_train, y_train = make_images(256, rng)
    x_test, y_test = make_images(64, rng)
    # The steps of the MNIST example: scale to [0, 1], add the channel axis, one-hot labels.
    x_train = np.expand_dims(x_train.astype("float32") / 255, -1)
    x_test = np.expand_dims(x_test.astype("float32") / 255, -1)
    y_train = keras.utils.to_categorical(y_train, 4)
    y_test = keras.utils.to_categorical(y_test, 4)

    model = keras.Sequential(
        [
            keras.Input(shape=(28, 28, 1)),
            layers.Conv2D(8, kernel_size=(3, 3), strides=2, activation="relu"),
            layers.MaxPooling2D(pool_size=(2, 2)),
            layers.Flatten(),
            layers.Dropout(0.25),
            layers.Dense(4, activation="softmax"),
        ]
    )
    model.compile(loss="categorical_crossentropy", optimizer=keras.optimizers.Adam(0.005), metrics=["accuracy"])
    history = model.fit(x_train, y_train, batch_size=32, epochs=6, verbose=0)
    score = model.evaluate(x_test, y_test, verbose=0, return_dict=True)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]
    assert score["accuracy"] > 0.8, score
    return score
