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

import numpy as np

from highlevel.backends.contract import dtypes as _dtypes
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


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """Returns ``num`` evenly spaced samples from ``start`` to ``stop``, as ``numpy.linspace``.

    Args:
        start: the first sample, a number or a tensor.
        stop: the last sample (or the end of the interval when ``endpoint`` is False), a number or a tensor
            broadcastable with ``start``.
        num: the number of samples, a non-negative int.
        endpoint: whether ``stop`` is the last sample.
        retstep: whether to return the spacing too.
        dtype: the dtype (default: the promotion of ``start``, ``stop`` and a Python float, so floatx for Python
            numbers); integer dtypes round the samples down.
        axis: where the samples' axis goes in the result, when ``start`` or ``stop`` is a tensor.

    Returns:
        The samples, a tensor of shape ``broadcast(start, stop)`` with a new axis of ``num`` at ``axis``; with
        ``retstep``, the pair ``(samples, step)``, the step in the samples' float dtype (NaN without an interval).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.linspace(0.0, 1.0, 5)).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> samples, step = hl.ops.linspace([0.0, 10.0], [1.0, 20.0], 3, retstep=True, axis=1)
    >>> hl.ops.convert_to_numpy(samples).tolist(), hl.ops.convert_to_numpy(step).tolist()
    ([[0.0, 0.5, 1.0], [10.0, 15.0, 20.0]], [0.5, 5.0])
    """
    num = _args.positive_int(num, "num", "linspace", minimum=0)
    if dtype is None:
        found = [_args.dtype_of(v) for v in (start, stop)]
        dtype = _dtypes.result_type(*[d for d in found if d is not None], float)
    else:
        dtype = _args.dtype(dtype, "linspace")
    axis = _args.axis(axis, builtins.max(_args.ndim_of(start), _args.ndim_of(stop)), "linspace", extra=1)
    return _door.call("linspace", start, stop, num=num, endpoint=bool(endpoint), retstep=bool(retstep), dtype=dtype,
                      axis=axis)


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


def max(x, axis=None, keepdims=False, initial=None):
    """Returns the maximum of ``x`` over ``axis`` (NaN propagates; ties share the gradient).

    Args:
        x: a tensor.
        axis: an int, a tuple of ints, or None (default) for every axis.
        keepdims: keep the reduced axes with size 1.
        initial: a number that joins the reduction (numpy's ``initial``): the result is at least ``initial``,
            and over an empty axis it is ``initial`` (without one, an empty axis is an error).

    Returns:
        A tensor of the dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.max([[1.0, 2.0], [3.0, 0.0]], axis=1, initial=2.5)).tolist()
    [2.5, 3.0]
    """
    kwargs = {} if initial is None else {"initial": _args.number(initial, "initial", "max")}
    return _door.call("max", x, axis=_args.axes(axis, _args.ndim_of(x), "max"), keepdims=bool(keepdims), **kwargs)


def min(x, axis=None, keepdims=False, initial=None):
    """Returns the minimum of ``x`` over ``axis`` (NaN propagates; ties share the gradient).

    Args:
        x: a tensor.
        axis: an int, a tuple of ints, or None (default) for every axis.
        keepdims: keep the reduced axes with size 1.
        initial: a number that joins the reduction (numpy's ``initial``): the result is at most ``initial``,
            and over an empty axis it is ``initial`` (without one, an empty axis is an error).

    Returns:
        A tensor of the dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.min([[1.0, 2.0], [3.0, 4.0]], axis=1, initial=2.5)).tolist()
    [1.0, 2.5]
    """
    kwargs = {} if initial is None else {"initial": _args.number(initial, "initial", "min")}
    return _door.call("min", x, axis=_args.axes(axis, _args.ndim_of(x), "min"), keepdims=bool(keepdims), **kwargs)


