"""``hl.ops.numpy``: the numpy-like ops (``keras.ops.numpy``'s names, arguments and semantics).

Every function goes through the front door (:mod:`highlevel.ops._door`): it runs on the current engine, or
records a node when called on symbolic tensors. Binary ops broadcast like numpy and promote dtypes with
:func:`highlevel.dtypes.result_type` (Python scalars are weak); float ops on integer inputs compute in floatx.

>>> import highlevel as hl
>>> x = hl.ops.numpy.arange(6, dtype="float32")
>>> hl.ops.convert_to_numpy(hl.ops.numpy.reshape(x, (2, 3)).sum(axis=0) if False else hl.ops.numpy.sum(hl.ops.numpy.reshape(x, (2, 3)), axis=0)).tolist()
[3.0, 5.0, 7.0]
"""

import builtins  # noqa: F401  (this module defines abs, max, min, sum, round, all, any)

from highlevel.keras_tensor import KerasTensor  # noqa: F401

from . import _args, _door

#: The padding modes of :func:`pad`.
PAD_MODES = ("constant", "reflect", "symmetric", "edge")


def ndim(x):
    """The number of axes of ``x``."""
    if isinstance(x, KerasTensor):
        return x.ndim
    return _door.call('ndim', x)


def size(x):
    """The number of elements of ``x``."""
    return _door.call('size', x)


def zeros(shape, dtype=None):
    """A tensor of zeros; ``dtype`` defaults to floatx."""
    return _door.call("zeros", _args.shape(shape, "zeros"), dtype=_args.dtype(dtype, "zeros"))


def ones(shape, dtype=None):
    """A tensor of ones; ``dtype`` defaults to floatx."""
    return _door.call("ones", _args.shape(shape, "ones"), dtype=_args.dtype(dtype, "ones"))


def full(shape, fill_value, dtype=None):
    """A tensor filled with ``fill_value``; ``dtype`` defaults to the promotion of the fill value."""
    return _door.call("full", _args.shape(shape, "full"), fill_value, dtype=_args.dtype(dtype, "full"))


def zeros_like(x, dtype=None):
    """Zeros of the shape of ``x``, in ``dtype`` (default: the dtype of ``x``)."""
    return _door.call("zeros_like", x, dtype=_args.dtype(dtype, "zeros_like"))


def ones_like(x, dtype=None):
    """Ones of the shape of ``x``, in ``dtype`` (default: the dtype of ``x``)."""
    return _door.call("ones_like", x, dtype=_args.dtype(dtype, "ones_like"))


def full_like(x, fill_value, dtype=None):
    """``fill_value`` everywhere, in the shape of ``x`` and ``dtype`` (default: the dtype of ``x``)."""
    return _door.call("full_like", x, fill_value, dtype=_args.dtype(dtype, "full_like"))


def arange(start, stop=None, step=1, dtype=None):
    """Like ``numpy.arange``; ``dtype`` defaults to int32 for integer arguments, floatx otherwise."""
    return _door.call("arange", start, stop=stop, step=step, dtype=_args.dtype(dtype, "arange"))


def eye(N, M=None, k=0, dtype=None):
    """A 2-D tensor with ones on the ``k``-th diagonal."""
    return _door.call("eye", N, M=M, k=k, dtype=_args.dtype(dtype, "eye"))


def linspace(start, stop, num=50, endpoint=True, dtype=None):
    """``num`` evenly spaced values from ``start`` to ``stop``."""
    return _door.call("linspace", start, stop, num=num, endpoint=endpoint, dtype=_args.dtype(dtype, "linspace"))


def copy(x):
    """A new tensor with the same values."""
    return _door.call('copy', x)


def negative(x):
    """-x."""
    return _door.call('negative', x)


def abs(x):
    """|x|."""
    return _door.call('abs', x)


def sign(x):
    """-1, 0 or 1 (0 at 0; gradient 0)."""
    return _door.call('sign', x)


def sqrt(x):
    """Square root."""
    return _door.call('sqrt', x)


def square(x):
    """X * x."""
    return _door.call('square', x)


