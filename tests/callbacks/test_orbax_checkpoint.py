"""OrbaxCheckpoint: checkpoints written with Orbax's manager on every engine; a run resumed from one goes on
exactly as an uninterrupted run; ``max_to_keep``, ``save_freq`` and ``save_best_only`` as in Keras."""

import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import highlevel as hl
from tests.disk_cache import cache_key, cached_folder

RNG = np.random.default_rng(0)
X = RNG.normal(size=(16, 3)).astype("float32")
Y = (X @ np.array([[1.0], [-2.0], [0.5]], "float32")).astype("float32")


def _layers():
    # The checkpoint names each variable by its path, as Keras's does: the layers are named so that a model built
    # again has the same paths.
    return hl.Sequential(
        [hl.Input((3,)), hl.layers.Dense(4, activation="tanh", name="hidden"), hl.layers.Dense(1, name="out")]
    )


def _model(initial):
    model = _layers()
    model.set_weights(initial)
    model.compile(optimizer=hl.optimizers.Adam(0.1), loss="mse", metrics=["mae"])
    return model


def _steps(folder):
    return sorted(int(name) for name in os.listdir(folder) if name.isdigit())


def test_resumed_run_matches_an_uninterrupted_one(backend, tmp_path):
    hl.utils.set_random_seed(0)
    initial = [np.asarray(w) for w in _model_weights()]
    whole = _model(initial)
    history = whole.fit(X, Y, epochs=6, batch_size=4, shuffle=False, verbose=0).history["loss"]
    assert history[-1] < 0.5 * history[0]  # it learns

    folder = str(tmp_path / "ckpt")
    first = _model(initial)
    first.fit(X, Y, epochs=3, batch_size=4, shuffle=False, verbose=0, callbacks=[hl.callbacks.OrbaxCheckpoint(folder)])
    assert _steps(folder) == [2]  # the last epoch's index; max_to_keep=1 kept only it

    resumed = _model(initial)
    resumed.load_weights(folder)
    assert int(hl.ops.convert_to_numpy(resumed.optimizer.iterations)) == 12  # the optimizer's state came back
    for got, want in zip(resumed.get_weights(), first.get_weights()):
        np.testing.assert_array_equal(got, want)
    resumed.fit(X, Y, epochs=6, initial_epoch=3, batch_size=4, shuffle=False, verbose=0)
    for got, want in zip(resumed.get_weights(), whole.get_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def _model_weights():
    return _layers().get_weights()


def test_batch_frequency_max_to_keep_and_weights_only(backend, tmp_path):
    model = _model(_model_weights())
    folder = str(tmp_path / "ckpt")
    callback = hl.callbacks.OrbaxCheckpoint(
        folder, save_freq=4, max_to_keep=2, save_on_background=False, save_weights_only=True
    )
    model.fit(X, Y, epochs=2, batch_size=2, shuffle=False, verbose=0, callbacks=[callback])
    assert _steps(folder) == [12, 16]  # saved at 4, 8, 12, 16 batches; the two newest kept
    trained = model.get_weights()
    fresh = _model(_model_weights())
    assert hl.callbacks.orbax_checkpoint.load_orbax_checkpoint(fresh, folder, step=12) == 12
    assert int(hl.ops.convert_to_numpy(fresh.optimizer.iterations)) == 0  # weights only: no optimizer state
    fresh.load_weights(os.path.join(folder, "16"))  # one step's folder
    for got, want in zip(fresh.get_weights(), trained):
        np.testing.assert_allclose(got, want, rtol=1e-6)
    with pytest.raises(
        ValueError, match=r"No Orbax checkpoint for step 3 in the folder .*the steps there are \[12, 16\]"
    ):
        hl.callbacks.orbax_checkpoint.load_orbax_checkpoint(fresh, folder, step=3)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match=r"No Orbax checkpoint in the folder .*the steps there are \[\]"):
        fresh.load_weights(empty)


def test_save_best_only(backend, tmp_path):
    model = _model(_model_weights())
    folder = str(tmp_path / "ckpt")
    callback = hl.callbacks.OrbaxCheckpoint(
        folder, monitor="loss", save_best_only=True, max_to_keep=None, initial_value_threshold=-1.0
    )
    model.fit(X, Y, epochs=2, batch_size=8, verbose=0, callbacks=[callback])
    assert not os.path.exists(folder) or _steps(folder) == []  # no loss beats -1
    callback = hl.callbacks.OrbaxCheckpoint(folder, monitor="loss", save_best_only=True, max_to_keep=None)
    model.fit(X, Y, epochs=3, batch_size=8, verbose=0, callbacks=[callback])
    assert _steps(folder)[0] == 0 and len(_steps(folder)) >= 2  # the first epoch, and each better one
    with pytest.warns(UserWarning, match=r"'val_loss' is logged; it is not"):
        model.fit(X, Y, epochs=1, verbose=0, callbacks=[hl.callbacks.OrbaxCheckpoint(folder, save_best_only=True)])


