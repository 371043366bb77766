"""Reductions and scans of the native engine.

``axis`` is None (all axes), an int or a tuple; negative axes count from the end. The VJP of a
reduction broadcasts the output gradient back over the reduced axes; max/min send it to every position
equal to the extremum, divided by the number of ties (JAX's rule).

>>> from highlevel.backends.native.tensor import Tensor
>>> sum(Tensor([[1, 2], [3, 4]]), axis=0).numpy().tolist()
[4, 6]
>>> mean(Tensor([1, 2])).dtype
'float32'
"""

import builtins

from highlevel.backends.contract import dtypes
from highlevel.backends.contract.axes import canonical_axes, canonical_axis

from . import ops_math as _math
from . import ops_shape as _shape
from .autograd import record
from .convert import like, to_float, to_tensor
from .tensor import FLOAT_DTYPES, Tensor
from .xp import xp


def _kept_shape(shape, axes):
    """``shape`` with the reduced ``axes`` (None: all) set to 1."""
    if axes is None:
        return (1,) * len(shape)
    return tuple(1 if i in axes else n for i, n in enumerate(shape))


def _count(shape, axes):
    n = 1
    for i, d in enumerate(shape):
        if axes is None or i in axes:
            n *= d
    return n


def _expand(g, shape, axes):
    """The output gradient broadcast back to the input ``shape``: a read-only view of an array, or a recorded
    broadcast of a Tensor (graph mode)."""
    if g.__class__ is Tensor:
        return _shape.broadcast_to(_shape.reshape(g, _kept_shape(shape, axes)), shape)
    return xp.broadcast_to(g.reshape(_kept_shape(shape, axes)), shape)


def _int_accumulator(x):
    """bool sums in int32; other integers keep their dtype (numpy would widen them to int64)."""
    if x.dtype == "bool":
        return xp.int32
    return None if x.data.dtype in FLOAT_DTYPES else x.data.dtype


def sum(x, axis=None, keepdims=False):  # noqa: A001 - the contract's name
    """The sum over ``axis``; bool gives int32, other integers keep their dtype."""
    x = to_tensor(x)
    xd = x.data
    axes = canonical_axes(axis, xd.ndim)
    yd = xd.sum(axis=axes, keepdims=keepdims, dtype=_int_accumulator(x))
    shape = xd.shape

    def backward(g, out=None):
        return (_expand(g, shape, axes),)

    return record(yd, (x,), backward, (), "sum")


def mean(x, axis=None, keepdims=False):
    """The mean over ``axis``; integers give floatx; the mean over no entries is nan, as numpy."""
    x = to_float(x)
    xd = x.data
    axes = canonical_axes(axis, xd.ndim)
    n = _count(xd.shape, axes)
    yd = xd.sum(axis=axes, keepdims=keepdims) * (1.0 / n) if n else xd.mean(axis=axes, keepdims=keepdims)
    shape = xd.shape
    scale = 1.0 / n if n else 0.0

    def backward(g, out=None):
        return (_expand(g * scale, shape, axes),)

    return record(like(yd, xd.dtype), (x,), backward, (), "mean")


def _check_nonempty(name, shape, axes):
    reduced = range(len(shape)) if axes is None else axes
    if builtins.any(shape[i] == 0 for i in reduced):
        raise ValueError(
            f"{name} of an empty axis: the input has shape {shape} and the reduction axes "
            f"{axes if axes is not None else 'all'} include a zero-size one, so the result "
            "has no value. Pass a non-empty input."
        )


def _extremum(name, fwd):
    def op(x, axis=None, keepdims=False):
        x = to_tensor(x)
        xd = x.data
        axes = canonical_axes(axis, xd.ndim)
        _check_nonempty(name, xd.shape, axes)
        yd = fwd(xd, axis=axes, keepdims=keepdims)
        shape = xd.shape

        def backward(g, out=None):
            # which entries hold the extremum is piecewise constant in x: constants in graph mode too
            kept = _kept_shape(shape, axes)
            hit = xd == yd.reshape(kept)
            count = xp.maximum(hit.sum(axis=axes, keepdims=True), 1)
            if out is not None:
                return (_math.where(hit, _shape.reshape(g, kept) / count.astype(xd.dtype), 0.0),)
            share = g.reshape(kept) / count.astype(g.dtype)
            return (xp.where(hit, share, xp.zeros((), g.dtype)),)

        return record(yd, (x,), backward, (x,), name)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (
        f"The {name}imum over ``axis`` (NaN propagates); the gradient is shared by ties. "
        "Raises ValueError over an empty axis."
    )
    return op


max = _extremum("max", xp.max)  # noqa: A001
min = _extremum("min", xp.min)  # noqa: A001