def exp(x):
    """E**x."""
    return _door.call('exp', x)


def expm1(x):
    """E**x - 1, accurate near 0."""
    return _door.call('expm1', x)


def log(x):
    """Natural log."""
    return _door.call('log', x)


def log1p(x):
    """Log(1 + x), accurate near 0."""
    return _door.call('log1p', x)


def log2(x):
    """Base-2 log."""
    return _door.call('log2', x)


def log10(x):
    """Base-10 log."""
    return _door.call('log10', x)


def sin(x):
    """Sine."""
    return _door.call('sin', x)


def cos(x):
    """Cosine."""
    return _door.call('cos', x)


def tan(x):
    """Tangent."""
    return _door.call('tan', x)


def arcsin(x):
    """Inverse sine."""
    return _door.call('arcsin', x)


def arccos(x):
    """Inverse cosine."""
    return _door.call('arccos', x)


def arctan(x):
    """Inverse tangent."""
    return _door.call('arctan', x)


def sinh(x):
    """Hyperbolic sine."""
    return _door.call('sinh', x)


def cosh(x):
    """Hyperbolic cosine."""
    return _door.call('cosh', x)


def tanh(x):
    """Hyperbolic tangent."""
    return _door.call('tanh', x)


def arcsinh(x):
    """Inverse hyperbolic sine."""
    return _door.call('arcsinh', x)


def arccosh(x):
    """Inverse hyperbolic cosine."""
    return _door.call('arccosh', x)


def arctanh(x):
    """Inverse hyperbolic tangent."""
    return _door.call('arctanh', x)


def floor(x):
    """Round down (gradient 0)."""
    return _door.call('floor', x)


def ceil(x):
    """Round up (gradient 0)."""
    return _door.call('ceil', x)


def reciprocal(x):
    """1 / x."""
    return _door.call('reciprocal', x)


def isnan(x):
    """Elementwise NaN test (bool)."""
    return _door.call('isnan', x)


def isinf(x):
    """Elementwise +-inf test (bool)."""
    return _door.call('isinf', x)


def isfinite(x):
    """Elementwise finiteness test (bool)."""
    return _door.call('isfinite', x)


def logical_not(x):
    """Elementwise not (bool)."""
    return _door.call('logical_not', x)


def round(x, decimals=0):
    """Round half to even, as numpy (gradient 0)."""
    return _door.call("round", x, decimals=_args.integer(decimals, "decimals", "round"))


def clip(x, x_min, x_max):
    """``x`` limited to ``[x_min, x_max]``; gradient 1 inside, 0 outside."""
    return _door.call('clip', x, x_min, x_max)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """NaN and infinities replaced by finite numbers."""
    return _door.call('nan_to_num', x, nan=nan, posinf=posinf, neginf=neginf)


def add(x1, x2):
    """x1 + x2."""
    return _door.call('add', x1, x2)


def subtract(x1, x2):
    """x1 - x2."""
    return _door.call('subtract', x1, x2)


def multiply(x1, x2):
    """x1 * x2."""
    return _door.call('multiply', x1, x2)


def divide(x1, x2):
    """x1 / x2 (true division; ints give floatx)."""
    return _door.call('divide', x1, x2)


def floor_divide(x1, x2):
    """Floor(x1 / x2) (Python semantics for negative numbers)."""
    return _door.call('floor_divide', x1, x2)


def mod(x1, x2):
    """x1 - floor(x1 / x2) * x2 (sign of x2)."""
    return _door.call('mod', x1, x2)


def power(x1, x2):
    """x1 ** x2."""
    return _door.call('power', x1, x2)


def arctan2(x1, x2):
    """Quadrant-aware arctan(x1 / x2)."""
    return _door.call('arctan2', x1, x2)


def maximum(x1, x2):
    """Elementwise max (NaN propagates)."""
    return _door.call('maximum', x1, x2)


def minimum(x1, x2):
    """Elementwise min (NaN propagates)."""
    return _door.call('minimum', x1, x2)


