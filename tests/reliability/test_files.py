"""Saving and loading paths: links, permissions, leftovers of killed saves, and paths that are not files.

Every case runs on every backend: the model and weights files are the same whatever engine wrote them, and each
engine's save path goes through the same writer.
"""

import os
import stat
import subprocess
import sys
import threading

import numpy as np
import pytest

import highlevel as hl


def _model(seed=0):
    hl.utils.set_random_seed(seed)
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
    return model


def _out(model):
    return hl.ops.convert_to_numpy(model(np.ones((1, 3), "float32")))


def test_save_through_a_link_writes_its_target(backend, tmp_path):
    real = tmp_path / "real.keras"
    link = tmp_path / "link.keras"
    _model(0).save(real)
    os.symlink(real, link)
    model = _model(1)
    model.save(link)
    assert os.path.islink(link), "the link must stay a link"
    np.testing.assert_allclose(_out(hl.saving.load_model(real)), _out(model))
    weights_link = tmp_path / "w.weights.h5"
    os.symlink(tmp_path / "w-real.weights.h5", weights_link)  # a dangling link: the save creates its target
    model.save_weights(weights_link)
    assert os.path.islink(weights_link) and os.path.isfile(tmp_path / "w-real.weights.h5")
    fresh = _model(2)
    fresh.load_weights(tmp_path / "w-real.weights.h5")
    np.testing.assert_allclose(_out(fresh), _out(model))


def test_new_files_follow_the_umask_and_replaced_files_keep_their_mode(backend, tmp_path):
    old = os.umask(0o027)
    try:
        path = tmp_path / "m.keras"
        _model().save(path)
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
        os.chmod(path, 0o604)
        _model().save(path)
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o604
        weights = tmp_path / "m.weights.h5"
        _model().save_weights(weights)
        assert stat.S_IMODE(os.stat(weights).st_mode) == 0o640
    finally:
        os.umask(old)


_KILLED_SAVE = """
import os, sys
import highlevel as hl
from highlevel.saving import archive
model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
def hang(f):
    f.write(b"partial")
    f.flush()
    print("writing", flush=True)
    sys.stdin.read()  # the parent kills us here, mid-save
archive.atomic_write(sys.argv[1], hang)
"""


def test_the_next_save_removes_what_a_killed_save_left(backend, tmp_path):
    path = tmp_path / "m.keras"
    env = dict(os.environ, HIGHLEVEL_BACKEND="native")
    proc = subprocess.Popen(
        [sys.executable, "-c", _KILLED_SAVE, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )
    try:
        assert proc.stdout.readline().strip() == b"writing"
    finally:
        proc.kill()
        proc.wait(timeout=60)
    left = [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]
    assert len(left) == 1, left
    # A save still running in another thread of a live process keeps its temporary file.
    busy = tmp_path / f".m.keras.{os.getpid()}.abc123.tmp"
    busy.write_bytes(b"in progress")
    _model().save(path)
    assert sorted(n for n in os.listdir(tmp_path) if n.endswith(".tmp")) == [busy.name]
    assert hl.saving.load_model(path) is not None


@pytest.mark.parametrize("load", ["load_model", "load_weights"])
def test_loaders_refuse_what_is_not_a_regular_file(backend, tmp_path, load):
    def call(path):
        if load == "load_model":
            return hl.saving.load_model(path)
        return _model().load_weights(path)

    with pytest.raises(hl.saving.InvalidFileError, match="character device"):
        call("/dev/zero")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = {}

    def attempt():
        try:
            call(fifo)
        except Exception as e:  # the error is what the test checks
            result["error"] = e

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive(), "reading a FIFO blocked"
    assert isinstance(result.get("error"), hl.saving.InvalidFileError), result
    assert "named pipe" in str(result["error"])
    with pytest.raises(FileNotFoundError, match="no such file"):
        call(tmp_path / "missing.keras")


def test_saving_over_a_device_or_a_folder_is_refused(backend, tmp_path):
    with pytest.raises(hl.saving.InvalidFileError, match="not a regular file"):
        _model().save_weights(os.devnull + "")
    assert os.path.exists(os.devnull)
