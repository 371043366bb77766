"""Writers of small files in the real formats of Keras's datasets, and the placing of them in a cache.

CIFAR's batches are written as the original files are: Python 2 pickles (protocol 2, strings as byte strings,
numpy's functions under ``numpy.core.multiarray``), so the tests read what a real download holds.
"""

import gzip
import hashlib
import io
import os
import pickle
import struct
import tarfile

import numpy as np


class _Py2Pickler(pickle._Pickler):
    """Pickles as Python 2's cPickle did at protocol 2: ``str`` and ``bytes`` as BINSTRING, globals by the
    module names of numpy 1."""

    dispatch = dict(pickle._Pickler.dispatch)

    def _save_py2_str(self, obj):
        data = obj if isinstance(obj, bytes) else obj.encode("latin1")
        if len(data) < 256:
            self.write(pickle.SHORT_BINSTRING + bytes([len(data)]) + data)
        else:
            self.write(pickle.BINSTRING + struct.pack("<i", len(data)) + data)
        self.memoize(obj)

    dispatch[bytes] = _save_py2_str
    dispatch[str] = _save_py2_str

    def save_global(self, obj, name=None):
        module = obj.__module__.replace("numpy._core", "numpy.core")
        self.write(pickle.GLOBAL + module.encode() + b"\n" + (name or obj.__qualname__).encode() + b"\n")
        self.memoize(obj)


def py2_pickle(obj):
    buffer = io.BytesIO()
    _Py2Pickler(buffer, protocol=2).dump(obj)
    return buffer.getvalue()


def cifar_batch(images, **labels):
    """A CIFAR batch file's bytes: ``images`` (n, 3, 32, 32) uint8, ``labels`` e.g. labels=[...] or
    fine_labels=[...], coarse_labels=[...]."""
    n = len(images)
    batch = {
        "batch_label": "testing batch 1 of 1",
        "data": np.asarray(images, np.uint8).reshape(n, 3072),
        "filenames": [f"img_{i}.png" for i in range(n)],
    }
    batch.update({k: [int(v) for v in vs] for k, vs in labels.items()})
    return py2_pickle(batch)


def idx_gz(array):
    array = np.asarray(array, np.uint8)
    header = struct.pack(">HBB", 0, 0x08, array.ndim) + struct.pack(f">{array.ndim}I", *array.shape)
    return gzip.compress(header + array.tobytes())


def npz(**arrays):
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def tar_gz(members):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def ragged(rng, n, vocabulary, longest):
    """An object array of ``n`` lists of word indices 1..vocabulary-1, of varied lengths 1..longest."""
    out = np.empty(n, dtype=object)
    for i in range(n):
        out[i] = [int(w) for w in rng.integers(1, vocabulary, size=int(rng.integers(1, longest + 1)))]
    return out


def place(monkeypatch, module, key, data, folder, url, fname=None):
    """Writes ``data`` at ``folder/fname`` (default: ``key``) and points ``module.SOURCES[key]`` at ``url``
    with the hash of ``data`` (of the kind the real entry has), so the loader finds a valid cached file."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, fname or key)
    with open(path, "wb") as f:
        f.write(data)
    _, real = module.SOURCES[key]
    digest = None if real is None else hashlib.new("md5" if len(real) == 32 else "sha256", data).hexdigest()
    monkeypatch.setitem(module.SOURCES, key, (url, digest))
    return path
