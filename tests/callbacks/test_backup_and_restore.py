"""BackupAndRestore: an interrupted run, started again, ends bitwise equal to an uninterrupted one.

In process (a callback raising mid-training), in a child process killed with SIGKILL (mid-epoch and
mid-save), with a damaged latest backup, and with a NaN stop, on every backend.
"""

import inspect
import os
import random
import signal
import subprocess
import sys
import warnings

import numpy as np
import pytest

import highlevel as hl
from highlevel.saving import InvalidFileError

CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "backup_child.py")


class Interrupted(Exception):
    pass


class InterruptAt(hl.callbacks.Callback):
    """Raises at the end of batch ``batch`` of epoch ``epoch``: an exception, as a crash would stop the run."""

    def __init__(self, epoch, batch):
        super().__init__()
        self.at = (epoch, batch)

    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if (self.epoch, batch) == self.at:
            raise Interrupted()


class Jitter(hl.callbacks.Callback):
    """Moves a weight by seedless draws after every batch: the run then depends on the global seed generator's
    position and numpy's global stream, which a resume must restore too."""

    def on_train_batch_end(self, batch, logs=None):
        kernel = self.model.layers[0].kernel
        noise = hl.random.normal(tuple(kernel.shape)) * 1e-3 + float(np.random.uniform()) * 1e-4
        kernel.assign(kernel.value + noise)


def data(n=42):
    rng = np.random.default_rng(0)
    return rng.normal(size=(n, 5)).astype("float32"), rng.normal(size=(n, 2)).astype("float32")


def train(callbacks, built=True, epochs=4, eager=True, seed=3):
    """A fresh model from ``seed``, trained with shuffling, Dropout and Adam; returns (state, history).

    Eager by default: compiling a step per fit costs seconds on JAX and TensorFlow; one case and the
    child-process test run compiled."""
    hl.utils.set_random_seed(seed)
    x, y = data()
    layers = [hl.layers.Dense(8, activation="relu"), hl.layers.Dropout(0.3), hl.layers.Dense(2)]
    model = hl.Sequential(([hl.Input((5,))] if built else []) + layers)
    model.compile(optimizer=hl.optimizers.Adam(0.01), loss="mse", metrics=["mae"], run_eagerly=eager)
    history = model.fit(x, y, batch_size=6, epochs=epochs, shuffle=True, verbose=0, callbacks=[Jitter()] + callbacks)
    return state_of(model), history


def state_of(model):
    return [hl.ops.convert_to_numpy(v.value) for v in model.variables + model.optimizer.variables]


def assert_bitwise_equal(got, want, context=""):
    assert len(got) == len(want)
    for i, (a, b) in enumerate(zip(got, want)):
        assert a.dtype == b.dtype and np.array_equal(a, b), f"variable {i} differs {context}"


_REFERENCES = {}


def reference(built=True, eager=True):
    key = (hl.config.backend(), built, eager)
    if key not in _REFERENCES:
        _REFERENCES[key] = train([], built=built, eager=eager)
    return _REFERENCES[key]


def backups(folder):
    return sorted(n for n in os.listdir(folder) if n.startswith("backup-"))


# 7 batches per epoch (42 samples, batch size 6), 4 epochs.
@pytest.mark.parametrize(
    "save_freq, at, built, eager",
    [
        (3, (1, 4), True, False),  # mid-epoch backups, interrupted mid-epoch; compiled steps
        ("epoch", (2, 1), True, True),  # epoch backups: the interrupted epoch starts again
        (2, (0, 5), False, True),  # model built by the first batch, backup inside epoch 0
        (7, (2, 0), False, True),  # the backup falls on an epoch's last batch: the resumed epoch trains none
    ],
)
def test_interrupted_fit_resumes_bitwise(backend, tmp_path, save_freq, at, built, eager):
    want, want_history = reference(built, eager)
    folder = str(tmp_path / "backup")
    with pytest.raises(Interrupted):
        train([hl.callbacks.BackupAndRestore(folder, save_freq=save_freq), InterruptAt(*at)], built=built, eager=eager)
    assert backups(folder)
    got, history = train([hl.callbacks.BackupAndRestore(folder, save_freq=save_freq)], built=built, eager=eager)
    assert_bitwise_equal(got, want)
    resumed_epochs = len(history.epoch)
    assert history.history["loss"] == want_history.history["loss"][-resumed_epochs:]
    assert not os.path.exists(folder)  # deleted at a normal end


