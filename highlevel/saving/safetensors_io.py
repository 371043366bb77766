"""Safetensors bytes, checked before they are parsed: no pickle, no header that lies about sizes.

The header is validated here (length, JSON shape, dtypes, shapes and offsets against the bytes actually
present) before ``safetensors.numpy.load`` sees the data, so a crafted file fails with
:class:`~highlevel.saving.InvalidFileError` rather than deep inside numpy.

>>> import numpy as np
>>> from highlevel.saving import safetensors_io
>>> data = safetensors_io.dumps({"w": np.ones((2, 3), "float32")})
>>> safetensors_io.loads(data)["w"].shape
(2, 3)
"""

import json
import struct

import numpy as np

from .errors import InvalidFileError, UnsafeFileError

MAX_HEADER_BYTES = 100 * 1024**2

# safetensors dtype code -> bytes per element.
_ITEMSIZE = {
    "BOOL": 1,
    "U8": 1,
    "I8": 1,
    "U16": 2,
    "I16": 2,
    "F16": 2,
    "BF16": 2,
    "U32": 4,
    "I32": 4,
    "F32": 4,
    "U64": 8,
    "I64": 8,
    "F64": 8,
}

# safetensors dtype code -> numpy dtype name ("<" little-endian: the format's byte order on every machine).
_NUMPY = {
    "BOOL": "bool",
    "U8": "u1",
    "I8": "i1",
    "U16": "<u2",
    "I16": "<i2",
    "F16": "<f2",
    "U32": "<u4",
    "I32": "<i4",
    "F32": "<f4",
    "U64": "<u8",
    "I64": "<i8",
    "F64": "<f8",
}


def _bfloat16():
    """numpy's bfloat16 (numpy has none of its own: the ``ml_dtypes`` package adds it)."""
    try:
        import ml_dtypes
    except ImportError as e:
        raise ImportError(
            "These weights hold bfloat16 tensors, which numpy can only hold with the ml_dtypes "
            "package (installed with jax and tensorflow). Install it: pip install ml_dtypes"
        ) from e
    return np.dtype(ml_dtypes.bfloat16)


def _numpy_dtype(code):
    return _bfloat16() if code == "BF16" else np.dtype(_NUMPY[code])


def dumps(tensors):
    """Safetensors bytes of ``{name: numpy array}`` (bfloat16 arrays, from ``ml_dtypes``, become ``BF16``)."""
    from safetensors.numpy import save

    return save({k: np.asarray(v, order="C") for k, v in tensors.items()})


def check_header(data, where="weights"):
    """Validates the safetensors header of ``data`` against its length; returns the parsed header."""
    if not isinstance(data, (bytes, bytearray)) or len(data) < 8:
        raise InvalidFileError(f"The {where} data is not a safetensors file: it has fewer than 8 bytes.")
    (n,) = struct.unpack("<Q", bytes(data[:8]))
    if n > MAX_HEADER_BYTES:
        raise UnsafeFileError(f"The {where} safetensors header claims {n} bytes, over the bound of {MAX_HEADER_BYTES}.")
    if 8 + n > len(data):
        raise InvalidFileError(
            f"The {where} safetensors header claims {n} bytes but the file holds only "
            f"{len(data) - 8} after the length field: it is truncated or corrupt."
        )
    try:
        header = json.loads(bytes(data[8 : 8 + n]).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise InvalidFileError(f"The {where} safetensors header is not valid JSON ({e}).") from e
    if not isinstance(header, dict):
        raise InvalidFileError(f"The {where} safetensors header must be a JSON object.")
    body = len(data) - 8 - n
    spans = []
    for key, entry in header.items():
        if key == "__metadata__":
            if not isinstance(entry, dict) or not all(isinstance(v, str) for v in entry.values()):
                raise InvalidFileError(f"The {where} safetensors metadata must map strings to strings.")
            continue
        if not isinstance(entry, dict) or set(entry) != {"dtype", "shape", "data_offsets"}:
            raise InvalidFileError(f"The {where} safetensors entry {key!r} is malformed: {entry!r}.")
        dtype, shape, offsets = entry["dtype"], entry["shape"], entry["data_offsets"]
        if dtype not in _ITEMSIZE:
            raise InvalidFileError(
                f"The {where} safetensors entry {key!r} has dtype {dtype!r}; highlevel reads {sorted(_ITEMSIZE)}."
            )
        if (
            not isinstance(shape, list)
            or len(shape) > 64
            or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape)
        ):
            raise InvalidFileError(f"The {where} safetensors entry {key!r} has an invalid shape {shape!r}.")
        if (
            not isinstance(offsets, list)
            or len(offsets) != 2
            or not all(isinstance(o, int) and not isinstance(o, bool) for o in offsets)
            or not 0 <= offsets[0] <= offsets[1] <= body
        ):
            raise InvalidFileError(
                f"The {where} safetensors entry {key!r} has offsets {offsets!r} outside the "
                f"{body} data bytes the file holds."
            )
        count = 1
        for d in shape:
            count *= d
        if count * _ITEMSIZE[dtype] != offsets[1] - offsets[0]:
            raise InvalidFileError(
                f"The {where} safetensors entry {key!r} claims shape {shape} of {dtype} "
                f"({count * _ITEMSIZE[dtype]} bytes) but spans {offsets[1] - offsets[0]} bytes."
            )
        spans.append(tuple(offsets))
    spans.sort()
    end = 0
    for begin, stop in spans:
        if begin != end:
            raise InvalidFileError(f"The {where} safetensors tensors overlap or leave gaps in the data.")
        end = stop
    if end != body:
        raise InvalidFileError(f"The {where} safetensors data holds {body} bytes but its tensors cover {end}.")
    return header


def loads(data, where="weights"):
    """``{name: numpy array}`` from safetensors bytes, after :func:`check_header`.

    The tensors are read here rather than by ``safetensors.numpy.load``, which has no bfloat16; the header
    has already been checked, so every slice below lies inside ``data`` and matches its shape exactly.
    """
    header = check_header(data, where)
    data = bytearray(data)  # one writable copy: engines may refuse (or mishandle) read-only numpy arrays
    start = 8 + struct.unpack("<Q", bytes(data[:8]))[0]
    out = {}
    for key, entry in header.items():
        if key == "__metadata__":
            continue
        begin, stop = entry["data_offsets"]
        dtype = _numpy_dtype(entry["dtype"])
        array = np.frombuffer(data, dtype=dtype, count=(stop - begin) // dtype.itemsize, offset=start + begin)
        out[key] = array.reshape(entry["shape"]).astype(dtype.newbyteorder("="), copy=False)
    return out
