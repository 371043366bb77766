"""Timeseries forecasting with timeseries_dataset_from_array: windows of past values predict the next value."""

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(26)
    t = np.arange(400, dtype="float32")
    series = (np.sin(0.3 * t) + 0.5 * np.sin(0.11 * t)).astype("float32")
    features = np.stack([series, np.cos(0.3 * t)], axis=-1).astype("float32")
    window = 12
    # Inputs: rows i .. i+window-1; target: the series at i+window.
    dataset = keras.utils.timeseries_dataset_from_array(
        features[:-window], targets=series[window:], sequence_length=window, batch_size=32, shuffle=True, seed=26
    )
    first_x, first_y = next(iter(dataset))
    assert tuple(first_x.shape) == (32, window, 2) and tuple(first_y.shape) == (32,)

    model = keras.Sequential(
        [
            keras.Input((window, 2)),
            layers.Conv1D(8, 3, activation="relu"),
            layers.Flatten(),
            layers.Dense(1),
        ]
    )
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    history = model.fit(dataset, epochs=6, verbose=0)
    assert history.history["loss"][-1] < 0.1 * history.history["loss"][0], history.history["loss"]
    assert history.history["mae"][-1] < 0.15, history.history["mae"]
    return {k: v[-1] for k, v in history.history.items()}
