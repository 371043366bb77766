"""Elementwise math, comparisons and reductions of the JAX backend.

Every op converts its inputs with :mod:`.conversion`, so dtypes follow the contract's promotion table
rather than JAX's x64 defaults: float math on integers computes in floatx, Python scalars are weak,
``sum`` of bool gives int32 and integer sums keep their dtype (no promotion to int64).
"""

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp

from highlevel.backends.contract.axes import canonical_axes, canonical_axis

from . import conversion as cv


def _float_unary(fn):
    """An op computing ``fn`` in float (integer and bool inputs become floatx first)."""

    def op(self, x):
        return fn(cv.to_float(x))

    op.__name__ = fn.__name__
    return op


def _binary(fn):
    """An op applying ``fn`` to the two operands promoted to their common dtype."""

    def op(self, x1, x2):
        return fn(*cv.promote(x1, x2))

    op.__name__ = fn.__name__
    return op


def _float_binary(fn):
    """Like :func:`_binary`, but an integer or bool common dtype becomes floatx."""

    def op(self, x1, x2):
        return fn(*cv.promote_float(x1, x2))

    op.__name__ = fn.__name__
    return op


def _logical(fn):
    def op(self, x1, x2):
        return fn(cv.convert(x1), cv.convert(x2))

    op.__name__ = fn.__name__
    return op


@jax.custom_jvp
def _float_abs(x):
    return jnp.abs(x)


@_float_abs.defjvp
def _float_abs_jvp(primals, tangents):
    # d|x|/dx = sign(x), which is 0 at 0 (the contract's convention; jnp.abs gives 1 there)
    (x,), (t,) = primals, tangents
    return jnp.abs(x), t * jnp.sign(x)


def _reduced_size(x, axes):
    shape = x.shape
    if axes is None:
        axes = range(len(shape))
    n = 1
    for a in axes:
        n *= shape[a]
    return n


