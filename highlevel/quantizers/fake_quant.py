"""Fake quantization for quantization-aware training (``keras.quantizers.fake_quant_with_min_max_vars``).

The forward pass snaps each value onto the grid of ``2**num_bits`` levels spanning ``[min, max]`` (after
nudging the range so that 0.0 lies exactly on the grid) and returns floats; the backward pass is the
straight-through estimator: the gradient passes unchanged to the values inside the range and goes to ``min``
(``max``) for the values clipped at that end, so the range itself can be trained.

>>> import highlevel as hl
>>> x = hl.ops.convert_to_tensor([-1.0, 0.26, 0.9, 2.0])
>>> [round(v, 4) for v in hl.ops.convert_to_numpy(fake_quant_with_min_max_vars(x, 0.0, 1.0, num_bits=2)).tolist()]
[0.0, 0.3333, 1.0, 1.0]
"""

from highlevel import ops
from highlevel.backends.contract import dtypes as _dtypes


def _nudged_range(min_vals, max_vals, num_bits, narrow_range):
    """``(nudged_min, nudged_max, scale, inverse_scale)``: the range moved so that zero is a grid point."""
    compute_dtype = _dtypes.result_type(_dtypes.standardize_dtype(min_vals.dtype), "float32")
    low = ops.cast(min_vals, compute_dtype)
    high = ops.cast(max_vals, compute_dtype)
    quant_max = (1 << num_bits) - 1
    quant_min = 1 if narrow_range else 0
    levels = quant_max - quant_min
    scale = ops.divide(ops.subtract(high, low), levels)
    inverse_scale = ops.divide(levels, ops.subtract(high, low))
    zero_point = ops.round(ops.clip(ops.subtract(quant_min, ops.divide(low, scale)), quant_min, quant_max))
    nudged_min = ops.multiply(ops.subtract(quant_min, zero_point), scale)
    nudged_max = ops.multiply(ops.subtract(quant_max, zero_point), scale)
    return nudged_min, nudged_max, scale, inverse_scale


def fake_quant_with_min_max_vars(inputs, min_vals, max_vals, num_bits=8, narrow_range=False, axis=None):
    """Quantizes and dequantizes ``inputs`` on the grid spanning ``[min_vals, max_vals]``, per tensor or per
    channel, with straight-through gradients.

    The grid has the levels ``[0, 2**num_bits - 1]`` (``[1, 2**num_bits - 1]`` with ``narrow_range``). Values
    are clipped to the nudged range and rounded to the nearest level. Gradients: ``inputs`` gets the upstream
    gradient where it lies inside the nudged range and 0 outside; ``min_vals`` (``max_vals``) gets the sum of the
    upstream gradient over the values at or below (at or above) its end.

    Args:
        inputs: a float tensor.
        min_vals: the lower end: a scalar, or one value per channel along ``axis``.
        max_vals: the upper end, shaped like ``min_vals``.
        num_bits: the bit width of the grid.
        narrow_range: leave out the lowest level (a grid symmetric around zero).
        axis: the channel axis for per-channel ranges; None for one range over the whole tensor.

    Returns:
        A tensor of ``inputs``' shape and dtype.

    Raises:
        ValueError: if ``num_bits`` is not between 2 and 16, or ``axis`` is out of range.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([0.1, 0.5, 3.0])
    >>> g = hl.ops.grad(lambda t: hl.ops.sum(fake_quant_with_min_max_vars(t, 0.0, 1.0) * 2.0))(x)
    >>> hl.ops.convert_to_numpy(g).tolist()
    [2.0, 2.0, 0.0]
    """
    num_bits = int(num_bits)
    if not 2 <= num_bits <= 16:
        raise ValueError(f"fake_quant_with_min_max_vars: num_bits must be between 2 and 16; received {num_bits}.")
    inputs = ops.convert_to_tensor(inputs)
    rank = len(inputs.shape)
    if axis is not None:
        if not -rank <= axis < rank:
            raise ValueError(
                f"fake_quant_with_min_max_vars: axis={axis} is out of range for inputs of rank {rank}; use an "
                f"axis in [{-rank}, {rank - 1}] or None for one range over the whole tensor."
            )
        axis = axis % rank
    float_dtype = _dtypes.standardize_dtype(inputs.dtype)
    min_vals = ops.convert_to_tensor(min_vals, dtype=float_dtype)
    max_vals = ops.convert_to_tensor(max_vals, dtype=float_dtype)
    reduce_axes = None if axis is None else tuple(i for i in range(rank) if i != axis)

    def _broadcastable(value):
        # A per-channel range of shape (channels,) broadcast against inputs along ``axis``.
        if axis is None or len(value.shape) == 0:
            return value
        return ops.reshape(value, tuple(-1 if i == axis else 1 for i in range(rank)))

    @ops.custom_gradient
    def _fake_quant(x, low, high):
        nudged_min, nudged_max, scale, inverse_scale = _nudged_range(low, high, num_bits, narrow_range)
        nudged_min, nudged_max = _broadcastable(nudged_min), _broadcastable(nudged_max)
        scale, inverse_scale = _broadcastable(scale), _broadcastable(inverse_scale)
        clipped = ops.clip(ops.cast(x, nudged_min.dtype), nudged_min, nudged_max)
        # The level of zero, then each value's level counted from it: the result is level * scale.
        zero_level = ops.floor(ops.add(ops.multiply(ops.negative(nudged_min), inverse_scale), 0.5))
        shifted = ops.multiply(ops.subtract(clipped, nudged_min), inverse_scale)
        levels = ops.floor(ops.add(ops.subtract(shifted, zero_level), 0.5))
        result = ops.cast(ops.multiply(levels, scale), float_dtype)
        # The masks are kept as 0/1 floats: a gradient function may close over float values only on every engine.
        inside = ops.cast(ops.logical_and(ops.greater_equal(x, nudged_min), ops.less_equal(x, nudged_max)), float_dtype)
        below = ops.cast(ops.less_equal(x, nudged_min), float_dtype)
        above = ops.cast(ops.greater_equal(x, nudged_max), float_dtype)

        def grad(*args, upstream=None):
            if upstream is None:
                (upstream,) = args
            d_x = ops.multiply(upstream, inside)
            d_low = ops.sum(ops.multiply(upstream, below), axis=reduce_axes)
            d_high = ops.sum(ops.multiply(upstream, above), axis=reduce_axes)
            return d_x, ops.reshape(d_low, tuple(low.shape)), ops.reshape(d_high, tuple(high.shape))

        return result, grad

    return _fake_quant(inputs, min_vals, max_vals)
