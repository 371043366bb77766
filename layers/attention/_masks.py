"""Mask helpers shared by the attention layers: causal and sliding-window masks, and mask conversion."""

from highlevel import ops
from highlevel.backends.contract import dtypes as _dtypes


def as_bool_mask(mask):
    """``mask`` (tensor, numpy array or nested list; bool or 0/1 numbers) as a bool tensor, or None."""
    if mask is None:
        return None
    mask = ops.convert_to_tensor(mask)
    if _dtypes.standardize_dtype(ops.dtype(mask)) != "bool":
        mask = ops.cast(mask, "bool")
    return mask


def causal_mask(q_len, v_len):
    """A ``(1, q_len, v_len)`` bool mask, True where the key position ``j <= i`` (the query position)."""
    rows = ops.reshape(ops.arange(q_len, dtype="int32"), (1, q_len, 1))
    cols = ops.reshape(ops.arange(v_len, dtype="int32"), (1, 1, v_len))
    return ops.greater_equal(rows, cols)


def sliding_window_mask(q_len, v_len, window):
    """A ``(1, q_len, v_len)`` bool band, True where ``|i - j| < window``."""
    rows = ops.reshape(ops.arange(q_len, dtype="int32"), (1, q_len, 1))
    cols = ops.reshape(ops.arange(v_len, dtype="int32"), (1, 1, v_len))
    return ops.less(ops.abs(ops.subtract(rows, cols)), window)


def large_offset(dtype):
    """What the dot/concat attention layers subtract from masked scores (Keras' values: the float16 max
    for float16, 1e9 otherwise)."""
    return 65504.0 if _dtypes.standardize_dtype(dtype) == "float16" else 1.0e9