def prod(x, axis=None, keepdims=False, dtype=None):
    """Returns the product of ``x`` over ``axis``.

    Args:
        x: a tensor.
        axis: an int, a tuple of ints, or None (default) for every axis.
        keepdims: keep the reduced axes with size 1.
        dtype: the dtype to multiply in and return (``x`` is cast to it first). By default bool gives int32 and
            every other dtype is kept.

    Returns:
        A tensor of ``dtype`` (or of the default above).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.prod(hl.ops.convert_to_tensor([100, 100, 1000]), dtype="int64")).tolist()
    10000000
    """
    dtype = _args.dtype(dtype, "prod")
    kwargs = {} if dtype is None else {"dtype": dtype}
    return _door.call("prod", x, axis=_args.axes(axis, _args.ndim_of(x), "prod"), keepdims=bool(keepdims), **kwargs)


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


def stack(x, axis=0):
    """Joins a sequence of tensors of one shape along a new axis.

    Args:
        x: a sequence of tensors (promoted to their common dtype).
        axis: where the new axis goes in the result.

    Returns:
        A tensor with one more axis than the inputs, of length ``len(x)``.

    >>> import highlevel as hl
    >>> hl.ops.shape(hl.ops.stack([hl.ops.ones((2, 3)), hl.ops.zeros((2, 3))], axis=1))
    (2, 2, 3)
    """
    x = list(x)
    if not x:
        raise ValueError("stack: needs at least one tensor; received an empty sequence.")
    return _door.call("stack", x, axis=_args.axis(axis, _args.ndim_of(x[0]), "stack", extra=1))


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


def _matrices(x, op):
    if _args.ndim_of(x) < 2:
        raise ValueError(f"{op}: `x` must have rank 2 or more (the last two axes are a matrix); received a tensor "
                         f"of shape {_args.shape_of(x)}.")
    return x



# ------------------------------------------------------------------------------ elementwise and bitwise math
def _itemsize(dtype):
    return 2 if dtype == "bfloat16" else np.dtype(dtype).itemsize


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Returns whether two tensors are equal within a tolerance, elementwise.

    ``x1`` and ``x2`` are close where ``|x1 - x2| <= atol + rtol * |x2|`` (so the test is not symmetric, as in
    numpy). An infinity is close only to the same infinity; NaN is close to NaN only with ``equal_nan``. Integer
    and bool tensors are compared with the same formula, in float64.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with ``x1``.
        rtol: the relative tolerance, a non-negative number.
        atol: the absolute tolerance, a non-negative number.
        equal_nan: whether NaNs compare equal to each other.

    Returns:
        A bool tensor of the broadcast shape.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.isclose([1.0, 1.0, float("nan")], [1.0 + 1e-7, 1.1, float("nan")])).tolist()
    [True, False, False]
    """
    return _door.call("isclose", x1, x2, rtol=_args.number(rtol, "rtol", "isclose", allow_none=False),
                      atol=_args.number(atol, "atol", "isclose", allow_none=False), equal_nan=bool(equal_nan))


def allclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Returns whether every pair of entries of two tensors is close (see :func:`isclose`).

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with ``x1``.
        rtol: the relative tolerance, a non-negative number.
        atol: the absolute tolerance, a non-negative number.
        equal_nan: whether NaNs compare equal to each other.

    Returns:
        A 0-d bool tensor.

    >>> import highlevel as hl
    >>> bool(hl.ops.convert_to_numpy(hl.ops.allclose([1.0, 2.0], [1.0, 2.00001])))
    True
    """
    return _door.call("allclose", x1, x2, rtol=_args.number(rtol, "rtol", "allclose", allow_none=False),
                      atol=_args.number(atol, "atol", "allclose", allow_none=False), equal_nan=bool(equal_nan))


def cbrt(x):
    """Returns the real cube root of ``x``, elementwise (negative for negative entries).

    Args:
        x: a tensor; integer and bool inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.cbrt([-8.0, 27.0])).tolist()
    [-2.0, 3.0]
    """
    return _door.call("cbrt", x)


def fabs(x):
    """Returns the absolute value of ``x`` as a float tensor, elementwise.

    Args:
        x: a tensor; integer and bool inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.fabs(hl.ops.convert_to_tensor([-1, 2]))).tolist()
    [1.0, 2.0]
    """
    return _door.call("fabs", x)


