"""Timeseries classification with a fully convolutional network: Conv1D, BatchNormalization, ReLU, global
average pooling. Univariate series of 64 steps (as in the FordA example, shorter); the class is the frequency.
"""

import numpy as np

import highlevel as keras
from highlevel import layers


def make_series(n, rng):
    t = np.arange(64)
    y = rng.integers(0, 2, size=n)
    freq = np.where(y == 1, 0.25, 0.08)[:, None]
    x = np.sin(freq * t + rng.uniform(0, 6.3, size=(n, 1))) + 0.3 * rng.normal(size=(n, 64))
    return x.reshape((n, 64, 1)).astype("float32"), y


def make_model(input_shape):
    input_layer = keras.layers.Input(input_shape)
    h = input_layer
    for _ in range(2):
        h = layers.Conv1D(filters=8, kernel_size=3, padding="same")(h)
        h = layers.BatchNormalization(momentum=0.9)(h)  # moving statistics settle in few steps
        h = layers.ReLU()(h)
    gap = layers.GlobalAveragePooling1D()(h)
    output_layer = layers.Dense(2, activation="softmax")(gap)
    return keras.models.Model(inputs=input_layer, outputs=output_layer)


def main():
    keras.utils.set_random_seed(17)
    rng = np.random.default_rng(17)
    x_train, y_train = make_series(256, rng)
    x_test, y_test = make_series(64, rng)
    idx = np.random.permutation(len(x_train))
    x_train, y_train = x_train[idx], y_train[idx]

    model = make_model(input_shape=x_train.shape[1:])
    model.compile(
        optimizer=keras.optimizers.Adam(0.01),
        loss="sparse_categorical_crossentropy",
        metrics=["sparse_categorical_accuracy"],
    )
    history = model.fit(x_train, y_train, batch_size=32, epochs=8, validation_split=0.2, verbose=0)
    test_loss, test_acc = model.evaluate(x_test, y_test, verbose=0)
    assert history.history["loss"][-1] < 0.6 * history.history["loss"][0], history.history["loss"]
    assert test_acc > 0.85, test_acc
    return {"loss": test_loss, "accuracy": test_acc}
