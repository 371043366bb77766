"""Regression with keras.metrics.RootMeanSquaredError and MeanAbsolutePercentageError (a Boston-housing-shaped
table: 13 numeric features, a positive price), features standardized with a Normalization layer."""

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(37)
    rng = np.random.default_rng(37)
    x = (rng.normal(size=(404, 13)) * rng.uniform(1, 100, size=13) + rng.uniform(0, 500, size=13)).astype("float32")
    z = (x - x.mean(0)) / x.std(0)
    y = (22 + 4 * z[:, 5] - 3 * z[:, 12] + 2 * np.abs(z[:, 0]) + rng.normal(scale=0.5, size=404)).astype("float32")

    normalizer = layers.Normalization()
    normalizer.adapt(x[:320])
    model = keras.Sequential([keras.Input((13,)), normalizer, layers.Dense(32, activation="relu"), layers.Dense(1)])
    model.compile(
        optimizer=keras.optimizers.Adam(0.05),
        loss="mse",
        metrics=[keras.metrics.RootMeanSquaredError(), keras.metrics.MeanAbsolutePercentageError()],
    )
    history = model.fit(x[:320], y[:320], validation_split=0.2, epochs=10, batch_size=32, verbose=0)
    logs = model.evaluate(x[320:], y[320:], verbose=0, return_dict=True)
    assert abs(logs["root_mean_squared_error"] - np.sqrt(logs["loss"])) < 1e-3 * max(1.0, logs["loss"])
    assert history.history["loss"][-1] < 0.05 * history.history["loss"][0], history.history["loss"]
    # Far better than always predicting the mean (whose RMSE is the targets' standard deviation, about 5.5).
    assert logs["root_mean_squared_error"] < 0.65 * y[320:].std(), (logs, y[320:].std())
    assert logs["mean_absolute_percentage_error"] < 15, logs
    return logs
