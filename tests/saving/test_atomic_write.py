"""Writes are atomic: a SIGKILL at any moment leaves a loadable file, and a failed write raises, names the
path, keeps the old file and leaves no temporary file behind."""

import errno
import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

import highlevel as hl
import highlevel.saving  # noqa: F401
from highlevel.saving import archive

from .helpers import build, numpy_vars

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _harness(folder, rounds, seed, *extra):
    env = dict(os.environ, HIGHLEVEL_BACKEND="native")
    proc = subprocess.run(
        [sys.executable, "-m", "tests.saving.sigkill_harness", str(folder), str(rounds), str(seed), *extra],
        cwd=_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the harness forks its writers (POSIX only)")
def test_sigkill_while_saving_always_leaves_a_loadable_file(tmp_path):
    seed = random.randrange(2**31)
    rounds = _harness(tmp_path, 20, seed)
    context = f"(seed {seed}) {rounds}"
    assert len(rounds) == 20
    assert not [r for r in rounds if r["error"]], context
    assert all(r["k"] is not None for r in rounds), context
    # The kills must have struck mid-write (a temporary file was left) and after complete saves (the file
    # moved on from the first save's k = 0), or the test proves nothing.
    assert sum(r["leftover_tmp"] for r in rounds) >= 1, context
    assert any(r["k"] > 0 for r in rounds if r["kind"] == "model"), context
    assert any(r["k"] > 0 for r in rounds if r["kind"] == "weights"), context


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the harness forks its writers (POSIX only)")
def test_sigkill_harness_catches_a_writer_that_is_not_atomic(tmp_path):
    # The control: the same kills against a writer that overwrites the file in place do tear it.
    seed = random.randrange(2**31)
    rounds = _harness(tmp_path, 20, seed, "in-place")
    assert [r for r in rounds if r["error"]], f"(seed {seed}) no torn file detected: {rounds}"


def _model_and_file(tmp_path, save):
    model = build("sequential", run_eagerly=True)
    path = tmp_path / ("m.hl.zip" if save == "save" else "m.safetensors")
    getattr(model, save)(path)
    return model, path, path.read_bytes()


def _assert_old_file_intact(model, path, old_bytes, save):
    assert path.read_bytes() == old_bytes
    if save == "save":
        again = hl.saving.load_model(path)
    else:
        again = build("sequential", run_eagerly=True)
        again.load_weights(path)
    for a, b in zip(numpy_vars(model.variables), numpy_vars(again.variables)):
        np.testing.assert_array_equal(a, b)
    assert sorted(os.listdir(path.parent)) == [path.name], "a temporary file was left behind"


def _bump(model):
    for v in model.variables:
        v.assign(np.asarray(hl.ops.convert_to_numpy(v.value)) + 1)


class _FullDisk:
    """A file object whose writes fail with ENOSPC after a partial write, as a full disk does."""

    def __init__(self, f):
        self._f = f

    def write(self, data):
        self._f.write(bytes(data[:10]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name):
        return getattr(self._f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()


@pytest.mark.parametrize("save", ["save", "save_weights"])
@pytest.mark.parametrize("where", ["write", "fsync", "replace"])
def test_no_space_left_raises_and_keeps_the_old_file(tmp_path, monkeypatch, save, where):
    model, path, old = _model_and_file(tmp_path, save)
    old_values = model.get_weights()
    _bump(model)  # the failed save would have written different weights
    if where == "write":
        real_fdopen = os.fdopen
        monkeypatch.setattr(os, "fdopen", lambda *a, **k: _FullDisk(real_fdopen(*a, **k)))
    else:

        def no_space(*args, **kwargs):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(os, where, no_space)
    with pytest.raises(OSError) as info:
        getattr(model, save)(path)
    monkeypatch.undo()
    assert info.value.errno == errno.ENOSPC
    assert str(path) in str(info.value) and "No space left" in str(info.value)
    assert "unchanged" in str(info.value)
    model.set_weights(old_values)
    _assert_old_file_intact(model, path, old, save)


@pytest.mark.parametrize("save", ["save", "save_weights"])
def test_read_only_folder_raises_naming_the_path(tmp_path, monkeypatch, save):
    model, path, old = _model_and_file(tmp_path, save)
    os.chmod(tmp_path, 0o555)
    try:
        if os.access(tmp_path, os.W_OK):
            # Root (or a file system ignoring modes) writes regardless; refuse the temporary file the way a
            # read-only folder does, so the error path is still exercised.
            real_mkstemp = archive.tempfile.mkstemp

            def denied(*args, dir=None, **kwargs):
                if os.path.samefile(dir, tmp_path):
                    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(dir))
                return real_mkstemp(*args, dir=dir, **kwargs)

            monkeypatch.setattr(archive.tempfile, "mkstemp", denied)
        with pytest.raises(PermissionError) as info:
            getattr(model, save)(path)
    finally:
        monkeypatch.undo()
        os.chmod(tmp_path, 0o755)
    assert info.value.errno == errno.EACCES
    assert str(path) in str(info.value) and "Permission denied" in str(info.value)
    _assert_old_file_intact(model, path, old, save)


def test_save_replaces_and_syncs_through_a_temporary_file_in_the_same_folder(tmp_path, monkeypatch):
    # The order that makes the write atomic and durable: temporary file in the destination's folder, its
    # data fsynced, os.replace over the destination, then the folder fsynced.
    model, path, _ = _model_and_file(tmp_path, "save")
    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("fsync-dir" if os.path.isdir(f"/proc/self/fd/{fd}") else "fsync-file",))
        return real_fsync(fd)

    def replace(src, dst):
        events.append(("replace", os.path.dirname(os.path.abspath(src)), os.fspath(dst)))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    model.save(path)
    model.save_weights(tmp_path / "w.safetensors")
    monkeypatch.undo()
    expected = [("fsync-file",), ("replace", str(tmp_path), str(path))]
    if os.path.isdir("/proc/self/fd"):  # where the folder's fsync can be told apart
        expected.append(("fsync-dir",))
        assert events[3:] == [
            ("fsync-file",),
            ("replace", str(tmp_path), str(tmp_path / "w.safetensors")),
            ("fsync-dir",),
        ]
    assert events[: len(expected)] == expected
    assert sorted(os.listdir(tmp_path)) == ["m.hl.zip", "w.safetensors"]