def fmax(x1, x2):
    """Returns the elementwise maximum of two tensors, ignoring NaNs.

    Where one entry is NaN the other one is returned; the result is NaN only where both are.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape and the promoted dtype.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.fmax([2.0, float("nan")], [1.0, 4.0])).tolist()
    [2.0, 4.0]
    """
    return _door.call("fmax", x1, x2)


def fmin(x1, x2):
    """Returns the elementwise minimum of two tensors, ignoring NaNs.

    Where one entry is NaN the other one is returned; the result is NaN only where both are.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape and the promoted dtype.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.fmin([2.0, float("nan")], [1.0, 4.0])).tolist()
    [1.0, 4.0]
    """
    return _door.call("fmin", x1, x2)


def fmod(x1, x2):
    """Returns the remainder of the division truncated toward zero, elementwise (C's ``fmod``).

    The result has the sign of the dividend ``x1``, unlike :func:`mod` (the sign of the divisor). A float divisor
    of 0 gives NaN, an integer one 0; bool pairs compute in int32.

    Args:
        x1: the dividend, a tensor.
        x2: the divisor, a tensor broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape and the promoted dtype.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.fmod([-7.5, 7.5], [2.0, -2.0])).tolist()
    [-1.5, 1.5]
    """
    return _door.call("fmod", x1, x2)


def gcd(x1, x2):
    """Returns the greatest common divisor of two integer tensors, elementwise.

    The result is non-negative whatever the signs; ``gcd(0, 0)`` is 0.

    Args:
        x1: an integer tensor.
        x2: an integer tensor broadcastable with ``x1``.

    Returns:
        An integer tensor of the broadcast shape and the promoted dtype.

    Raises:
        TypeError: for a float or bool input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.gcd([-12, 7, 0], [18, 0, 0])).tolist()
    [6, 7, 0]
    """
    return _door.call("gcd", _args.integer_input(x1, "gcd", "x1"), _args.integer_input(x2, "gcd", "x2"))


def lcm(x1, x2):
    """Returns the least common multiple of two integer tensors, elementwise.

    The result is non-negative whatever the signs, and 0 where either entry is 0.

    Args:
        x1: an integer tensor.
        x2: an integer tensor broadcastable with ``x1``.

    Returns:
        An integer tensor of the broadcast shape and the promoted dtype.

    Raises:
        TypeError: for a float or bool input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.lcm([2, 3, -4], [5, 6, 6])).tolist()
    [10, 6, 12]
    """
    return _door.call("lcm", _args.integer_input(x1, "lcm", "x1"), _args.integer_input(x2, "lcm", "x2"))


def heaviside(x1, x2):
    """Returns the Heaviside step function of ``x1``: 0 where it is negative, 1 where positive, ``x2`` where 0.

    Args:
        x1: a tensor; NaN entries stay NaN.
        x2: the value at 0, a tensor broadcastable with ``x1`` (or a number).

    Returns:
        A float tensor of the broadcast shape (integer inputs compute in floatx).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.heaviside([-2.0, 0.0, 3.0], 0.5)).tolist()
    [0.0, 0.5, 1.0]
    """
    return _door.call("heaviside", x1, x2)


def hypot(x1, x2):
    """Returns ``sqrt(x1**2 + x2**2)`` elementwise, the hypotenuse of right triangles with legs ``x1`` and ``x2``.

    Computed without squaring the legs, so it neither overflows for large legs nor underflows for tiny ones. An
    infinite leg gives inf even when the other one is NaN.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with ``x1``.

    Returns:
        A float tensor of the broadcast shape (integer inputs compute in floatx).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.hypot([3.0, 5.0], [4.0, 12.0])).tolist()
    [5.0, 13.0]
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.hypot(3e30, 4e30))):.4e}")   # the squares would overflow
    5.0000e+30
    """
    return _door.call("hypot", x1, x2)


def i0(x):
    """Returns the modified Bessel function of the first kind of order 0, elementwise.

    Args:
        x: a tensor; integer and bool inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``; differentiable (its derivative is the Bessel function ``I1``).

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.i0(1.0))):.6f}")
    1.266066
    """
    return _door.call("i0", x)


