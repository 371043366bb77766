"""LearningRateScheduler sets the rate per epoch; ReduceLROnPlateau cuts it when the monitored loss stalls."""

import numpy as np

import highlevel as keras
from highlevel import layers


def scheduler(epoch, lr):
    return lr if epoch < 2 else lr * 0.5


def main():
    keras.utils.set_random_seed(11)
    rng = np.random.default_rng(11)
    x = rng.normal(size=(128, 3)).astype("float32")
    y = (x @ np.array([[1.0], [2.0], [-1.0]], "float32")).astype("float32")

    model = keras.Sequential([keras.Input((3,)), layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1), loss="mse")
    history = model.fit(
        x, y, epochs=5, batch_size=32, verbose=0, callbacks=[keras.callbacks.LearningRateScheduler(scheduler)]
    )
    np.testing.assert_allclose(history.history["learning_rate"], [0.1, 0.1, 0.05, 0.025, 0.0125], rtol=1e-6)
    np.testing.assert_allclose(float(keras.ops.convert_to_numpy(model.optimizer.learning_rate)), 0.0125, rtol=1e-6)
    assert history.history["loss"][-1] < 0.05 * history.history["loss"][0], history.history["loss"]

    # A noisy target the model cannot fit below the noise: the loss stalls and the rate is reduced.
    y_noisy = y + rng.normal(scale=1.0, size=y.shape).astype("float32")
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1), loss="mse")
    reduce = keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.2, patience=1, min_delta=0.05, min_lr=1e-4)
    history = model.fit(x, y_noisy, epochs=6, batch_size=32, verbose=0, callbacks=[reduce])
    rates = history.history["learning_rate"]
    assert rates[0] == np.float32(0.1) and rates[-1] < 0.1, rates
    assert all(b <= a for a, b in zip(rates, rates[1:])), rates
    return {"loss": history.history["loss"][-1], "learning_rate": rates[-1]}
