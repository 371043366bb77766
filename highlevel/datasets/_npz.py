"""Reading a dataset's ``.npz`` file: the arrays it must hold, or an error that says which file to replace.

>>> import io
>>> import numpy as np
>>> buffer = io.BytesIO(); np.savez(buffer, x=np.arange(3)); _ = buffer.seek(0)
>>> read_arrays(buffer, ("x",), "example")["x"]
array([0, 1, 2])
"""

import zipfile

import numpy as np

from highlevel.datasets._safe_pickle import load_npz


def _fail(where, problem):
    raise ValueError(
        f"{where} is not a valid dataset file: {problem}. Delete it so that it is downloaded again, "
        "or put the original file there."
    )


def read_arrays(path, keys, where=None, objects=False):
    """The arrays ``keys`` of the ``.npz`` file at ``path``, as a dict.

    Args:
        path: the file (a path or a binary file object).
        keys: the arrays the file must hold.
        where: how errors name the file (by default ``path``).
        objects: whether object arrays (ragged sequences) may be read; they are read with an unpickler that
            only rebuilds numpy arrays (see ``_safe_pickle``).
    """
    where = path if where is None else where
    try:
        if objects:
            arrays = load_npz(path)
        else:
            with np.load(path, allow_pickle=False) as f:
                arrays = {k: f[k] for k in f.files if k in keys}
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as e:
        _fail(where, f"{type(e).__name__}: {e}")
    missing = [k for k in keys if k not in arrays]
    if missing:
        _fail(where, f"it lacks the arrays {missing}")
    return {k: arrays[k] for k in keys}