def isneginf(x):
    """Returns whether each entry of ``x`` is negative infinity.

    Args:
        x: a tensor (integer tensors give False everywhere).

    Returns:
        A bool tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.isneginf([-float("inf"), float("inf"), 0.0])).tolist()
    [True, False, False]
    """
    return _door.call("isneginf", x)


def isposinf(x):
    """Returns whether each entry of ``x`` is positive infinity.

    Args:
        x: a tensor (integer tensors give False everywhere).

    Returns:
        A bool tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.isposinf([-float("inf"), float("inf"), 0.0])).tolist()
    [False, True, False]
    """
    return _door.call("isposinf", x)


def isreal(x):
    """Returns whether each entry of ``x`` has no imaginary part.

    highlevel has no complex dtypes, so every entry is real: the result is True everywhere.

    Args:
        x: a tensor.

    Returns:
        A bool tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.isreal([1.0, 2.5])).tolist()
    [True, True]
    """
    return _door.call("isreal", x)


def ldexp(x1, x2):
    """Returns ``x1 * 2**x2`` elementwise, exactly: no rounding but that of the result itself.

    Args:
        x1: the mantissas, a tensor.
        x2: the exponents, an integer tensor (or a Python int) broadcastable with ``x1``.

    Returns:
        A float tensor of the broadcast shape, of the promotion of ``x1``, ``x2`` and a Python float (integer
        mantissas give floatx); differentiable in ``x1``.

    Raises:
        TypeError: when ``x2`` is not an integer.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.ldexp([0.75, 1.5], [1, 2])).tolist()
    [1.5, 6.0]
    """
    return _door.call("ldexp", x1, _args.integer_input(x2, "ldexp", "x2"))


def bitwise_and(x, y):
    """Returns the bitwise AND of two integer or bool tensors, elementwise (``x & y``).

    Args:
        x: an integer or bool tensor.
        y: an integer or bool tensor broadcastable with ``x`` (or a Python int).

    Returns:
        A tensor of the broadcast shape and the promoted dtype (bools give the logical and).

    Raises:
        TypeError: for a float input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_and([12, 10], [10, 6])).tolist()
    [8, 2]
    """
    return _door.call("bitwise_and", _args.integer_input(x, "bitwise_and", "x", allow_bool=True),
                      _args.integer_input(y, "bitwise_and", "y", allow_bool=True))


def bitwise_or(x, y):
    """Returns the bitwise OR of two integer or bool tensors, elementwise (``x | y``).

    Args:
        x: an integer or bool tensor.
        y: an integer or bool tensor broadcastable with ``x`` (or a Python int).

    Returns:
        A tensor of the broadcast shape and the promoted dtype (bools give the logical or).

    Raises:
        TypeError: for a float input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_or([12, 10], [10, 6])).tolist()
    [14, 14]
    """
    return _door.call("bitwise_or", _args.integer_input(x, "bitwise_or", "x", allow_bool=True),
                      _args.integer_input(y, "bitwise_or", "y", allow_bool=True))


def bitwise_xor(x, y):
    """Returns the bitwise exclusive OR of two integer or bool tensors, elementwise (``x ^ y``).

    Args:
        x: an integer or bool tensor.
        y: an integer or bool tensor broadcastable with ``x`` (or a Python int).

    Returns:
        A tensor of the broadcast shape and the promoted dtype (bools give the logical xor).

    Raises:
        TypeError: for a float input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_xor([12, 10], [10, 6])).tolist()
    [6, 12]
    """
    return _door.call("bitwise_xor", _args.integer_input(x, "bitwise_xor", "x", allow_bool=True),
                      _args.integer_input(y, "bitwise_xor", "y", allow_bool=True))


def bitwise_invert(x):
    """Returns the bitwise NOT of an integer or bool tensor, elementwise (``~x``).

    Every bit is flipped, so a signed integer ``v`` gives ``-v - 1``; a bool tensor gives its logical not.

    Args:
        x: an integer or bool tensor.

    Returns:
        A tensor of the shape and dtype of ``x``.

    Raises:
        TypeError: for a float input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_invert(hl.ops.convert_to_tensor([0, 5], dtype="uint8"))).tolist()
    [255, 250]
    """
    return _door.call("bitwise_invert", _args.integer_input(x, "bitwise_invert", "x", allow_bool=True))


