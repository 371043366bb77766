"""A Sequential regression built with model.add and no Input: the model builds on its first batch."""

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(2)
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, size=(256, 4)).astype("float32")
    y = (2.0 * x[:, :1] - x[:, 1:2] + 0.5 * x[:, 2:3] * x[:, 3:4]).astype("float32")

    model = keras.Sequential(name="regressor")
    model.add(layers.Dense(16, activation="tanh"))
    model.add(layers.Dense(1))
    assert not model.built
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.02), loss="mse", metrics=["mae"])
    history = model.fit(x, y, batch_size=32, epochs=10, verbose=0)

    assert model.built
    assert model.count_params() == 4 * 16 + 16 + 16 + 1
    assert history.history["loss"][-1] < 0.2 * history.history["loss"][0]
    results = model.evaluate(x, y, verbose=0, return_dict=True)
    assert results["mae"] < 0.3, results
    return results