def _exclusive_products(xd, axis):
    """For each entry, the product of all the others along ``axis`` (exact with zeros, no division)."""
    n = xd.shape[axis]
    ones_shape = list(xd.shape)
    ones_shape[axis] = 1
    one = xp.ones(ones_shape, xd.dtype)
    left = xp.cumprod(xp.concatenate([one, xd.take(xp.arange(n - 1), axis=axis)], axis=axis), axis=axis)
    rev = xp.flip(xd, axis=axis)
    right = xp.cumprod(xp.concatenate([one, rev.take(xp.arange(n - 1), axis=axis)], axis=axis), axis=axis)
    return left * xp.flip(right, axis=axis)


def _exclusive_products_tensor(x):
    """:func:`_exclusive_products` along the last axis with recorded ops (differentiable, exact with zeros)."""
    n = x.shape[-1]
    one = Tensor(xp.ones(x.shape[:-1] + (1,), x.data.dtype))
    head = (Ellipsis, builtins.slice(0, n - 1))
    left = cumprod(_shape.concatenate([one, _shape.getitem(x, head)], axis=-1), axis=-1)
    rev = _shape.flip(x, axis=-1)
    right = cumprod(_shape.concatenate([one, _shape.getitem(rev, head)], axis=-1), axis=-1)
    return left * _shape.flip(right, axis=-1)


def prod(x, axis=None, keepdims=False):
    """The product over ``axis``; bool gives int32, other integers keep their dtype."""
    x = to_tensor(x)
    xd = x.data
    axes = canonical_axes(axis, xd.ndim)
    yd = xd.prod(axis=axes, keepdims=keepdims, dtype=_int_accumulator(x))
    shape = xd.shape

    def backward(g, out=None):
        # the reduced axes flattened into one trailing axis, so one exclusive product does them all
        red = tuple(range(xd.ndim)) if axes is None else axes
        rest = tuple(i for i in range(xd.ndim) if i not in red)
        inverse = [0] * xd.ndim
        for pos, ax in enumerate(rest + red):
            inverse[ax] = pos
        if out is not None:  # the same steps with recorded ops: the products depend on x
            moved = _shape.transpose(x, rest + red)
            flat = _shape.reshape(moved, moved.shape[: len(rest)] + (-1,))
            others = _shape.reshape(_exclusive_products_tensor(flat), moved.shape)
            return (_expand(g, shape, axes) * _shape.transpose(others, inverse),)
        moved = xp.transpose(xd, rest + red)
        flat = moved.reshape(moved.shape[: len(rest)] + (-1,))
        others = _exclusive_products(flat, -1).reshape(moved.shape)
        others = xp.transpose(others, inverse)
        return (_expand(g, shape, axes) * others,)

    return record(yd, (x,), backward, (x,), "prod")


def var(x, axis=None, keepdims=False):
    """The population variance (ddof 0) over ``axis``; integers give floatx."""
    x = to_float(x)
    xd = x.data
    axes = canonical_axes(axis, xd.ndim)
    n = _count(xd.shape, axes)
    centered = xd - xd.mean(axis=axes, keepdims=True)
    yd = (centered * centered).mean(axis=axes, keepdims=keepdims)
    shape = xd.shape
    scale = 2.0 / n if n else 0.0

    def backward(g, out=None):
        c = centered if out is None else x - mean(x, axes, keepdims=True)
        return (_expand(g, shape, axes) * (c * scale),)

    return record(like(yd, xd.dtype), (x,), backward, (x,), "var")


def std(x, axis=None, keepdims=False):
    """The population standard deviation over ``axis``."""
    from .ops_math import sqrt

    return sqrt(var(x, axis, keepdims))


def any(x, axis=None, keepdims=False):  # noqa: A001
    """Whether any entry over ``axis`` is true (bool)."""
    xd = to_tensor(x).data
    return Tensor(xp.any(xd, axis=canonical_axes(axis, xd.ndim), keepdims=keepdims))


def all(x, axis=None, keepdims=False):  # noqa: A001
    """Whether every entry over ``axis`` is true (bool)."""
    xd = to_tensor(x).data
    return Tensor(xp.all(xd, axis=canonical_axes(axis, xd.ndim), keepdims=keepdims))


