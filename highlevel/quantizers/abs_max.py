"""Absolute-maximum (symmetric) integer quantization: the :class:`Quantizer` base class, :class:`AbsMaxQuantizer`,
and the functions behind them (``keras.quantizers.abs_max_quantize`` and its grouped, zero-point variant).

A float tensor ``x`` becomes ``round(x * scale)`` clipped to ``value_range`` and stored in an integer dtype,
with ``scale = value_range[1] / (max|x| + epsilon)`` taken along ``axis``; ``q / scale`` approximately gives
``x`` back.

>>> import numpy as np
>>> import highlevel as hl
>>> q, scale = abs_max_quantize(np.array([[1.0, -0.5], [0.25, 2.0]], "float32"), axis=-1)
>>> hl.ops.convert_to_numpy(q).tolist(), str(q.dtype).split(".")[-1]
([[127, -63], [16, 127]], 'int8')
"""

import math

import numpy as np

from highlevel import ops
from highlevel.backends.contract import dtypes as _dtypes

#: Keras's default epsilon (``keras.config.epsilon()`` when the functions were defined).
_EPSILON = 1e-7


def _dtype_name(x):
    return _dtypes.standardize_dtype(x.dtype)


def _check_value_range(value_range, where):
    try:
        low, high = value_range
    except (TypeError, ValueError):
        raise ValueError(
            f"{where}: value_range must be a pair (min, max) such as (-127, 127); received value_range={value_range!r}."
        ) from None
    if not low < high:
        raise ValueError(
            f"{where}: value_range must be (min, max) with min < max; received value_range={value_range!r}."
        )
    return low, high


