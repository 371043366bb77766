"""Two int4 values per byte: :func:`pack_int4` and :func:`unpack_int4` (``keras.quantizers``).

Along the packed axis, element ``2*i`` goes into the low nibble of byte ``i`` and element ``2*i + 1`` into its
high nibble; an odd length is padded with one zero. The bytes are int8 (or uint8) tensors of the current
engine, so an int4 kernel takes half the memory of an int8 one.

>>> import numpy as np
>>> import highlevel as hl
>>> values = np.array([[-3, 7], [2, -8], [1, 0]], dtype="int8")
>>> packed, packed_shape, length = pack_int4(values)
>>> hl.ops.convert_to_numpy(packed).tolist(), packed_shape, length
([[45, -121], [1, 0]], (2, 2), 3)
>>> hl.ops.convert_to_numpy(unpack_int4(packed, length)).tolist()
[[-3, 7], [2, -8], [1, 0]]
"""

import numpy as np

from highlevel import ops
from highlevel.backends.contract import dtypes as _dtypes

_BYTE_DTYPES = ("int8", "uint8")


def _check_byte_dtype(dtype, name):
    if dtype not in _BYTE_DTYPES:
        raise ValueError(f"{name}: dtype must be 'int8' or 'uint8'; received dtype={dtype!r}.")


def pack_int4(arr, axis=0, dtype="int8"):
    """Packs int4 values (stored one per int8) two to a byte along ``axis``.

    The packing runs on the host with numpy (it happens once, when a layer is quantized); the result is a
    tensor of the current engine.

    Args:
        arr: an ``int8`` (or ``uint8``) tensor or array whose values fit in 4 bits (``[-8, 7]`` signed).
        axis: the axis to pack; its length is halved (rounded up).
        dtype: ``"int8"`` or ``"uint8"``, the dtype of ``arr`` and of the packed result.

    Returns:
        ``(packed, packed_shape, orig_len)``: the packed tensor, its shape as a tuple, and the length of
        ``axis`` before packing (needed by :func:`unpack_int4` to drop the padding).

    Raises:
        ValueError: if ``dtype`` is neither ``"int8"`` nor ``"uint8"``.
        TypeError: if ``arr``'s dtype is not ``dtype``.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> packed, shape, length = pack_int4(np.array([[-3, 7, 2], [-8, 1, 0]], "int8"), axis=1)
    >>> hl.ops.convert_to_numpy(packed).tolist(), shape, length
    ([[125, 2], [24, 0]], (2, 2), 3)
    """
    _check_byte_dtype(dtype, "pack_int4")
    received = _dtypes.standardize_dtype(arr.dtype)
    if received != dtype:
        raise TypeError(
            f"pack_int4 expects a {dtype} tensor holding int4 values; received dtype {received}. Cast it with "
            f"hl.ops.cast(x, {dtype!r}) first (after quantizing to the range [-8, 7])."
        )
    array = np.moveaxis(np.asarray(ops.convert_to_numpy(arr)), axis, 0)
    length = array.shape[0]
    if length % 2:
        array = np.concatenate([array, np.zeros((1,) + array.shape[1:], array.dtype)], axis=0)
    np_dtype = np.dtype(dtype)
    low = np.bitwise_and(array[0::2].astype(np_dtype), np_dtype.type(0x0F))
    high = np.bitwise_and(array[1::2].astype(np_dtype), np_dtype.type(0x0F))
    packed = np.bitwise_or(low, np.left_shift(high, np_dtype.type(4))).astype(np_dtype)
    packed = np.moveaxis(packed, 0, axis)
    return ops.convert_to_tensor(packed), tuple(packed.shape), length


def unpack_int4(packed, orig_len, axis=0, dtype="int8"):
    """Unpacks what :func:`pack_int4` packed: two values per byte back to one per element.

    Runs with ``hl.ops`` on the current engine (also inside a compiled step).

    Args:
        packed: the int8 or uint8 tensor of packed bytes.
        orig_len: the length of ``axis`` before packing (drops the padding of an odd length).
        axis: the packed axis.
        dtype: ``"int8"`` to read each nibble as a signed value in ``[-8, 7]``, ``"uint8"`` for ``[0, 15]``;
            also the result's dtype.

    Returns:
        A ``dtype`` tensor whose ``axis`` has length ``orig_len``.

    Raises:
        ValueError: if ``dtype`` is neither ``"int8"`` nor ``"uint8"``.
        TypeError: if ``packed`` is not an int8 or uint8 tensor.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> packed, _, length = pack_int4(np.array([[1, 2, 3]], "uint8"), axis=1, dtype="uint8")
    >>> hl.ops.convert_to_numpy(unpack_int4(packed, length, axis=1, dtype="uint8")).tolist()
    [[1, 2, 3]]
    """
    _check_byte_dtype(dtype, "unpack_int4")
    packed = ops.convert_to_tensor(packed)
    received = _dtypes.standardize_dtype(packed.dtype)
    if received not in _BYTE_DTYPES:
        raise TypeError(f"unpack_int4 expects the int8 or uint8 tensor pack_int4 returned; received dtype {received}.")
    rank = len(packed.shape)
    axis = axis + rank if axis < 0 else axis
    moved = packed if axis == 0 else ops.moveaxis(packed, axis, 0)
    mask = ops.convert_to_tensor(0x0F, dtype=received)
    low = ops.bitwise_and(moved, mask)
    high = ops.bitwise_and(ops.right_shift(moved, ops.convert_to_tensor(4, dtype=received)), mask)
    if dtype == "int8":
        # A nibble n in [0, 15] is the signed value (n xor 8) - 8.
        low = ops.subtract(ops.bitwise_xor(ops.cast(low, "int8"), 8), 8)
        high = ops.subtract(ops.bitwise_xor(ops.cast(high, "int8"), 8), 8)
    low = ops.cast(low, dtype)
    high = ops.cast(high, dtype)
    rest = tuple(moved.shape[1:])
    unpacked = ops.reshape(ops.stack([low, high], axis=1), (-1,) + rest)[:orig_len]
    return unpacked if axis == 0 else ops.moveaxis(unpacked, 0, axis)