def test_bad_arguments_and_missing_orbax(monkeypatch, tmp_path):
    with pytest.raises(ValueError, match=r"save_freq must be 'epoch' or a positive integer.*received 0"):
        hl.callbacks.OrbaxCheckpoint(str(tmp_path), save_freq=0)
    with pytest.raises(ValueError, match=r"max_to_keep must be a positive integer.*received 0"):
        hl.callbacks.OrbaxCheckpoint(str(tmp_path), max_to_keep=0)
    monkeypatch.setitem(sys.modules, "orbax", None)  # as if orbax-checkpoint were not installed
    monkeypatch.setitem(sys.modules, "orbax.checkpoint", None)
    with pytest.raises(ImportError, match=r'needs the orbax-checkpoint package.*pip install -e "\.\[orbax\]"'):
        hl.callbacks.OrbaxCheckpoint(str(tmp_path))


_KERAS_STEPS = """
import os, sys, numpy as np, keras
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
x, y = np.ones((16, 3), "float32"), np.zeros((16, 1), "float32")
for folder, kwargs, epochs in [(sys.argv[1], dict(save_freq=4, max_to_keep=2), 2), (sys.argv[2], {}, 3)]:
    callback = keras.callbacks.OrbaxCheckpoint(folder, save_on_background=False, **kwargs)
    model.fit(x, y, epochs=epochs, batch_size=2, verbose=0, callbacks=[callback])
    print(sorted(int(name) for name in os.listdir(folder) if name.isdigit()))
"""


def _keras_steps(folder):
    """Runs ``_KERAS_STEPS`` with real Keras on JAX (its checkpoints in a scratch folder); keeps what it printed
    in ``folder/stdout.txt``."""
    with tempfile.TemporaryDirectory() as scratch:
        keras_run = subprocess.run(
            [sys.executable, "-c", _KERAS_STEPS, os.path.join(scratch, "k1"), os.path.join(scratch, "k2")],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "KERAS_BACKEND": "jax"},
        )
    assert keras_run.returncode == 0, keras_run.stderr[-2000:]
    with open(os.path.join(folder, "stdout.txt"), "w") as f:
        f.write(keras_run.stdout)


def test_steps_kept_match_keras(tmp_path):
    # Keras's answer depends only on the script and the installed packages: computed once into the suite's cache
    # on disk (tests/disk_cache.py), as the other Keras oracles are, rather than a Keras process in every run.
    key = cache_key([_KERAS_STEPS], packages=("keras", "jax", "jaxlib", "orbax-checkpoint", "numpy"))
    with open(os.path.join(cached_folder("orbax_steps_keras", key, _keras_steps), "stdout.txt")) as f:
        keras_stdout = f.read()
    with hl.config.backend_scope("native"):
        model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
        x, y = np.ones((16, 3), "float32"), np.zeros((16, 1), "float32")
        ours = []
        for folder, kwargs, epochs in [
            (tmp_path / "h1", dict(save_freq=4, max_to_keep=2), 2),
            (tmp_path / "h2", {}, 3),
        ]:
            callback = hl.callbacks.OrbaxCheckpoint(folder, save_on_background=False, **kwargs)
            model.fit(x, y, epochs=epochs, batch_size=2, verbose=0, callbacks=[callback])
            ours.append(str(_steps(folder)))
    assert keras_stdout.split("\n")[-3:-1] == ours  # [12, 16] and [2]: batch counts, epoch indices


def test_background_saves_hold_the_state_of_their_step(backend, tmp_path):
    model = _model(_model_weights())
    seen = []
    record = hl.callbacks.LambdaCallback(on_train_batch_end=lambda batch, logs: seen.append(model.get_weights()))
    folder = str(tmp_path / "ckpt")
    callback = hl.callbacks.OrbaxCheckpoint(folder, save_freq=1, max_to_keep=None)  # written while training goes on
    model.fit(X, Y, epochs=1, batch_size=4, shuffle=False, verbose=0, callbacks=[record, callback])
    assert _steps(folder) == [1, 2, 3, 4]
    fresh = _model(_model_weights())
    for step in (1, 3):
        hl.callbacks.orbax_checkpoint.load_orbax_checkpoint(fresh, folder, step=step)
        assert not np.allclose(seen[step - 1][0], seen[step][0])  # the weights did move after the save
        for got, want in zip(fresh.get_weights(), seen[step - 1]):
            np.testing.assert_array_equal(got, want)