class Quantizer:
    """The base class of quantizers (``keras.Quantizer``): a callable that turns a float tensor into an
    integer tensor and the scale that maps it back.

    Subclasses implement ``__call__`` and ``get_config``; ``from_config`` rebuilds one from its config.

    Args:
        output_dtype: the dtype of the quantized values (``"int8"`` by default).

    >>> Quantizer()(3.0), Quantizer().output_dtype
    (3.0, 'int8')
    """

    def __init__(self, output_dtype="int8"):
        self.output_dtype = output_dtype

    def __call__(self, x):
        """Returns the quantized form of ``x``; this base class returns ``x`` unchanged.

        Args:
            x: the tensor to quantize.

        Returns:
            ``x`` itself.

        >>> Quantizer()(2.0)
        2.0
        """
        return x

    @classmethod
    def from_config(cls, config):
        """Builds a quantizer from :meth:`get_config`'s dict.

        Args:
            config: the dict a quantizer's ``get_config`` returned.

        Returns:
            A new quantizer of this class.

        >>> AbsMaxQuantizer.from_config({"value_range": (-8, 7)}).value_range
        (-8, 7)
        """
        return cls(**config)

    def get_config(self):
        """The quantizer's constructor arguments as a dict (subclasses define it).

        Returns:
            A dict that :meth:`from_config` turns back into an equal quantizer.

        Raises:
            NotImplementedError: always, in this base class.

        >>> sorted(AbsMaxQuantizer().get_config())
        ['epsilon', 'output_dtype', 'value_range']
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement get_config().")


def abs_max_quantize(inputs, axis, value_range=(-127, 127), dtype="int8", epsilon=_EPSILON, to_numpy=False):
    """Quantizes a tensor symmetrically, one scale per slice along ``axis`` (``keras.quantizers.abs_max_quantize``).

    ``scale = value_range[1] / (max(|inputs|, axis) + epsilon)`` (kept dims, in the input's dtype) and the
    quantized tensor is ``clip(round(inputs * scale), *value_range)`` cast to ``dtype``.

    Args:
        inputs: a float tensor or array.
        axis: the axis (or tuple of axes) reduced to find each scale's maximum.
        value_range: the (min, max) integer range of the result.
        dtype: the integer dtype of the result.
        epsilon: added to the maximum so that an all-zero slice does not divide by zero.
        to_numpy: compute on the host with numpy (saves device memory for large weights); the results are
            returned as tensors all the same.

    Returns:
        ``(quantized, scale)``: the integer tensor, and the scale with ``inputs``' rank and dtype.

    Raises:
        ValueError: if ``value_range`` is not a pair (min, max) with min < max.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> q, scale = abs_max_quantize(np.array([2.0, -1.0], "float32"), axis=0, value_range=(-8, 7))
    >>> hl.ops.convert_to_numpy(q).tolist(), [round(v, 3) for v in hl.ops.convert_to_numpy(q / scale).tolist()]
    ([7, -4], [2.0, -1.143])
    """
    low, high = _check_value_range(value_range, "abs_max_quantize")
    if to_numpy:
        array = ops.convert_to_numpy(inputs)
        original_dtype = _dtypes.standardize_dtype(getattr(inputs, "dtype", array.dtype))
        axis_np = tuple(axis) if isinstance(axis, (list, tuple)) else axis
        scale = np.divide(high, np.add(np.max(np.abs(array), axis=axis_np, keepdims=True), epsilon))
        quantized = np.clip(np.round(np.multiply(array, scale)), low, high).astype(dtype)
        return ops.convert_to_tensor(quantized), ops.convert_to_tensor(scale, dtype=original_dtype)
    inputs = ops.convert_to_tensor(inputs)
    scale = ops.divide(high, ops.add(ops.max(ops.abs(inputs), axis=axis, keepdims=True), epsilon))
    scale = ops.cast(scale, _dtype_name(inputs))
    quantized = ops.clip(ops.round(ops.multiply(inputs, scale)), low, high)
    return ops.cast(quantized, dtype), scale


def abs_max_quantize_grouped_with_zero_point(
    inputs, block_size, value_range=(-8, 7), dtype="int8", epsilon=_EPSILON, to_numpy=False
):
    """Quantizes a 2-D weight asymmetrically, per group of ``block_size`` rows and per column
    (``keras.quantizers.abs_max_quantize_grouped_with_zero_point``).

    Rows (the input dimension of a Dense kernel) are grouped ``block_size`` at a time, the last group padded with
    zeros. Each group and column gets ``scale = (max - min + epsilon) / (2**bits - 1)`` (a range of 0 is widened
    to 2 first) and ``zero_point = clip(round(-min / scale) + qmin, qmin, qmax)``, and
    ``q = clip(round(x / scale) + zero_point, qmin, qmax)``; so ``(q - zero_point) * scale`` approximates ``x``.
    ``bits`` is ``log2(qmax - qmin + 1)``. A single group (``block_size >= rows``) takes its range from the real
    rows only.

    Args:
        inputs: a float tensor of shape ``(input_dim, output_dim)``.
        block_size: rows per group, a positive integer.
        value_range: the (qmin, qmax) integer range, (-8, 7) for int4.
        dtype: the dtype of the quantized values.
        epsilon: added to each range before it is divided.
        to_numpy: compute on the host with numpy; the results are tensors all the same.

    Returns:
        ``(quantized, scale, zero_point)``: ``quantized`` has ``inputs``' shape and ``dtype``; ``scale``
        (``inputs``' dtype) and ``zero_point`` (int8) have shape ``(ceil(input_dim / block_size), output_dim)``.

    Raises:
        ValueError: if ``inputs`` is not 2-D, ``block_size`` is not a positive integer, or ``value_range`` is
            not (min, max) with min < max.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> kernel = np.arange(12, dtype="float32").reshape(6, 2) - 5.0
    >>> q, scale, zero = abs_max_quantize_grouped_with_zero_point(kernel, block_size=4)
    >>> tuple(q.shape), tuple(scale.shape), str(zero.dtype).split(".")[-1]
    ((6, 2), (2, 2), 'int8')
    >>> back = (hl.ops.convert_to_numpy(q) - np.repeat(hl.ops.convert_to_numpy(zero), 4, 0)[:6]) * np.repeat(
    ...     hl.ops.convert_to_numpy(scale), 4, 0)[:6]
    >>> bool(np.abs(back - kernel).max() < 0.5)
    True
    """
    qmin, qmax = _check_value_range(value_range, "abs_max_quantize_grouped_with_zero_point")
    if isinstance(block_size, bool) or not isinstance(block_size, (int, np.integer)) or block_size <= 0:
        raise ValueError(
            f"abs_max_quantize_grouped_with_zero_point: block_size must be a positive integer (rows per group); "
            f"received block_size={block_size!r}."
        )
    shape = tuple(inputs.shape)
    if len(shape) != 2:
        raise ValueError(
            "abs_max_quantize_grouped_with_zero_point expects a 2-D tensor (input_dim, output_dim); received "
            f"shape {shape}."
        )
    if to_numpy:
        array = ops.convert_to_numpy(inputs)
        q, scale, zero = _grouped(_NumpyMath(), array, int(block_size), qmin, qmax, dtype, epsilon)
        return ops.convert_to_tensor(q), ops.convert_to_tensor(scale), ops.convert_to_tensor(zero)
    return _grouped(_OpsMath(), ops.convert_to_tensor(inputs), int(block_size), qmin, qmax, dtype, epsilon)


class _OpsMath:
    """The few array operations :func:`_grouped` needs, on the current engine."""

    def __getattr__(self, name):
        return getattr(ops, name)

    @staticmethod
    def cast(x, dtype):
        return ops.cast(x, dtype)

    @staticmethod
    def dtype(x):
        return _dtype_name(x)


class _NumpyMath:
    """The same operations on the host."""

    def __getattr__(self, name):
        return getattr(np, name)

    @staticmethod
    def cast(x, dtype):
        return np.asarray(x).astype(dtype)

    @staticmethod
    def dtype(x):
        return _dtypes.standardize_dtype(x.dtype)


def _grouped(xp, x, block_size, qmin, qmax, dtype, epsilon):
    rows, cols = (int(d) for d in x.shape)
    compute_dtype = xp.dtype(x)
    bits = int(math.log2(qmax - qmin + 1))
    n_groups = -(-rows // block_size)
    padded_rows = n_groups * block_size
    if padded_rows > rows:
        x_padded = xp.concatenate([x, xp.cast(xp.zeros((padded_rows - rows, cols)), compute_dtype)], axis=0)
    else:
        x_padded = x
    if n_groups > 1:
        grouped = xp.reshape(x_padded, (n_groups, block_size, cols))
        low = xp.min(grouped, axis=1)
        high = xp.max(grouped, axis=1)
    else:
        low = xp.min(x, axis=0, keepdims=True)
        high = xp.max(x, axis=0, keepdims=True)
    flat = xp.equal(low, high)
    low = xp.where(flat, low - 1, low)
    high = xp.where(flat, high + 1, high)
    levels = xp.cast(2**bits - 1, compute_dtype)
    span = high - low
    if epsilon > 0:
        span = span + xp.cast(epsilon, compute_dtype)
    scale = span / levels
    scale = xp.cast(xp.where(scale <= 0, xp.cast(1e-8, compute_dtype), scale), compute_dtype)
    zero = xp.clip(xp.round(-low / scale) + qmin, qmin, qmax)
    zero = xp.cast(zero, "int8")
    grouped = xp.reshape(x_padded, (n_groups, block_size, cols))
    q = xp.round(grouped / xp.expand_dims(scale, 1)) + xp.cast(xp.expand_dims(zero, 1), compute_dtype)
    q = xp.cast(xp.clip(q, qmin, qmax), dtype)
    q = xp.reshape(q, (padded_rows, cols))[:rows]
    return q, scale, zero


class AbsMaxQuantizer(Quantizer):
    """Quantizes with :func:`abs_max_quantize` (``keras.quantizers.AbsMaxQuantizer``).

    Args:
        axis: the default axis (or axes) of the scale's maximum; deprecated in Keras in favour of ``axis`` at
            call time. None: -1 unless the call names one.
        value_range: the (min, max) integer range of the quantized values.
        epsilon: added to the maximum before dividing.
        output_dtype: the dtype of the quantized values.

    Raises:
        ValueError: if ``value_range`` is not (min, max) with min < max, or does not fit in int8 when
            ``output_dtype`` is ``"int8"``.

    >>> import highlevel as hl
    >>> q, scale = AbsMaxQuantizer(value_range=(-8, 7))(hl.ops.convert_to_tensor([[0.5, -1.0]]))
    >>> hl.ops.convert_to_numpy(q).tolist()
    [[3, -7]]
    """

    def __init__(self, axis=None, value_range=(-127, 127), epsilon=_EPSILON, output_dtype="int8"):
        super().__init__(output_dtype=output_dtype)
        if axis is not None:
            axis = (axis,) if isinstance(axis, int) else tuple(axis)
        self.axis = axis
        low, high = _check_value_range(value_range, "AbsMaxQuantizer")
        # A tuple always, so that a config read back from JSON (a list) compares equal.
        self.value_range = (low, high)
        self.epsilon = epsilon
        if output_dtype == "int8" and (low < -128 or high > 127):
            raise ValueError(
                "AbsMaxQuantizer with output_dtype='int8' needs value_range within [-128, 127]; received "
                f"value_range={value_range!r}. Narrow the range or choose a wider output_dtype."
            )

    def __call__(self, x, axis=None, to_numpy=False):
        """Quantizes ``x`` with :func:`abs_max_quantize`.

        Args:
            x: the float tensor to quantize.
            axis: the axis of the scale's maximum; None: the constructor's ``axis``, else -1.
            to_numpy: compute on the host with numpy.

        Returns:
            ``(quantized, scale)``.

        >>> import highlevel as hl
        >>> q, scale = AbsMaxQuantizer()(hl.ops.convert_to_tensor([[1.0], [2.0]]), axis=0)
        >>> hl.ops.convert_to_numpy(q).ravel().tolist()
        [64, 127]
        """
        if axis is None:
            axis = self.axis if self.axis is not None else -1
        return abs_max_quantize(x, axis, self.value_range, self.output_dtype, self.epsilon, to_numpy)

    def get_config(self):
        """The constructor arguments (``axis`` only when one was given).

        Returns:
            A dict with ``value_range``, ``epsilon``, ``output_dtype`` and possibly ``axis``.

        >>> AbsMaxQuantizer(axis=0).get_config()["axis"]
        (0,)
        """
        config = {"value_range": self.value_range, "epsilon": self.epsilon, "output_dtype": self.output_dtype}
        if self.axis is not None:
            config["axis"] = self.axis
        return config

    def __eq__(self, other):
        return type(other) is type(self) and other.get_config() == self.get_config()

    def __hash__(self):
        return hash((type(self).__name__, self.value_range, self.output_dtype))

    def __repr__(self):
        return f"AbsMaxQuantizer(value_range={self.value_range}, output_dtype={self.output_dtype!r})"