def bitwise_not(x):
    """Returns the bitwise NOT of an integer or bool tensor, elementwise: the same op as :func:`bitwise_invert`.

    Args:
        x: an integer or bool tensor.

    Returns:
        A tensor of the shape and dtype of ``x``.

    Raises:
        TypeError: for a float input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_not(hl.ops.convert_to_tensor([0, -3]))).tolist()
    [-1, 2]
    """
    return _door.call("bitwise_invert", _args.integer_input(x, "bitwise_not", "x", allow_bool=True))


def _shift(name, op, x, y):
    return _door.call(name, _args.integer_input(x, op, "x"), _args.integer_input(y, op, "y"))


def bitwise_left_shift(x, y):
    """Shifts the bits of integers to the left, elementwise (``x << y``): ``x * 2**y`` modulo the dtype's range.

    A shift count outside ``[0, bits of the dtype)`` gives 0 (numpy's definition, on every engine).

    Args:
        x: an integer tensor.
        y: the shift counts, an integer tensor broadcastable with ``x`` (or a Python int, which keeps the dtype
            of ``x``).

    Returns:
        An integer tensor of the broadcast shape and the promoted dtype.

    Raises:
        TypeError: for a float or bool input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_left_shift([1, 3], [3, 1])).tolist()
    [8, 6]
    """
    return _shift("bitwise_left_shift", "bitwise_left_shift", x, y)


def bitwise_right_shift(x, y):
    """Shifts the bits of integers to the right, elementwise (``x >> y``): ``floor(x / 2**y)``.

    Signed integers shift arithmetically (the sign bit repeats), unsigned ones logically. A shift count outside
    ``[0, bits of the dtype)`` gives 0 for a non-negative entry and -1 for a negative one.

    Args:
        x: an integer tensor.
        y: the shift counts, an integer tensor broadcastable with ``x`` (or a Python int, which keeps the dtype
            of ``x``).

    Returns:
        An integer tensor of the broadcast shape and the promoted dtype.

    Raises:
        TypeError: for a float or bool input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_right_shift([-16, 16], 2)).tolist()
    [-4, 4]
    """
    return _shift("bitwise_right_shift", "bitwise_right_shift", x, y)


def left_shift(x, y):
    """Shifts the bits of integers to the left, elementwise: the same op as :func:`bitwise_left_shift`.

    Args:
        x: an integer tensor.
        y: the shift counts, an integer tensor broadcastable with ``x`` (or a Python int).

    Returns:
        An integer tensor of the broadcast shape and the promoted dtype.

    Raises:
        TypeError: for a float or bool input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.left_shift([1, 2], 4)).tolist()
    [16, 32]
    """
    return _shift("bitwise_left_shift", "left_shift", x, y)


def right_shift(x, y):
    """Shifts the bits of integers to the right, elementwise: the same op as :func:`bitwise_right_shift`.

    Args:
        x: an integer tensor.
        y: the shift counts, an integer tensor broadcastable with ``x`` (or a Python int).

    Returns:
        An integer tensor of the broadcast shape and the promoted dtype.

    Raises:
        TypeError: for a float or bool input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.right_shift([16, 40], 3)).tolist()
    [2, 5]
    """
    return _shift("bitwise_right_shift", "right_shift", x, y)


def logaddexp2(x1, x2):
    """Returns ``log2(2**x1 + 2**x2)`` elementwise, without overflow for large inputs.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with ``x1``.

    Returns:
        A float tensor of the broadcast shape (integer inputs compute in floatx).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.logaddexp2([1.0, 1000.0], [1.0, 1000.0])).tolist()
    [2.0, 1001.0]
    """
    return _door.call("logaddexp2", x1, x2)