def logaddexp(x1, x2):
    """Log(exp(x1) + exp(x2)) without overflow."""
    return _door.call('logaddexp', x1, x2)


def equal(x1, x2):
    """x1 == x2 (bool)."""
    return _door.call('equal', x1, x2)


def not_equal(x1, x2):
    """x1 != x2 (bool)."""
    return _door.call('not_equal', x1, x2)


def less(x1, x2):
    """x1 < x2 (bool)."""
    return _door.call('less', x1, x2)


def less_equal(x1, x2):
    """x1 <= x2 (bool)."""
    return _door.call('less_equal', x1, x2)


def greater(x1, x2):
    """x1 > x2 (bool)."""
    return _door.call('greater', x1, x2)


def greater_equal(x1, x2):
    """x1 >= x2 (bool)."""
    return _door.call('greater_equal', x1, x2)


def logical_and(x1, x2):
    """And (bool)."""
    return _door.call('logical_and', x1, x2)


def logical_or(x1, x2):
    """Or (bool)."""
    return _door.call('logical_or', x1, x2)


def logical_xor(x1, x2):
    """Xor (bool)."""
    return _door.call('logical_xor', x1, x2)


def sum(x, axis=None, keepdims=False):
    """The sum over ``axis`` (int, tuple or None for all)."""
    return _door.call("sum", x, axis=_args.axes(axis, _args.ndim_of(x), "sum"), keepdims=bool(keepdims))


def mean(x, axis=None, keepdims=False):
    """The mean (ints give floatx) over ``axis`` (int, tuple or None for all)."""
    return _door.call("mean", x, axis=_args.axes(axis, _args.ndim_of(x), "mean"), keepdims=bool(keepdims))


def max(x, axis=None, keepdims=False):
    """The maximum over ``axis`` (int, tuple or None for all)."""
    return _door.call("max", x, axis=_args.axes(axis, _args.ndim_of(x), "max"), keepdims=bool(keepdims))


def min(x, axis=None, keepdims=False):
    """The minimum over ``axis`` (int, tuple or None for all)."""
    return _door.call("min", x, axis=_args.axes(axis, _args.ndim_of(x), "min"), keepdims=bool(keepdims))


def prod(x, axis=None, keepdims=False):
    """The product over ``axis`` (int, tuple or None for all)."""
    return _door.call("prod", x, axis=_args.axes(axis, _args.ndim_of(x), "prod"), keepdims=bool(keepdims))


def var(x, axis=None, keepdims=False):
    """The population variance (ddof 0) over ``axis`` (int, tuple or None for all)."""
    return _door.call("var", x, axis=_args.axes(axis, _args.ndim_of(x), "var"), keepdims=bool(keepdims))


def std(x, axis=None, keepdims=False):
    """The population standard deviation over ``axis`` (int, tuple or None for all)."""
    return _door.call("std", x, axis=_args.axes(axis, _args.ndim_of(x), "std"), keepdims=bool(keepdims))


def any(x, axis=None, keepdims=False):
    """The any true (bool) over ``axis`` (int, tuple or None for all)."""
    return _door.call("any", x, axis=_args.axes(axis, _args.ndim_of(x), "any"), keepdims=bool(keepdims))


def all(x, axis=None, keepdims=False):
    """The all true (bool) over ``axis`` (int, tuple or None for all)."""
    return _door.call("all", x, axis=_args.axes(axis, _args.ndim_of(x), "all"), keepdims=bool(keepdims))


def argmax(x, axis=None, keepdims=False):
    """Index of the first maximum (int32); ``axis=None`` flattens."""
    return _door.call("argmax", x, axis=_args.axis(axis, _args.ndim_of(x), "argmax", allow_none=True),
                      keepdims=bool(keepdims))


def argmin(x, axis=None, keepdims=False):
    """Index of the first minimum (int32); ``axis=None`` flattens."""
    return _door.call("argmin", x, axis=_args.axis(axis, _args.ndim_of(x), "argmin", allow_none=True),
                      keepdims=bool(keepdims))