def test_sigkill_mid_save_and_mid_epoch_resumes_bitwise(backend, tmp_path):
    env = dict(os.environ, HIGHLEVEL_BACKEND=hl.config.backend(), BACKUP_CHILD_SLOW_SAVE="0.3")
    folder = str(tmp_path / "backup")
    children = []

    def start(out, *args, slow=True):
        err = open(tmp_path / (out + ".err"), "w")  # the child's errors, for the failure message
        child = subprocess.Popen(
            [sys.executable, CHILD, str(tmp_path / out), *args],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=env if slow else dict(env, BACKUP_CHILD_SLOW_SAVE=""),
        )
        err.close()
        child.err_path = tmp_path / (out + ".err")
        children.append(child)
        return child

    def kill_after(child, is_signal, count):
        seen, first = 0, None
        for line in child.stdout:
            first = first or line.strip()
            if is_signal(line):
                seen += 1
                if seen == count:
                    os.kill(child.pid, signal.SIGKILL)
                    break
        child.wait(timeout=60)
        assert child.returncode == -signal.SIGKILL, (
            f"the child ended by itself ({child.returncode}): {child.err_path.read_text()[-2000:]}"
        )
        return first

    try:
        # 1. Killed while writing its second backup: the temporary file is there, the first backup intact.
        first = kill_after(start("a.npz", folder), lambda line: line.startswith("saving"), 2)
        assert first == "batch 0 0"
        assert any(n.endswith(".tmp") for n in os.listdir(folder))
        assert backups(folder) == ["backup-000000000.hl.zip"]
        # 2. Resumed, then killed at a random batch (somewhere mid-epoch, or mid-save).
        count = random.Random().randint(2, 12)
        first = kill_after(start("b.npz", folder), lambda line: line.startswith("batch"), count)
        assert first == "batch 0 3", "the second run must resume after the first backup (3 batches)"
        # 3. Resumed to the end; the same process then trains the uninterrupted run (a fresh model from the same
        # seed, no backups) that the resumed one must equal.
        finisher = start("got.npz", folder, str(tmp_path / "want.npz"), slow=False)
        out, _ = finisher.communicate(timeout=240)
        assert finisher.returncode == 0, finisher.err_path.read_text()[-2000:]
        lines = out.strip().splitlines()
        assert lines[-2:] == ["done", "reference done"], finisher.err_path.read_text()[-2000:]
        assert not out.startswith("batch 0 0")
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
            child.stdout.close()
    want, got = np.load(tmp_path / "want.npz"), np.load(tmp_path / "got.npz")
    assert_bitwise_equal(
        [got[k] for k in got.files], [want[k] for k in want.files], f"(second run killed after {count} batches)"
    )
    assert not os.path.exists(folder)


