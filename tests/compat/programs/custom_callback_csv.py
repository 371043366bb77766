"""A custom Callback that records what the hooks receive and stops training itself; CSVLogger writes the logs."""

import csv

import numpy as np

import highlevel as keras
from highlevel import layers


class Recorder(keras.callbacks.Callback):
    def __init__(self, stop_below):
        super().__init__()
        self.stop_below = stop_below
        self.events = []
        self.batch_losses = []

    def on_train_begin(self, logs=None):
        self.events.append("train_begin")

    def on_epoch_begin(self, epoch, logs=None):
        self.events.append(f"epoch_begin:{epoch}")

    def on_train_batch_end(self, batch, logs=None):
        self.batch_losses.append(float(logs["loss"]))

    def on_epoch_end(self, epoch, logs=None):
        self.events.append(f"epoch_end:{epoch}")
        if logs["loss"] < self.stop_below:
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        self.events.append("train_end")


def main():
    keras.utils.set_random_seed(12)
    rng = np.random.default_rng(12)
    x = rng.normal(size=(160, 2)).astype("float32")
    y = (x[:, :1] * 2 + 1).astype("float32")

    model = keras.Sequential([keras.Input((2,)), layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    recorder = Recorder(stop_below=0.05)
    history = model.fit(
        x, y, epochs=50, batch_size=32, verbose=0, callbacks=[recorder, keras.callbacks.CSVLogger("training.csv")]
    )

    epochs_run = len(history.history["loss"])
    assert 1 < epochs_run < 50, epochs_run  # the callback stopped training
    assert history.history["loss"][-1] < 0.05 <= history.history["loss"][-2]
    assert recorder.events[0] == "train_begin" and recorder.events[-1] == "train_end"
    assert recorder.events[1:3] == ["epoch_begin:0", "epoch_end:0"]
    assert len(recorder.batch_losses) == epochs_run * 5

    with open("training.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["epoch"]) for r in rows] == list(range(epochs_run))
    assert {"epoch", "loss", "mae"} <= set(rows[0])
    np.testing.assert_allclose([float(r["loss"]) for r in rows], history.history["loss"], rtol=1e-5)
    return {"loss": history.history["loss"][-1], "epochs": epochs_run}