def cumsum(x, axis=None, dtype=None):
    """Cumulative sum; ``axis=None`` flattens first."""
    return _door.call("cumsum", x, axis=_args.axis(axis, _args.ndim_of(x), "cumsum", allow_none=True),
                      dtype=_args.dtype(dtype, "cumsum"))


def cumprod(x, axis=None, dtype=None):
    """Cumulative product; ``axis=None`` flattens first."""
    return _door.call("cumprod", x, axis=_args.axis(axis, _args.ndim_of(x), "cumprod", allow_none=True),
                      dtype=_args.dtype(dtype, "cumprod"))


def matmul(x1, x2):
    """Matrix product with numpy's rules for 1-D and batched (broadcast) operands."""
    return _door.call('matmul', x1, x2)


def einsum(subscripts, *operands):
    """Einstein summation, as ``numpy.einsum``."""
    return _door.call('einsum', subscripts, *operands)


def tensordot(x1, x2, axes=2):
    """Tensor contraction over ``axes`` (int or pair of sequences)."""
    return _door.call('tensordot', x1, x2, axes=axes)


def outer(x1, x2):
    """Outer product of the flattened inputs."""
    return _door.call('outer', x1, x2)


def reshape(x, newshape):
    """``x`` with a new shape; one dimension may be -1."""
    return _door.call("reshape", x, _args.new_shape(newshape, _args.shape_of(x), "reshape"))


def transpose(x, axes=None):
    """Permutes the axes (reverses them when ``axes`` is None)."""
    if axes is not None:
        n = _args.ndim_of(x)
        axes = _args.axes(axes, n, "transpose", name="axes", keep_order=True)
        if len(axes) != n:
            raise ValueError(f"transpose: `axes` must list every axis of the tensor once (a permutation of "
                             f"{list(range(n))}); received axes={axes!r} for a tensor of rank {n}.")
    return _door.call("transpose", x, axes=axes)


def swapaxes(x, axis1, axis2):
    """Interchanges two axes."""
    n = _args.ndim_of(x)
    return _door.call("swapaxes", x, _args.axis(axis1, n, "swapaxes", "axis1"), _args.axis(axis2, n, "swapaxes", "axis2"))


def moveaxis(x, source, destination):
    """Moves axes to new positions."""
    n = _args.ndim_of(x)
    source = _args.axes(source, n, "moveaxis", name="source", keep_order=True)
    destination = _args.axes(destination, n, "moveaxis", name="destination", keep_order=True)
    if len(source) != len(destination):
        raise ValueError(f"moveaxis: `source` and `destination` must have the same number of axes; received "
                         f"source={source!r} and destination={destination!r}.")
    return _door.call("moveaxis", x, source, destination)


def concatenate(xs, axis=0):
    """Joins a sequence of tensors along an existing axis."""
    xs = list(xs)
    if not xs:
        raise ValueError("concatenate: needs at least one tensor; received an empty sequence.")
    ranks = {_args.ndim_of(t) for t in xs}
    if len(ranks) > 1:
        raise ValueError(f"concatenate: every tensor must have the same rank; received ranks "
                         f"{[_args.ndim_of(t) for t in xs]}.")
    return _door.call("concatenate", xs, axis=_args.axis(axis, ranks.pop(), "concatenate"))


def stack(xs, axis=0):
    """Joins a sequence of tensors along a new axis."""
    xs = list(xs)
    if not xs:
        raise ValueError("stack: needs at least one tensor; received an empty sequence.")
    return _door.call("stack", xs, axis=_args.axis(axis, _args.ndim_of(xs[0]), "stack", extra=1))


def split(x, indices_or_sections, axis=0):
    """A list of sub-tensors: equal sections (int) or cut at the given indices."""
    axis = _args.axis(axis, _args.ndim_of(x), "split")
    size = _args.shape_of(x)[axis]
    if _args.is_int(indices_or_sections):
        sections = int(indices_or_sections)
        if sections < 1 or (size is not None and size % sections):
            raise ValueError(f"split: cannot split axis {axis} of size {size} into {indices_or_sections} equal "
                             "sections; pass a number of sections that divides it, or the indices to cut at.")
        indices_or_sections = sections
    return _door.call("split", x, indices_or_sections, axis=axis)


