"""CSVLogger: the file's content in fit (header, rows, append mode) and byte-equality with Keras's logger."""

import csv

import numpy as np
import pytest

import highlevel as hl


def test_fit_writes_one_row_per_epoch_and_appends(backend, tmp_path):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(8, 3)).astype("float32")
    y = x[:, :1].astype("float32")
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    path = tmp_path / "log.csv"
    h1 = model.fit(x, y, epochs=2, verbose=0, validation_data=(x, y), callbacks=[hl.callbacks.CSVLogger(path)])
    logger = hl.callbacks.CSVLogger(str(path), append=True)
    h2 = model.fit(x, y, epochs=3, initial_epoch=2, verbose=0, validation_data=(x, y), callbacks=[logger])
    assert logger.csv_file.closed
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["epoch", "loss", "mae", "val_loss", "val_mae"]  # a single header in append mode
    assert [r[0] for r in rows[1:]] == ["0", "1", "2"]
    history = {k: h1.history[k] + h2.history[k] for k in h1.history}
    for i, row in enumerate(rows[1:]):
        for key, cell in zip(rows[0][1:], row[1:]):
            assert float(cell) == history[key][i]
    # without append the file is overwritten
    model.fit(x, y, epochs=1, verbose=0, callbacks=[hl.callbacks.CSVLogger(path, separator=";")])
    lines = path.read_text().splitlines()
    assert lines[0] == "epoch;loss;mae;val_loss;val_mae" and len(lines) == 2 and lines[1].endswith(";NA;NA")


def _drive(cb, epochs_logs):
    cb.set_model(None)
    cb.on_train_begin({})
    for epoch, logs in enumerate(epochs_logs):
        cb.on_epoch_end(epoch, dict(logs))
    cb.on_train_end({})


@pytest.mark.parametrize("append", [False, True])
def test_matches_keras_bytes(tmp_path, append):
    keras = pytest.importorskip("keras")
    logs = [
        {"loss": 0.5, "acc": np.float32(0.25), "name": "a,b", "vec": np.array([1.0, 2.0])},
        {"loss": 0.125, "acc": np.float32(0.5), "name": "c", "vec": [3, 4], "val_loss": 1.0},
    ]
    ours, theirs = tmp_path / "ours.csv", tmp_path / "theirs.csv"
    for _ in range(2 if append else 1):
        _drive(hl.callbacks.CSVLogger(ours, separator="\t", append=append), logs)
        _drive(keras.callbacks.CSVLogger(str(theirs), separator="\t", append=append), logs)
    assert ours.read_bytes() == theirs.read_bytes()