def nextafter(x1, x2):
    """Returns the next representable float after ``x1`` in the direction of ``x2``, elementwise.

    Computed in the result's own dtype (a float32 step is a float32 ulp): ``x2`` where the two are equal, the
    smallest subnormal of the right sign after 0, NaN where either is NaN.

    Args:
        x1: the starting values, a tensor.
        x2: the directions, a tensor broadcastable with ``x1``.

    Returns:
        A float tensor of the broadcast shape, of the promotion of ``x1``, ``x2`` and a Python float (integer
        inputs give floatx). Not differentiable (its gradient is 0).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.nextafter([1.0, 1.0], [2.0, 0.0])).tolist()
    [1.0000001192092896, 0.9999999403953552]
    """
    return _door.call("nextafter", x1, x2)


def signbit(x):
    """Returns whether the sign bit of each entry of ``x`` is set.

    True for negative numbers, and also for -0.0 and NaNs with the sign bit set; False for unsigned and bool
    tensors.

    Args:
        x: a tensor.

    Returns:
        A bool tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.signbit([-1.0, -0.0, 0.0, 2.0])).tolist()
    [True, True, False, False]
    """
    return _door.call("signbit", x)


def sinc(x):
    """Returns the normalized sinc function ``sin(pi x) / (pi x)``, elementwise (1 at 0).

    Args:
        x: a tensor; integer and bool inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``; differentiable everywhere (its derivative at 0 is 0).

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.sinc(0.5))):.6f}")
    0.636620
    """
    return _door.call("sinc", x)


def trunc(x):
    """Rounds each entry of ``x`` toward zero (drops the fractional part).

    Args:
        x: a tensor; integer and bool tensors are returned unchanged.

    Returns:
        A tensor of the shape and dtype of ``x`` (gradient 0).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.trunc([-1.7, 1.7, 2.0])).tolist()
    [-1.0, 1.0, 2.0]
    """
    return _door.call("trunc", x)


def empty(shape, dtype=None):
    """Returns a tensor of ``shape`` whose values are not specified (highlevel fills it with zeros).

    Args:
        shape: an int or a sequence of ints.
        dtype: the dtype (default: floatx).

    Returns:
        A tensor of ``shape`` and ``dtype``.

    >>> import highlevel as hl
    >>> hl.ops.shape(hl.ops.empty((2, 3)))
    (2, 3)
    """
    return _door.call("empty", _args.shape(shape, "empty"), dtype=_args.dtype(dtype, "empty"))


def empty_like(x, dtype=None):
    """Returns a tensor of the shape of ``x`` whose values are not specified (highlevel fills it with zeros).

    Args:
        x: a tensor.
        dtype: the dtype (default: the dtype of ``x``).

    Returns:
        A tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.dtype(hl.ops.empty_like(hl.ops.ones((2,), dtype="int32")))
    'int32'
    """
    return _door.call("empty_like", x, dtype=_args.dtype(dtype, "empty_like"))


