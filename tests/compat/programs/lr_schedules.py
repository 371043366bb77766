"""Learning-rate schedules passed to an optimizer: the rate follows the schedule step by step."""

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(29)
    rng = np.random.default_rng(29)
    x = rng.normal(size=(256, 4)).astype("float32")
    y = (x @ np.array([[0.5], [-1.0], [2.0], [0.0]], "float32") + 1.0).astype("float32")

    schedule = keras.optimizers.schedules.ExponentialDecay(
        initial_learning_rate=0.1, decay_steps=8, decay_rate=0.5, staircase=True
    )
    assert abs(float(schedule(0)) - 0.1) < 1e-7 and abs(float(schedule(16)) - 0.025) < 1e-7
    model = keras.Sequential([keras.Input((4,)), layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=schedule), loss="mse")
    rates = []
    record = keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: rates.append(float(keras.ops.convert_to_numpy(model.optimizer.learning_rate)))
    )
    history = model.fit(x, y, epochs=4, batch_size=32, verbose=0, callbacks=[record])  # 8 steps per epoch
    np.testing.assert_allclose(rates, [0.05, 0.025, 0.0125, 0.00625], rtol=1e-6)  # the rate of the next step
    assert history.history["loss"][-1] < 0.05 * history.history["loss"][0], history.history["loss"]

    cosine = keras.optimizers.schedules.CosineDecay(
        initial_learning_rate=0.05, decay_steps=32, warmup_target=0.1, warmup_steps=8
    )
    second = keras.Sequential([keras.Input((4,)), layers.Dense(1)])
    second.compile(optimizer=keras.optimizers.Adam(learning_rate=cosine), loss="mse")
    rates = []
    record = keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: rates.append(float(keras.ops.convert_to_numpy(second.optimizer.learning_rate)))
    )
    cosine_history = second.fit(x, y, epochs=5, batch_size=32, verbose=0, callbacks=[record])
    assert abs(rates[0] - 0.1) < 1e-6 and rates[-1] < 1e-6, rates  # warmed up to 0.1, then decayed to 0
    assert cosine_history.history["loss"][-1] < 0.2 * cosine_history.history["loss"][0]
    return {"loss": history.history["loss"][-1], "cosine_loss": cosine_history.history["loss"][-1]}
