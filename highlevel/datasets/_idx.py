"""The IDX format of (Fashion-)MNIST's original files, gzip-compressed: a magic number (two zero bytes, a
type code, the number of dimensions), one big-endian uint32 per dimension, then the values.

>>> import gzip, io, struct
>>> raw = struct.pack(">HBB", 0, 0x08, 1) + struct.pack(">I", 3) + bytes([7, 8, 9])
>>> read_idx(io.BytesIO(gzip.compress(raw)), "labels")
array([7, 8, 9], dtype=uint8)
"""

import gzip
import struct

import numpy as np


def read_idx(file, where):
    """The uint8 array stored in the gzip-compressed IDX file ``file`` (a path or a binary file object)."""
    try:
        with gzip.open(file, "rb") as f:
            raw = f.read()
    except (OSError, EOFError) as e:
        raise ValueError(
            f"{where} is not a gzip-compressed IDX file ({e}). Delete it so that it is downloaded again."
        ) from e
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] != 0x08:
        raise ValueError(
            f"{where} is not an IDX file of unsigned bytes (its first bytes are {raw[:4]!r}, expected "
            "b'\\x00\\x00\\x08' and a dimension count)."
        )
    ndim = raw[3]
    header = 4 + 4 * ndim
    shape = struct.unpack(f">{ndim}I", raw[4:header])
    data = np.frombuffer(raw, np.uint8, offset=header)
    if data.size != int(np.prod(shape)):
        raise ValueError(
            f"{where}: the header announces shape {shape} ({int(np.prod(shape))} values) but the file "
            f"holds {data.size}; it is truncated or corrupted. Delete it so that it is downloaded again."
        )
    return data.reshape(shape)