def expand_dims(x, axis):
    """Inserts a size-1 axis (int or tuple of ints)."""
    n_new = len(axis) if isinstance(axis, (list, tuple)) else 1
    axis = _args.axes(axis, _args.ndim_of(x), "expand_dims", extra=n_new)
    return _door.call("expand_dims", x, axis if len(axis) > 1 else axis[0])


def squeeze(x, axis=None):
    """Removes size-1 axes (all of them, or those given)."""
    if axis is not None:
        shape = _args.shape_of(x)
        axis = _args.axes(axis, len(shape), "squeeze")
        bad = [a for a in axis if shape[a] not in (1, None)]
        if bad:
            raise ValueError(f"squeeze: can only remove axes of size 1; axis {bad[0]} of shape {shape} has size "
                             f"{shape[bad[0]]}.")
    return _door.call("squeeze", x, axis=axis)


def take(x, indices, axis=None):
    """Gathers entries at integer ``indices`` along ``axis`` (flattened when None); negative indices count from the end."""
    return _door.call("take", x, indices, axis=_args.axis(axis, _args.ndim_of(x), "take", allow_none=True))


def take_along_axis(x, indices, axis=None):
    """Gathers with an index tensor that has the rank of ``x``, as numpy."""
    return _door.call("take_along_axis", x, indices,
                      axis=_args.axis(axis, _args.ndim_of(x), "take_along_axis", allow_none=True))


def where(condition, x1=None, x2=None):
    """``x1`` where ``condition`` else ``x2`` (broadcast, promoted)."""
    return _door.call('where', condition, x1=x1, x2=x2)


def pad(x, pad_width, mode='constant', constant_values=None):
    """Pads with ``((before, after), ...)`` per axis; modes constant, reflect, symmetric, edge."""
    _args.one_of(mode, PAD_MODES, "mode", "pad")
    if constant_values is not None and mode != "constant":
        raise ValueError(f"pad: `constant_values` is only used with mode='constant'; received mode={mode!r} and "
                         f"constant_values={constant_values!r}.")
    return _door.call("pad", x, _args.pad_width(pad_width, _args.ndim_of(x), "pad"), mode=mode,
                      constant_values=constant_values)


def tile(x, repeats):
    """Repeats the whole tensor ``repeats`` times per axis."""
    return _door.call('tile', x, repeats)


def repeat(x, repeats, axis=None):
    """Repeats each element (``axis=None`` flattens first)."""
    return _door.call("repeat", x, repeats, axis=_args.axis(axis, _args.ndim_of(x), "repeat", allow_none=True))


def broadcast_to(x, shape):
    """``x`` broadcast to ``shape``."""
    return _door.call("broadcast_to", x, _args.shape(shape, "broadcast_to"))


def flip(x, axis=None):
    """Reverses the order of elements along ``axis`` (all axes when None)."""
    return _door.call("flip", x, axis=_args.axes(axis, _args.ndim_of(x), "flip"))


def sort(x, axis=-1):
    """Sorted copy along ``axis`` (ascending)."""
    return _door.call("sort", x, axis=_args.axis(axis, _args.ndim_of(x), "sort"))


def argsort(x, axis=-1):
    """Indices (int32) that sort ``x`` along ``axis``; stable."""
    return _door.call("argsort", x, axis=_args.axis(axis, _args.ndim_of(x), "argsort"))


def divide_no_nan(x1, x2):
    """``x1 / x2`` with 0 where ``x2 == 0`` (``keras.ops.divide_no_nan``); the gradient is 0 there too.

    Promotes like :meth:`divide` (integers divide in floatx)."""
    return _door.call('divide_no_nan', x1, x2)


absolute = abs


true_divide = divide


amax = max


amin = min