class MathOps:
    """Elementwise, comparison and reduction methods of :class:`~highlevel.backends.contract.NumpyContract`."""

    # ------------------------------------------------------- elementwise, unary
    def negative(self, x):
        x = cv.convert(x)
        if cv.dtype_name(x) == "bool":
            raise TypeError("negative() of a bool tensor is not defined; use logical_not instead.")
        return jnp.negative(x)

    def abs(self, x):
        x = cv.convert(x)
        return _float_abs(x) if cv.is_float(x) else jnp.abs(x)

    def sign(self, x):
        x = cv.convert(x)
        if cv.dtype_name(x) == "bool":
            x = x.astype(jnp.int32)
        return jnp.sign(x)

    def square(self, x):
        x = cv.convert(x)
        if cv.dtype_name(x) == "bool":
            x = x.astype(jnp.int32)
        return jnp.square(x)

    sqrt = _float_unary(jnp.sqrt)
    exp = _float_unary(jnp.exp)
    expm1 = _float_unary(jnp.expm1)
    log = _float_unary(jnp.log)
    log1p = _float_unary(jnp.log1p)
    log2 = _float_unary(jnp.log2)
    log10 = _float_unary(jnp.log10)
    sin = _float_unary(jnp.sin)
    cos = _float_unary(jnp.cos)
    tan = _float_unary(jnp.tan)
    arcsin = _float_unary(jnp.arcsin)
    arccos = _float_unary(jnp.arccos)
    arctan = _float_unary(jnp.arctan)
    sinh = _float_unary(jnp.sinh)
    cosh = _float_unary(jnp.cosh)
    tanh = _float_unary(jnp.tanh)
    arcsinh = _float_unary(jnp.arcsinh)
    arccosh = _float_unary(jnp.arccosh)
    arctanh = _float_unary(jnp.arctanh)
    floor = _float_unary(jnp.floor)
    ceil = _float_unary(jnp.ceil)
    reciprocal = _float_unary(jnp.reciprocal)
    rsqrt = _float_unary(jax.lax.rsqrt)
    erf = _float_unary(jsp.erf)

    def isnan(self, x):
        return jnp.isnan(cv.convert(x))

    def isinf(self, x):
        return jnp.isinf(cv.convert(x))

    def isfinite(self, x):
        return jnp.isfinite(cv.convert(x))

    def logical_not(self, x):
        return jnp.logical_not(cv.convert(x))

    def round(self, x, decimals=0):
        x = cv.convert(x)
        if cv.dtype_name(x) == "bool":
            x = x.astype(jnp.int32)
        return jnp.round(x, decimals)

    def clip(self, x, x_min, x_max):
        x = cv.convert(x)
        if cv.dtype_name(x) == "bool":
            x = x.astype(jnp.int32)
        # promoted like a binary op: int tensor with float bounds computes in floatx, weak bounds adapt
        x, lo, hi = cv.promote(x, x_min, x_max)
        # Two selects instead of jnp.clip: the gradient is 1 on [x_min, x_max] *including* the bounds
        # (jnp.clip splits it 0.5/0.5 there), 0 outside; NaN passes through; x_min > x_max gives x_max.
        y = jnp.where(x < lo, lo, x)
        return jnp.where(y > hi, hi, y)

    def nan_to_num(self, x, nan=0.0, posinf=None, neginf=None):
        x = cv.convert(x)
        if not cv.is_float(x):
            return x
        return jnp.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)

    # ------------------------------------------------------ elementwise, binary
    add = _binary(jnp.add)
    subtract = _binary(jnp.subtract)
    multiply = _binary(jnp.multiply)
    divide = _float_binary(jnp.true_divide)
    arctan2 = _float_binary(jnp.arctan2)
    logaddexp = _float_binary(jnp.logaddexp)
    maximum = _binary(jnp.maximum)
    minimum = _binary(jnp.minimum)
    equal = _binary(jnp.equal)
    not_equal = _binary(jnp.not_equal)
    less = _binary(jnp.less)
    less_equal = _binary(jnp.less_equal)
    greater = _binary(jnp.greater)
    greater_equal = _binary(jnp.greater_equal)
    logical_and = _logical(jnp.logical_and)
    logical_or = _logical(jnp.logical_or)
    logical_xor = _logical(jnp.logical_xor)

    def _int_arith(self, x1, x2):
        x1, x2 = cv.promote(x1, x2)
        if cv.dtype_name(x1) == "bool":
            x1, x2 = x1.astype(jnp.int32), x2.astype(jnp.int32)
        return x1, x2

    def floor_divide(self, x1, x2):
        return jnp.floor_divide(*self._int_arith(x1, x2))

    def mod(self, x1, x2):
        return jnp.mod(*self._int_arith(x1, x2))

    def power(self, x1, x2):
        return jnp.power(*self._int_arith(x1, x2))

    # ---------------------------------------------------------------- reductions
    @staticmethod
    def _count_dtype(x):
        """Sums and products of bool count in int32; other dtypes keep theirs."""
        return jnp.int32 if cv.dtype_name(x) == "bool" else x.dtype

    def sum(self, x, axis=None, keepdims=False):
        x = cv.convert(x)
        axes = canonical_axes(axis, x.ndim)
        dt = self._count_dtype(x)
        return jnp.sum(x.astype(dt), axis=axes, keepdims=keepdims, dtype=dt, promote_integers=False)

    def prod(self, x, axis=None, keepdims=False, dtype=None):
        x = cv.convert(x, dtype)
        axes = canonical_axes(axis, x.ndim)
        dt = self._count_dtype(x)
        return jnp.prod(x.astype(dt), axis=axes, keepdims=keepdims, dtype=dt, promote_integers=False)

    def mean(self, x, axis=None, keepdims=False):
        x = cv.to_float(x)
        return jnp.mean(x, axis=canonical_axes(axis, x.ndim), keepdims=keepdims)

    def var(self, x, axis=None, keepdims=False):
        x = cv.to_float(x)
        return jnp.var(x, axis=canonical_axes(axis, x.ndim), keepdims=keepdims)

    def std(self, x, axis=None, keepdims=False):
        x = cv.to_float(x)
        return jnp.std(x, axis=canonical_axes(axis, x.ndim), keepdims=keepdims)

    def _extremum(self, fn, name, x, axis, keepdims):
        x = cv.convert(x)
        axes = canonical_axes(axis, x.ndim)
        if _reduced_size(x, axes) == 0:
            raise ValueError(
                f"{name}() of an empty tensor (shape {tuple(x.shape)}) over axis={axis!r} has no identity; "
                "reduce over a non-empty axis or pass an initial value."
            )
        return fn(x, axis=axes, keepdims=keepdims)

    def max(self, x, axis=None, keepdims=False, initial=None):
        if initial is not None:
            return self._reduce_with_initial("max", x, axis, keepdims, initial)
        return self._extremum(jnp.max, "max", x, axis, keepdims)

    def min(self, x, axis=None, keepdims=False, initial=None):
        if initial is not None:
            return self._reduce_with_initial("min", x, axis, keepdims, initial)
        return self._extremum(jnp.min, "min", x, axis, keepdims)

    def any(self, x, axis=None, keepdims=False):
        x = cv.convert(x)
        return jnp.any(x, axis=canonical_axes(axis, x.ndim), keepdims=keepdims)

    def all(self, x, axis=None, keepdims=False):
        x = cv.convert(x)
        return jnp.all(x, axis=canonical_axes(axis, x.ndim), keepdims=keepdims)

    def logsumexp(self, x, axis=None, keepdims=False):
        x = cv.to_float(x)
        return jsp.logsumexp(x, axis=canonical_axes(axis, x.ndim), keepdims=keepdims)

    def _arg_extremum(self, fn, name, x, axis, keepdims):
        x = cv.convert(x)
        if x.size == 0:
            raise ValueError(f"{name}() of an empty tensor (shape {tuple(x.shape)}) is not defined.")
        if axis is not None:
            axis = canonical_axis(axis, x.ndim)
        out = fn(x, axis=axis, keepdims=keepdims)
        return out.astype(jnp.int32)

    def argmax(self, x, axis=None, keepdims=False):
        return self._arg_extremum(jnp.argmax, "argmax", x, axis, keepdims)

    def argmin(self, x, axis=None, keepdims=False):
        return self._arg_extremum(jnp.argmin, "argmin", x, axis, keepdims)

    def _cumulative(self, fn, x, axis, dtype):
        x = cv.convert(x)
        dt = cv.jdtype(dtype) if dtype is not None else self._count_dtype(x)
        x = x.astype(dt)
        if axis is None:
            x, axis = x.reshape(-1), 0
        else:
            axis = canonical_axis(axis, x.ndim)
        return fn(x, axis=axis, dtype=dt)

    def cumsum(self, x, axis=None, dtype=None):
        return self._cumulative(jnp.cumsum, x, axis, dtype)

    def cumprod(self, x, axis=None, dtype=None):
        return self._cumulative(jnp.cumprod, x, axis, dtype)