def identity(n, dtype=None):
    """Returns the ``n x n`` identity matrix: ones on the main diagonal, zeros elsewhere.

    Args:
        n: the number of rows and columns, a non-negative int.
        dtype: the dtype (default: floatx).

    Returns:
        A 2-D tensor of shape ``(n, n)``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.identity(2)).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    return _door.call("identity", _args.positive_int(n, "n", "identity", minimum=0),
                      dtype=_args.dtype(dtype, "identity"))


def array(x, dtype=None):
    """Creates a tensor from ``x`` (a nested list, a numpy array, a scalar or a tensor).

    Args:
        x: the values.
        dtype: the dtype (default: Python floats give floatx, Python ints int32, numpy arrays keep theirs).

    Returns:
        A tensor holding ``x``.

    >>> import highlevel as hl
    >>> hl.ops.dtype(hl.ops.array([1, 2, 3]))
    'int32'
    """
    return _door.call("array", x, dtype=_args.dtype(dtype, "array"))


def view(x, dtype=None):
    """Returns the bits of ``x`` reinterpreted as ``dtype``, as numpy's ``ndarray.view``.

    When the item sizes differ, the last axis changes length so that it holds the same bytes (float32 viewed as
    int16 doubles it); its byte count must divide by the new item size. A bool tensor reads as bytes of 0 or 1,
    and a byte viewed as bool is True when it is not 0.

    Args:
        x: a tensor.
        dtype: the dtype to read the bits as (default: the dtype of ``x``).

    Returns:
        A tensor of ``dtype`` (not differentiable).

    Raises:
        ValueError: when the last axis does not hold a whole number of items of ``dtype``, or ``x`` is 0-d and
            the item sizes differ.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.view(hl.ops.convert_to_tensor([1.0, -0.0]), "int32")).tolist()
    [1065353216, -2147483648]
    """
    old = _args.dtype_of(x)
    if old is None:  # a nested list holding symbolic values: its dtype is known once it is a tensor
        x = _door.call("convert_to_tensor", x)
        old = _args.dtype_of(x)
    if isinstance(old, type):  # a Python scalar
        old = _dtypes.result_type(old)
    new = _args.dtype(dtype, "view") or old
    shape = _args.shape_of(x)
    size_old, size_new = _itemsize(old), _itemsize(new)
    if size_old != size_new:
        if not shape:
            raise ValueError(f"view: cannot view a 0-d tensor of {old} ({size_old} bytes) as {new} ({size_new} "
                             "bytes): the item sizes differ, so the last axis would change length. Reshape it to "
                             "(1,) first.")
        last = shape[-1]
        if last is not None and (last * size_old) % size_new:
            raise ValueError(f"view: the last axis of a tensor of shape {shape} and dtype {old} holds "
                             f"{last * size_old} bytes, not a whole number of {new} items ({size_new} bytes each). "
                             "Pad or slice the last axis to a multiple first.")
    return _door.call("view", x, new)


def get_item(x, key):
    """Returns ``x[key]`` (Keras's name for indexing; :func:`highlevel.ops.getitem` is the same op).

    Args:
        x: a tensor.
        key: an int, a slice, None, Ellipsis, an integer array for one axis, or a tuple of those.

    Returns:
        The selected entries, as numpy's basic indexing selects them.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.get_item(hl.ops.convert_to_tensor([[1, 2], [3, 4]]), (1, 0))).tolist()
    3
    """
    return _door.call("getitem", x, key)


__all__ = ['ndim', 'size', 'zeros', 'ones', 'full', 'zeros_like', 'ones_like', 'full_like', 'arange', 'eye', 'linspace', 'copy', 'negative', 'abs', 'sign', 'sqrt', 'square', 'exp', 'expm1', 'log', 'log1p', 'log2', 'log10', 'sin', 'cos', 'tan', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh', 'floor', 'ceil', 'reciprocal', 'isnan', 'isinf', 'isfinite', 'logical_not', 'round', 'clip', 'nan_to_num', 'add', 'subtract', 'multiply', 'divide', 'floor_divide', 'mod', 'power', 'arctan2', 'maximum', 'minimum', 'logaddexp', 'equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal', 'logical_and', 'logical_or', 'logical_xor', 'sum', 'mean', 'max', 'min', 'prod', 'var', 'std', 'any', 'all', 'argmax', 'argmin', 'cumsum', 'cumprod', 'matmul', 'einsum', 'tensordot', 'outer', 'reshape', 'transpose', 'swapaxes', 'moveaxis', 'concatenate', 'stack', 'split', 'expand_dims', 'squeeze', 'take', 'take_along_axis', 'where', 'pad', 'tile', 'repeat', 'broadcast_to', 'flip', 'sort', 'argsort', 'divide_no_nan', 'absolute', 'true_divide', 'amax', 'amin', 'exp2', 'deg2rad', 'rad2deg', 'ravel', 'ptp', 'tril', 'triu']
__all__ += ["isclose", "allclose", "cbrt", "fabs", "fmax", "fmin", "fmod", "gcd", "lcm", "heaviside", "hypot", "i0",
            "isneginf", "isposinf", "isreal", "ldexp", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_invert",
            "bitwise_not", "bitwise_left_shift", "bitwise_right_shift", "left_shift", "right_shift", "logaddexp2",
            "nextafter", "signbit", "sinc", "trunc", "empty", "empty_like", "identity", "array", "view", "get_item"]