def exp2(x):
    """Two to the power ``x``, elementwise.

    Args:
        x: a tensor; integer inputs compute in floatx.

    Returns:
        ``2 ** x``, a float tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.exp2(hl.ops.convert_to_tensor([0.0, 3.0]))).tolist()
    [1.0, 8.0]
    """
    return _door.call("exp2", x)


def deg2rad(x):
    """Converts angles from degrees to radians.

    Args:
        x: angles in degrees; integer inputs compute in floatx.

    Returns:
        ``x * pi / 180``.

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.deg2rad(180.0))):.5f}")
    3.14159
    """
    return _door.call("deg2rad", x)


def rad2deg(x):
    """Converts angles from radians to degrees.

    Args:
        x: angles in radians; integer inputs compute in floatx.

    Returns:
        ``x * 180 / pi``.

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.rad2deg(1.0))):.3f}")
    57.296
    """
    return _door.call("rad2deg", x)


def ravel(x):
    """Flattens ``x`` to one axis, in row-major order.

    Args:
        x: a tensor of any rank.

    Returns:
        A 1-D tensor of ``size(x)`` elements.

    >>> import highlevel as hl
    >>> hl.ops.ravel(hl.ops.ones((2, 3))).shape
    (6,)
    """
    return _door.call("ravel", x)


def ptp(x, axis=None, keepdims=False):
    """The range (maximum minus minimum) of ``x`` along ``axis`` ("peak to peak").

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes; None (default) reduces over every axis.
        keepdims: keep the reduced axes with size 1.

    Returns:
        ``max(x, axis) - min(x, axis)``, in the dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.ptp(hl.ops.convert_to_tensor([[1, 5], [2, 3]]), axis=1)).tolist()
    [4, 1]
    """
    return _door.call("ptp", x, axis=_args.axes(axis, _args.ndim_of(x), "ptp"), keepdims=bool(keepdims))


