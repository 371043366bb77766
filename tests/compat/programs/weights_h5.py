"""Weights saved the way Keras 3 names them, in a `.weights.h5` file, and loaded into a fresh model."""

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(28)
    rng = np.random.default_rng(28)
    x = rng.normal(size=(128, 4)).astype("float32")
    y = x.sum(axis=1, keepdims=True)

    def build():
        return keras.Sequential([keras.Input((4,)), layers.Dense(8, activation="relu"), layers.Dense(1)])

    model = build()
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse")
    history = model.fit(x, y, epochs=5, batch_size=32, verbose=0)
    model.save_weights("model.weights.h5")
    fresh = build()
    fresh.load_weights("model.weights.h5")
    np.testing.assert_allclose(fresh.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    return {"loss": history.history["loss"][-1]}
