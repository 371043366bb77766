"""Float8 training helpers (``keras.quantizers``): delayed scaling from a history of absolute maxima, and a
quantize-dequantize round trip through a narrow float format.

The engines here have no float8 dtype of their own, so rounding to ``float8_e4m3fn`` or ``float8_e5m2`` is
emulated with ``hl.ops`` on float32 values: each value is rounded to the nearest representable float8 value
(ties to even, subnormals included), which is what a cast to a real float8 dtype gives. The values stay in the
compute dtype, so the saving is numerical (the training sees float8 precision), not memory.

>>> import highlevel as hl
>>> x = hl.ops.convert_to_tensor([0.3, 1.1, 500.0])
>>> hl.ops.convert_to_numpy(quantize_and_dequantize(x, 1.0, "float8_e4m3fn", "float32")).tolist()
[0.3125, 1.125, 448.0]
"""

from highlevel import ops
from highlevel.backends.contract import dtypes as _dtypes

#: name -> (mantissa bits, smallest normal exponent, largest finite value)
FLOAT8_FORMATS = {
    "float8_e4m3fn": (3, -6, 448.0),
    "float8_e5m2": (2, -14, 57344.0),
}

#: The largest finite value of the float dtypes the engines have.
_FLOAT_MAX = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38, "float32": 3.4028234663852886e38}


def dtype_max(dtype):
    """The largest finite value of a float8 or float dtype, as a Python float.

    Raises:
        ValueError: for a dtype that is neither a float8 format nor float16/bfloat16/float32.
    """
    if dtype in FLOAT8_FORMATS:
        return FLOAT8_FORMATS[dtype][2]
    try:
        return _FLOAT_MAX[_dtypes.standardize_dtype(dtype)]
    except (KeyError, TypeError, ValueError):
        raise ValueError(
            f"Expected a float8 format ({', '.join(FLOAT8_FORMATS)}) or float16/bfloat16/float32; received {dtype!r}."
        ) from None


def _round_to_float8(x, name):
    """``x`` (float32) rounded to the nearest value of the float8 format ``name`` (ties to even)."""
    mantissa_bits, min_exponent, _ = FLOAT8_FORMATS[name]
    magnitude = ops.abs(x)
    exponent = ops.floor(ops.log2(ops.maximum(magnitude, 2.0**-60)))
    # log2 may be off by one ulp next to a power of two: make 2**exponent <= magnitude < 2**(exponent + 1).
    exponent = ops.where(ops.power(2.0, exponent) > magnitude, exponent - 1.0, exponent)
    exponent = ops.where(ops.power(2.0, exponent + 1.0) <= magnitude, exponent + 1.0, exponent)
    exponent = ops.maximum(exponent, float(min_exponent))
    step = ops.power(2.0, exponent - float(mantissa_bits))
    return ops.multiply(ops.sign(x), ops.multiply(ops.round(ops.divide(magnitude, step)), step))


def compute_float8_scale(amax, scale, dtype_max, margin=0):
    """Updates a float8 scaling factor from the recent absolute maximum (delayed scaling).

    The new scale is ``amax * 2**margin / dtype_max`` (the inverse of the factor that maps ``amax`` onto the
    format's largest value); where ``amax`` is zero or not finite the old ``scale`` is kept.

    Args:
        amax: the absolute maximum seen recently (a scalar tensor).
        scale: the current scale.
        dtype_max: the largest finite value of the float8 format (448 for ``float8_e4m3fn``).
        margin: a power of two of headroom.

    Returns:
        The new scale, a tensor.

    >>> import highlevel as hl
    >>> float(compute_float8_scale(hl.ops.convert_to_tensor(896.0), hl.ops.convert_to_tensor(1.0), 448.0))
    2.0
    >>> float(compute_float8_scale(hl.ops.convert_to_tensor(0.0), hl.ops.convert_to_tensor(3.0), 448.0))
    3.0
    """
    amax = ops.convert_to_tensor(amax)
    inverse = ops.reciprocal(ops.convert_to_tensor(scale))
    usable = ops.logical_and(ops.greater(amax, 0.0), ops.isfinite(amax))
    safe_amax = ops.where(usable, amax, ops.ones_like(amax))  # no division by zero where the old scale stays
    factor = ops.divide(ops.divide(dtype_max, safe_amax), 2**margin)
    factor = ops.where(usable, factor, inverse)
    return ops.reciprocal(factor)


def compute_float8_amax_history(x, amax_history):
    """Records ``max(|x|)`` in a float8 amax history.

    The history is rolled one place towards the front and the new maximum written at index 0, the layout
    Keras's float8 layers keep.

    Args:
        x: the tensor whose absolute maximum is recorded.
        amax_history: the 1-D history of recent maxima.

    Returns:
        The new history (same shape and dtype as ``amax_history``).

    >>> import highlevel as hl
    >>> history = hl.ops.convert_to_tensor([1.0, 2.0, 3.0])
    >>> hl.ops.convert_to_numpy(compute_float8_amax_history(hl.ops.convert_to_tensor([-5.0, 4.0]), history)).tolist()
    [5.0, 3.0, 1.0]
    """
    amax_history = ops.convert_to_tensor(amax_history)
    new_amax = ops.cast(ops.max(ops.abs(x)), _dtypes.standardize_dtype(amax_history.dtype))
    rolled = ops.roll(amax_history, shift=-1)
    return ops.concatenate([ops.reshape(new_amax, (1,)), rolled[1:]], axis=0)


def quantize_and_dequantize(inputs, scale, quantized_dtype, compute_dtype):
    """Rounds ``inputs / scale`` to ``quantized_dtype`` (clipped to its finite range) and scales it back.

    Float8 formats (``"float8_e4m3fn"``, ``"float8_e5m2"``) are emulated (see the module's note); float16,
    bfloat16 and float32 are real casts.

    Args:
        inputs: a float tensor.
        scale: the scaling factor (a scalar tensor or float).
        quantized_dtype: the narrow float format.
        compute_dtype: the dtype of the computation and of the result.

    Returns:
        A ``compute_dtype`` tensor holding values of ``quantized_dtype`` times ``scale``.

    Raises:
        ValueError: if ``quantized_dtype`` is not one of the formats above.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([1000.0, 3.3])
    >>> hl.ops.convert_to_numpy(quantize_and_dequantize(x, 4.0, "float8_e4m3fn", "float32")).tolist()
    [1024.0, 3.25]
    """
    largest = dtype_max(quantized_dtype)
    compute_dtype = _dtypes.standardize_dtype(compute_dtype)
    scale = ops.cast(scale, compute_dtype)
    x = ops.divide(ops.cast(inputs, compute_dtype), scale)
    x = ops.clip(x, -largest, largest)
    if quantized_dtype in FLOAT8_FORMATS:
        x = ops.cast(_round_to_float8(ops.cast(x, "float32"), quantized_dtype), compute_dtype)
    else:
        x = ops.cast(ops.cast(x, quantized_dtype), compute_dtype)
    return ops.multiply(x, scale)