def _corrupt(path, how):
    with open(path, "r+b") as f:
        if how == "truncate":
            f.truncate(os.path.getsize(path) // 2)
        else:  # flip bytes in the middle: the zip's CRC check catches it
            f.seek(os.path.getsize(path) // 2)
            chunk = f.read(16)
            f.seek(os.path.getsize(path) // 2)
            f.write(bytes(b ^ 0xFF for b in chunk))


@pytest.mark.parametrize("how", ["truncate", "flip"])
def test_damaged_latest_backup_falls_back_to_the_previous(backend, tmp_path, how):
    want, _ = reference()
    folder = str(tmp_path / "backup")
    with pytest.raises(Interrupted):
        train([hl.callbacks.BackupAndRestore(folder, save_freq=2, double_checkpoint=True), InterruptAt(1, 5)])
    names = backups(folder)
    assert len(names) == 2  # the latest and the one before it
    _corrupt(os.path.join(folder, names[-1]), how)
    with open(os.path.join(folder, ".backup-000000099.hl.zip.x1y2.tmp"), "wb") as f:
        f.write(b"half a backup")  # what a kill mid-save leaves
    with pytest.warns(UserWarning, match="cannot be read.*falling back"):
        got, _ = train([hl.callbacks.BackupAndRestore(folder, save_freq=2, double_checkpoint=True)])
    assert_bitwise_equal(got, want)  # resumed exactly, from the earlier backup


def test_single_checkpoint_keeps_only_the_newest_backup(tmp_path):
    folder = str(tmp_path / "backup")
    with pytest.raises(Interrupted):
        train([hl.callbacks.BackupAndRestore(folder, save_freq=2), InterruptAt(1, 5)])
    assert len(backups(folder)) == 1  # Keras's default: one training state on disk
    hl_sig = list(inspect.signature(hl.callbacks.BackupAndRestore).parameters)
    assert hl_sig == ["backup_dir", "save_freq", "double_checkpoint", "delete_checkpoint"]  # Keras's order


def test_no_readable_backup_is_a_clear_error(tmp_path):
    folder = tmp_path / "backup"
    folder.mkdir()
    (folder / "backup-000000000.hl.zip").write_bytes(b"not a zip")
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(InvalidFileError, match="none is readable.*Delete the folder"):
            model.fit(
                np.ones((4, 2)),
                np.ones((4, 1)),
                epochs=1,
                verbose=0,
                callbacks=[hl.callbacks.BackupAndRestore(str(folder))],
            )


def test_nan_stop_keeps_the_last_good_backup(backend, tmp_path):
    folder = str(tmp_path / "backup")
    x, y = data()
    x[30] = np.nan  # unshuffled: batch 5 (samples 30-35) has a NaN loss and TerminateOnNaN stops there

    def fit(x, y, callbacks):
        hl.utils.set_random_seed(0)
        model = hl.Sequential([hl.Input((5,)), hl.layers.Dense(2)])
        model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
        model.fit(x, y, batch_size=6, epochs=1, shuffle=False, verbose=0, callbacks=callbacks)
        return state_of(model)

    fit(x, y, [hl.callbacks.TerminateOnNaN(), hl.callbacks.BackupAndRestore(folder, save_freq=1)])
    assert backups(folder), "a NaN stop must keep the backups"
    # The kept backup is the last finite state (nothing is saved from a NaN batch): the five batches before
    # the NaN one. Resuming a run over those five batches trains none and ends where a clean run does.
    want = fit(x[:30], y[:30], [])
    trained = []
    got = fit(
        x[:30],
        y[:30],
        [
            hl.callbacks.BackupAndRestore(folder, save_freq=1, delete_checkpoint=False),
            hl.callbacks.LambdaCallback(on_train_batch_begin=lambda b, logs: trained.append(b)),
        ],
    )
    assert trained == []
    assert_bitwise_equal(got, want)


def test_finished_run_kept_with_delete_checkpoint_false_restores_and_trains_nothing(backend, tmp_path):
    folder = str(tmp_path / "backup")
    want, _ = train([hl.callbacks.BackupAndRestore(folder, delete_checkpoint=False)], epochs=2)
    assert backups(folder)
    batches = []
    got, history = train(
        [
            hl.callbacks.BackupAndRestore(folder, delete_checkpoint=False),
            hl.callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: batches.append(b)),
        ],
        epochs=2,
    )
    assert batches == [] and history.epoch == []
    assert_bitwise_equal(got, want)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"backup_dir": ""}, "backup_dir must be a non-empty folder path"),
        ({"backup_dir": 3}, "backup_dir must be a non-empty folder path"),
        ({"backup_dir": "d", "save_freq": 0}, "save_freq must be 'epoch' or a positive number"),
        ({"backup_dir": "d", "save_freq": "batch"}, "save_freq must be 'epoch' or a positive number"),
        ({"backup_dir": "d", "save_freq": True}, "save_freq must be 'epoch' or a positive number"),
        ({"backup_dir": "d", "delete_checkpoint": "yes"}, "delete_checkpoint must be True or False"),
    ],
)
def test_arguments_are_validated(kwargs, message):
    with pytest.raises(ValueError, match=message):
        hl.callbacks.BackupAndRestore(**kwargs)


def test_backup_dir_that_is_a_file_is_refused(tmp_path):
    path = tmp_path / "file"
    path.write_text("x")
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match="exists and is not a folder"):
        model.fit(
            np.ones((4, 2)), np.ones((4, 1)), epochs=1, verbose=0, callbacks=[hl.callbacks.BackupAndRestore(str(path))]
        )
