"""Reading the pickles inside the datasets' files without running code from them.

CIFAR's python batches are pickled dicts of numpy arrays, byte strings and lists; IMDB's and Reuters's
``.npz`` files keep their ragged sequences as object arrays, which numpy stores as pickles. A pickle can
name any importable callable and call it while loading, so these are read with an unpickler that resolves
only the few numpy names that rebuild arrays, dtypes and scalars (and ``_codecs.encode`` limited to the
latin1 encoding of a string, which is how Python 3 writes bytes at protocol 2). Every other name is refused:
an ``os.system`` or ``builtins.eval`` in a tampered file raises instead of running. Dicts, lists, tuples,
strings, bytes and numbers need no names at all.

>>> import io, pickle
>>> import numpy as np
>>> load_pickle(io.BytesIO(pickle.dumps({"x": np.arange(3), "y": [1, 2]}, protocol=2)))
{'x': array([0, 1, 2]), 'y': [1, 2]}
>>> load_pickle(io.BytesIO(pickle.dumps(print)))
Traceback (most recent call last):
...
_pickle.UnpicklingError: Refusing to load builtins.print from a dataset file: ...
"""

import io
import pickle
import zipfile

import numpy as np

# numpy's own rebuild functions, taken from what numpy itself pickles, so that both spellings of their
# module (``numpy.core`` before numpy 2, ``numpy._core`` after) resolve without importing either.
_RECONSTRUCT = np.empty(0).__reduce__()[0]
_FROMBUFFER = np.empty(1).__reduce_ex__(5)[0]  # what protocol 5 pickles rebuild arrays with
_SCALAR = np.int64(0).__reduce__()[0]


def _latin1_bytes(text, encoding):
    """What a protocol 2 pickle written by Python 3 calls to rebuild a ``bytes`` object (as
    ``_codecs.encode(text, "latin1")``); any other codec is refused."""
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        raise pickle.UnpicklingError(
            f"Refusing _codecs.encode with {type(text).__name__} and {encoding!r} in a "
            "dataset file; only the latin1 encoding of a string is allowed."
        )
    return text.encode("latin1")


_ALLOWED = {
    ("numpy", "ndarray"): np.ndarray,
    ("numpy", "dtype"): np.dtype,
    ("numpy.core.multiarray", "_reconstruct"): _RECONSTRUCT,
    ("numpy._core.multiarray", "_reconstruct"): _RECONSTRUCT,
    ("numpy.core.multiarray", "scalar"): _SCALAR,
    ("numpy._core.multiarray", "scalar"): _SCALAR,
    ("numpy.core.numeric", "_frombuffer"): _FROMBUFFER,
    ("numpy._core.numeric", "_frombuffer"): _FROMBUFFER,
    ("_codecs", "encode"): _latin1_bytes,
}


class _NumpyOnlyUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        try:
            return _ALLOWED[(module, name)]
        except KeyError:
            raise pickle.UnpicklingError(
                f"Refusing to load {module}.{name} from a dataset file: only numpy arrays, dtypes and plain "
                "Python values are allowed there. The file is corrupted or was tampered with; delete it so that "
                "it is downloaded again."
            ) from None


def load_pickle(file, encoding="bytes"):
    """Unpickles ``file`` (a binary file object) allowing only numpy's array, dtype and scalar rebuilders.

    ``encoding="bytes"`` reads the strings of a Python 2 pickle (CIFAR's) as bytes, as numpy needs them.
    """
    return _NumpyOnlyUnpickler(file, encoding=encoding).load()


def _read_npy(stream, member, path):
    version = np.lib.format.read_magic(stream)
    read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
    shape, _, dtype = read_header(stream)
    if not dtype.hasobject:
        stream.seek(0)
        return np.lib.format.read_array(stream, allow_pickle=False)
    array = load_pickle(stream, encoding="latin1")
    if not isinstance(array, np.ndarray) or array.shape != tuple(shape):
        raise ValueError(f"{path}: the member {member!r} does not hold the array its header announces.")
    return array


def load_npz(path):
    """The arrays of the ``.npz`` file at ``path``, as a dict; object arrays are read with the restricted
    unpickler (``np.load(allow_pickle=True)`` would run whatever the file names)."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            if member.endswith(".npy"):
                with archive.open(member) as raw:
                    stream = io.BytesIO(raw.read())
                arrays[member[: -len(".npy")]] = _read_npy(stream, member, path)
    return arrays