def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) over ``axis``, shifted by the maximum so that +-1e4 inputs stay finite."""
    x = to_float(x)
    xd = x.data
    axes = canonical_axes(axis, xd.ndim)
    m = xd.max(axis=axes, keepdims=True) if xd.size else xp.zeros(_kept_shape(xd.shape, axes), xd.dtype)
    m = xp.where(xp.isfinite(m), m, xp.zeros((), xd.dtype))  # all -inf rows: no shift, log(0) = -inf
    with _quiet():
        lse = xp.log(xp.exp(xd - m).sum(axis=axes, keepdims=True)) + m
    shape = xd.shape
    yd = lse if keepdims else lse.reshape([d for i, d in enumerate(lse.shape) if not (axes is None or i in axes)])

    def backward(g, out=None):
        if out is None:
            return (_expand(g, shape, axes) * xp.exp(xd - lse),)
        return (_expand(g, shape, axes) * _math.exp(x - _shape.reshape(out, lse.shape)),)

    return record(like(yd, xd.dtype), (x,), backward, (x,), "logsumexp")


def _quiet():
    return xp.errstate(divide="ignore") if hasattr(xp, "errstate") else _Null()


class _Null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _arg(name, fwd):
    def op(x, axis=None, keepdims=False):
        xd = to_tensor(x).data
        if xd.size == 0:
            raise ValueError(f"{name} of an empty tensor (shape {xd.shape}) has no answer.")
        if axis is not None:
            axis = canonical_axis(axis, xd.ndim)
        return Tensor(fwd(xd, axis=axis, keepdims=keepdims).astype(xp.int32))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Index of the first {name[3:]}imum along ``axis`` (int32); ``axis=None`` flattens."
    return op


argmax = _arg("argmax", xp.argmax)
argmin = _arg("argmin", xp.argmin)


def _scan_input(x, axis, dtype):
    x = to_tensor(x)
    if dtype is not None:
        x = to_tensor(x, dtypes.standardize_dtype(dtype))
    elif x.dtype == "bool":
        x = to_tensor(x, "int32")
    if axis is None:
        from .ops_shape import reshape

        x, axis = reshape(x, (-1,)), 0
    return x, canonical_axis(axis, x.data.ndim)


def cumsum(x, axis=None, dtype=None):
    """Cumulative sum along ``axis`` (flattened first when None); bool gives int32."""
    x, axis = _scan_input(x, axis, dtype)
    xd = x.data
    yd = xp.cumsum(xd, axis=axis, dtype=xd.dtype)

    def backward(g, out=None):  # a reversed cumulative sum
        if out is None:
            return (xp.flip(xp.cumsum(xp.flip(g, axis), axis=axis), axis),)
        return (_shape.flip(cumsum(_shape.flip(g, axis), axis=axis), axis),)

    return record(yd, (x,), backward, (), "cumsum")


def cumprod(x, axis=None, dtype=None):
    """Cumulative product along ``axis`` (flattened first when None); bool gives int32."""
    x, axis = _scan_input(x, axis, dtype)
    xd = x.data
    yd = xp.cumprod(xd, axis=axis, dtype=xd.dtype)

    def backward(g, out=None):
        nonzero = bool((xd != 0).all())
        if out is not None:
            if nonzero:
                return (_shape.flip(cumsum(_shape.flip(g * out, axis), axis=axis), axis) / x,)
            return (_cumprod_grad_with_zeros_tensor(x, g, axis),)
        if nonzero:
            # d y_j / d x_i = y_j / x_i for j >= i: a reversed cumulative sum, then one division
            rev = xp.flip(xp.cumsum(xp.flip(g * yd, axis), axis=axis), axis)
            return (rev / xd,)
        return (_cumprod_grad_with_zeros(xd, g, axis),)

    return record(yd, (x,), backward, (x,), "cumprod")


def _cumprod_grad_with_zeros(xd, g, axis):
    """The exact cumprod VJP when ``x`` has zeros: for each i, the cumprod with x_i replaced by 1
    (O(n^2) along the axis, used only then)."""
    x = xp.moveaxis(xd, axis, -1)
    gm = xp.moveaxis(g, axis, -1)
    n = x.shape[-1]
    eye = xp.eye(n, dtype=xp.bool_)
    # tiled[..., i, :] = x with x_i set to 1
    tiled = xp.where(eye, xp.ones((), x.dtype), x[..., None, :])
    partial = xp.cumprod(tiled, axis=-1)
    upper = xp.triu(xp.ones((n, n), dtype=x.dtype))  # only j >= i depends on x_i
    out = (partial * upper * gm[..., None, :]).sum(axis=-1)
    return xp.moveaxis(out, -1, axis)


def _cumprod_grad_with_zeros_tensor(x, g, axis):
    """:func:`_cumprod_grad_with_zeros` with recorded ops (graph mode)."""
    xm = _shape.moveaxis(x, axis, -1)
    gm = _shape.moveaxis(g, axis, -1)
    n = xm.shape[-1]
    dt = x.data.dtype
    tiled = _math.where(xp.eye(n, dtype=xp.bool_), 1.0, _shape.expand_dims(xm, -2))
    partial = cumprod(tiled, axis=-1)
    upper = xp.triu(xp.ones((n, n), dtype=dt))
    out = sum(partial * upper * _shape.expand_dims(gm, -2), axis=-1)
    return _shape.moveaxis(out, -1, axis)