def tril(x, k=0):
    """The lower triangle of a matrix (or of each matrix of a batch): entries above the ``k``-th diagonal are 0.

    Args:
        x: a tensor of rank 2 or more; the last two axes are the matrix.
        k: the diagonal above which to zero: 0 is the main diagonal, a positive ``k`` keeps ``k`` diagonals
            above it, a negative one zeroes the main diagonal and ``-k - 1`` below it.

    Returns:
        A tensor of the shape and dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.tril(hl.ops.ones((3, 3), dtype="int32"))).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
    return _door.call("tril", _matrices(x, "tril"), k=_args.integer(k, "k", "tril"))


def triu(x, k=0):
    """The upper triangle of a matrix (or of each matrix of a batch): entries below the ``k``-th diagonal are 0.

    Args:
        x: a tensor of rank 2 or more; the last two axes are the matrix.
        k: the diagonal below which to zero (see :func:`tril`).

    Returns:
        A tensor of the shape and dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.triu(hl.ops.ones((2, 3), dtype="int32"), k=1)).tolist()
    [[0, 1, 1], [0, 0, 1]]
    """
    return _door.call("triu", _matrices(x, "triu"), k=_args.integer(k, "k", "triu"))


def _matrices(x, op, square=False):
    if _args.ndim_of(x) < 2:
        raise ValueError(f"{op}: `x` must have rank 2 or more (the last two axes are a matrix); received a tensor "
                         f"of shape {_args.shape_of(x)}.")
    return _args.matrices(x, op, square=square)


def slogdet(x):
    """The sign and the natural log of the absolute value of the determinant of each square matrix of ``x``.

    Computed from the QR decomposition: no overflow where the determinant itself would overflow, and the log is
    differentiable wherever the matrix is invertible.

    Args:
        x: a tensor of shape ``(..., M, M)``.

    Returns:
        ``(sign, logabsdet)``, each of shape ``(...)``: ``det(x) = sign * exp(logabsdet)``; a singular matrix gives
        sign 0 and ``-inf``.

    >>> import highlevel as hl
    >>> sign, logabs = hl.ops.slogdet(hl.ops.convert_to_tensor([[0.0, 2.0], [3.0, 0.0]]))
    >>> print(f"{float(hl.ops.convert_to_numpy(sign))} {float(hl.ops.convert_to_numpy(logabs)):.4f}")
    -1.0 1.7918
    """
    return _door.call("slogdet", _matrices(x, "slogdet", square=True))


def real(x):
    """The real part of each entry of ``x``.

    Args:
        x: a tensor; a real one is returned unchanged.

    Returns:
        For a complex ``x``, a float tensor (float32 for complex64, float64 for complex128).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.real(hl.ops.view_as_complex(hl.ops.convert_to_tensor([[1.0, 2.0]])))).tolist()
    [1.0]
    """
    return _door.call("real", x)


def imag(x):
    """The imaginary part of each entry of ``x``.

    Args:
        x: a tensor; for a real one, zeros of its dtype.

    Returns:
        For a complex ``x``, a float tensor (float32 for complex64, float64 for complex128).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.imag(hl.ops.view_as_complex(hl.ops.convert_to_tensor([[1.0, 2.0]])))).tolist()
    [2.0]
    """
    return _door.call("imag", x)


def conjugate(x):
    """The complex conjugate of each entry of ``x``.

    Args:
        x: a tensor; a real one is returned unchanged.

    Returns:
        A tensor of the dtype of ``x``.

    >>> import highlevel as hl
    >>> z = hl.ops.conjugate(hl.ops.view_as_complex(hl.ops.convert_to_tensor([[1.0, 2.0]])))
    >>> hl.ops.convert_to_numpy(z).tolist()
    [(1-2j)]
    """
    return _door.call("conj", x)


def conj(x):
    """The complex conjugate of each entry of ``x`` (the same as :func:`conjugate`).

    Args:
        x: a tensor; a real one is returned unchanged.

    Returns:
        A tensor of the dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.conj(hl.ops.convert_to_tensor([1.0, -2.0]))).tolist()
    [1.0, -2.0]
    """
    return _door.call("conj", x)


def angle(x):
    """The argument (phase angle) of each entry of ``x``, in radians in ``(-pi, pi]``.

    Args:
        x: a tensor: complex, or real (0 for non-negative entries, pi for negative ones; integers give floatx).

    Returns:
        A float tensor.

    >>> import highlevel as hl
    >>> z = hl.ops.view_as_complex(hl.ops.convert_to_tensor([[0.0, 1.0], [-1.0, 0.0]]))
    >>> hl.ops.convert_to_numpy(hl.ops.angle(z)).astype("float64").round(4).tolist()
    [1.5708, 3.1416]
    """
    return _door.call("angle", x)


__all__ = ['ndim', 'size', 'zeros', 'ones', 'full', 'zeros_like', 'ones_like', 'full_like', 'arange', 'eye', 'linspace', 'copy', 'negative', 'abs', 'sign', 'sqrt', 'square', 'exp', 'expm1', 'log', 'log1p', 'log2', 'log10', 'sin', 'cos', 'tan', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh', 'floor', 'ceil', 'reciprocal', 'isnan', 'isinf', 'isfinite', 'logical_not', 'round', 'clip', 'nan_to_num', 'add', 'subtract', 'multiply', 'divide', 'floor_divide', 'mod', 'power', 'arctan2', 'maximum', 'minimum', 'logaddexp', 'equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal', 'logical_and', 'logical_or', 'logical_xor', 'sum', 'mean', 'max', 'min', 'prod', 'var', 'std', 'any', 'all', 'argmax', 'argmin', 'cumsum', 'cumprod', 'matmul', 'einsum', 'tensordot', 'outer', 'reshape', 'transpose', 'swapaxes', 'moveaxis', 'concatenate', 'stack', 'split', 'expand_dims', 'squeeze', 'take', 'take_along_axis', 'where', 'pad', 'tile', 'repeat', 'broadcast_to', 'flip', 'sort', 'argsort', 'divide_no_nan', 'absolute', 'true_divide', 'amax', 'amin', 'exp2', 'deg2rad', 'rad2deg', 'ravel', 'ptp', 'tril', 'triu']
__all__ += ["slogdet", "real", "imag", "conjugate", "conj", "angle"]
