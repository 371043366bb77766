"""ModelCheckpoint: file-name templates, save_best_only, weights-only files, batch-level saves, max_to_keep,
reloading what it saved, and its argument errors."""

import os

import numpy as np
import pytest

import highlevel as hl


def _data(n=10):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype("float32")
    return x, (x @ np.array([[1.0], [-2.0], [0.5]], "float32")).astype("float32")


def _model():
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(4, activation="relu"), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    return model


def test_template_creates_folders_and_the_file_reloads(backend, tmp_path):
    x, y = _data()
    model = _model()
    pattern = str(tmp_path / "a" / "b" / "ckpt-{epoch:02d}-{val_loss:.3f}.keras")
    history = model.fit(
        x,
        y,
        epochs=3,
        batch_size=5,
        validation_data=(x, y),
        verbose=0,
        callbacks=[hl.callbacks.ModelCheckpoint(pattern)],
    )
    expected = [f"ckpt-{e + 1:02d}-{v:.3f}.keras" for e, v in enumerate(history.history["val_loss"])]
    assert sorted(os.listdir(tmp_path / "a" / "b")) == expected
    again = hl.saving.load_model(tmp_path / "a" / "b" / expected[-1])
    np.testing.assert_allclose(again.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6, atol=1e-6)


def _drive(cb, model, values, key="val_loss"):
    """Calls the epoch hooks with ``{key: value}`` logs, as fit would."""
    cb.set_model(model)
    cb.on_train_begin()
    for epoch, value in enumerate(values):
        cb.on_epoch_begin(epoch)
        cb.on_epoch_end(epoch, {} if value is None else {key: value})
    cb.on_train_end()


def test_save_best_only_writes_only_on_improvement(backend, tmp_path):
    model = _model()
    cb = hl.callbacks.ModelCheckpoint(str(tmp_path / "min-{epoch}.keras"), save_best_only=True)
    _drive(cb, model, [1.0, 0.5, 0.7, 0.4, 0.4])
    assert sorted(os.listdir(tmp_path)) == ["min-1.keras", "min-2.keras", "min-4.keras"]
    assert cb.best == 0.4

    folder = tmp_path / "max"
    cb = hl.callbacks.ModelCheckpoint(
        str(folder / "{epoch}.weights.safetensors"),
        monitor="val_acc",
        mode="max",
        save_best_only=True,
        save_weights_only=True,
        initial_value_threshold=0.6,
    )
    _drive(cb, model, [0.5, 0.7, 0.65, 0.9], key="val_acc")
    assert sorted(os.listdir(folder)) == ["2.weights.safetensors", "4.weights.safetensors"]

    # A fixed name is rewritten only when the monitored value improves.
    path = tmp_path / "best.keras"
    cb = hl.callbacks.ModelCheckpoint(path, monitor="loss", save_best_only=True, verbose=1)
    cb.set_model(model)
    cb.on_epoch_end(0, {"loss": 1.0})
    os.utime(path, (0, 0))
    cb.on_epoch_end(1, {"loss": 2.0})
    assert os.path.getmtime(path) == 0
    cb.on_epoch_end(2, {"loss": 0.5})
    assert os.path.getmtime(path) > 0


def test_missing_monitor_warns_and_saves(backend, tmp_path):
    cb = hl.callbacks.ModelCheckpoint(str(tmp_path / "m-{epoch}.keras"), monitor="val_auc", save_best_only=True)
    with pytest.warns(UserWarning, match="val_auc"):
        _drive(cb, _model(), [0.3], key="loss")
    assert os.listdir(tmp_path) == ["m-1.keras"]


def test_weights_only_reload_predicts_the_same(backend, tmp_path):
    x, y = _data()
    model = _model()
    model.fit(
        x,
        y,
        epochs=2,
        batch_size=5,
        verbose=0,
        callbacks=[
            hl.callbacks.ModelCheckpoint(tmp_path / "w-{epoch}-{loss:.4f}.weights.safetensors", save_weights_only=True)
        ],
    )
    names = sorted(os.listdir(tmp_path))
    assert [n.split("-")[1] for n in names] == ["1", "2"] and all(n.endswith(".weights.safetensors") for n in names)
    fresh = _model()
    fresh.load_weights(tmp_path / names[-1])
    np.testing.assert_allclose(fresh.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6, atol=1e-6)


def test_batch_save_freq_counts_batches_across_epochs(backend, tmp_path):
    x, y = _data(10)  # 5 batches of 2 per epoch
    cb = hl.callbacks.ModelCheckpoint(
        tmp_path / "e{epoch}-b{batch}.weights.safetensors", save_weights_only=True, save_freq=3
    )
    _model().fit(x, y, epochs=2, batch_size=2, shuffle=False, verbose=0, callbacks=[cb])
    # global batches 3, 6 and 9 = epoch 1 batch 3, epoch 2 batch 1, epoch 2 batch 4
    assert sorted(os.listdir(tmp_path)) == [
        "e1-b3.weights.safetensors",
        "e2-b1.weights.safetensors",
        "e2-b4.weights.safetensors",
    ]


def test_max_to_keep_deletes_only_its_own_older_files(backend, tmp_path):
    x, y = _data()
    for name in ("ckpt-00.keras", "notes.txt"):  # not written by the callback: must survive
        (tmp_path / name).write_text("keep me")
    cb = hl.callbacks.ModelCheckpoint(str(tmp_path / "ckpt-{epoch:02d}.keras"), max_to_keep=2)
    model = _model()
    model.fit(x, y, epochs=4, batch_size=5, verbose=0, callbacks=[cb])
    assert sorted(os.listdir(tmp_path)) == ["ckpt-00.keras", "ckpt-03.keras", "ckpt-04.keras", "notes.txt"]
    # The count carries over to a further fit with the same callback.
    model.fit(x, y, epochs=5, initial_epoch=4, batch_size=5, verbose=0, callbacks=[cb])
    assert sorted(os.listdir(tmp_path)) == ["ckpt-00.keras", "ckpt-04.keras", "ckpt-05.keras", "notes.txt"]
    # Rewriting one fixed name keeps that one file.
    fixed = tmp_path / "fixed"
    cb = hl.callbacks.ModelCheckpoint(fixed / "last.keras", max_to_keep=1)
    model.fit(x, y, epochs=2, batch_size=5, verbose=0, callbacks=[cb])
    assert os.listdir(fixed) == ["last.keras"]


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"save_freq": "batch"}, ValueError, "save_freq"),
        ({"save_freq": 0}, ValueError, "positive integer"),
        ({"save_freq": 1.5}, ValueError, "save_freq"),
        ({"save_freq": True}, ValueError, "save_freq"),
        ({"mode": "maximum"}, ValueError, "mode='maximum'"),
        ({"max_to_keep": 0}, ValueError, "max_to_keep"),
        ({"filepath": "m.keras", "save_weights_only": True}, ValueError, r"must end in `\.weights\.safetensors`"),
        ({"filepath": "m.weights.h5"}, ValueError, r"\.keras"),
        ({"filepath": "m.weights.safetensors"}, ValueError, "save_weights_only=True"),
        ({"filepath": "m.h5"}, ValueError, r"\.keras"),
    ],
)
def test_bad_arguments_raise_clear_errors(kwargs, error, match):
    kwargs = {"filepath": "m.keras", **kwargs}
    with pytest.raises(error, match=match):
        hl.callbacks.ModelCheckpoint(**kwargs)


def test_template_errors(tmp_path):
    cb = hl.callbacks.ModelCheckpoint(str(tmp_path / "{epoch}-{val_acc:.2f}.keras"))
    cb.set_model(None)
    with pytest.raises(KeyError, match="val_acc.*Available fields"):
        cb.on_epoch_end(0, {"loss": 1.0})
    os.mkdir(tmp_path / "taken.keras")
    cb = hl.callbacks.ModelCheckpoint(str(tmp_path / "taken.keras"))
    cb.set_model(None)
    with pytest.raises(IsADirectoryError, match="existing folder"):
        cb.on_epoch_end(0, {"loss": 1.0})


def test_keras_weights_h5_name_checkpoints_weights_that_load_back(backend, tmp_path):
    # Keras programs name weight checkpoints `.weights.h5`; the file has Keras's HDF5 layout, and loads back.
    x = np.random.default_rng(0).normal(size=(32, 4)).astype("float32")
    y = x @ np.ones((4, 1), "float32")
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    path = str(tmp_path / "best.weights.h5")
    model.fit(x, y, epochs=3, verbose=0, callbacks=[hl.callbacks.ModelCheckpoint(path, save_weights_only=True)])
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89HDF\r\n\x1a\n"
    fresh = hl.Sequential([hl.Input((4,)), hl.layers.Dense(1)])
    fresh.load_weights(path)
    for a, b in zip(fresh.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(a, b)
