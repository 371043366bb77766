"""Elementwise math of the torch engine: unary and binary ops with the contract's promotion."""

import operator

import numpy as np
import torch

from . import _convert as cv

_SIGNED_INTS = frozenset({torch.int8, torch.int16, torch.int32, torch.int64})


def _is_py_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, (bool, np.generic))


def _scalar_keeps_dtype(dtype, number):
    """Whether a weak Python number leaves ``dtype`` unchanged by the table (and torch agrees)."""
    if dtype in cv.FLOATS:
        return True
    return isinstance(number, int) and dtype != torch.bool and dtype not in cv.WIDE_UNSIGNED


def _binary(fn, x1, x2):
    """``fn(a, b)`` after promotion; a Python number meeting a tensor of the result dtype stays a number.

    Keeping the number avoids building a tensor per call; torch keeps the tensor's dtype exactly when the
    tensor already has the result dtype, which is the only case the shortcut takes.
    """
    t1, t2 = isinstance(x1, torch.Tensor), isinstance(x2, torch.Tensor)
    if t1 and t2:
        if x1.dtype == x2.dtype and x1.dtype not in cv.WIDE_UNSIGNED:
            return fn(x1, x2)
    elif t1 and _is_py_number(x2) and _scalar_keeps_dtype(x1.dtype, x2):
        return fn(x1, x2)
    elif t2 and _is_py_number(x1) and _scalar_keeps_dtype(x2.dtype, x1):
        return fn(x1, x2)
    (a, b), _ = cv.promote(x1, x2)
    return cv.run(fn, [a, b])


def _compare(fn, x1, x2):
    """A comparison: two signed-integer tensors compare exactly as they are, whatever their widths (torch
    compares mixed widths by value, as the promoted comparison would; one op instead of a cast and the op)."""
    if (
        isinstance(x1, torch.Tensor)
        and isinstance(x2, torch.Tensor)
        and x1.dtype in _SIGNED_INTS
        and x2.dtype in _SIGNED_INTS
    ):
        return fn(x1, x2)
    return _binary(fn, x1, x2)


def _unary_float(fn, x):
    return fn(cv.to_float(x))


def _bool_to_int(t):
    return t.to(torch.int32) if t.dtype == torch.bool else t


def _int_division(fn, a, b):
    """Integer floor division / modulo with numpy's result 0 for a zero divisor (torch raises instead)."""
    zero = b == 0
    if bool(zero.any()):
        safe = torch.where(zero, torch.ones_like(b), b)
        return torch.where(zero, torch.zeros_like(a), fn(a, safe))
    return fn(a, b)


class TorchMathMixin:
    """Contract elementwise ops (unary and binary) on torch."""

    # ------------------------------------------------------- elementwise, unary
    def negative(self, x):
        t = cv.convert(x)
        if t.dtype == torch.bool:
            raise TypeError("negative() of a bool tensor is not supported; use logical_not instead.")
        return cv.run(torch.neg, [t])

    def abs(self, x):
        t = cv.convert(x)
        if t.dtype == torch.bool or t.dtype in (torch.uint8,) or t.dtype in cv.WIDE_UNSIGNED:
            return t
        return torch.abs(t)

    def sign(self, x):
        t = cv.convert(x)
        if t.dtype == torch.bool:
            return t
        if t.dtype == torch.uint8 or t.dtype in cv.WIDE_UNSIGNED:
            return (t != 0).to(t.dtype)
        return torch.sign(t)

    def sqrt(self, x):
        return _unary_float(torch.sqrt, x)

    def square(self, x):
        t = _bool_to_int(cv.convert(x))
        return cv.run(torch.square, [t])

    def exp(self, x):
        return _unary_float(torch.exp, x)

    def expm1(self, x):
        return _unary_float(torch.expm1, x)

    def log(self, x):
        return _unary_float(torch.log, x)

    def log1p(self, x):
        return _unary_float(torch.log1p, x)

    def log2(self, x):
        return _unary_float(torch.log2, x)

    def log10(self, x):
        return _unary_float(torch.log10, x)

    def sin(self, x):
        return _unary_float(torch.sin, x)

    def cos(self, x):
        return _unary_float(torch.cos, x)

    def tan(self, x):
        return _unary_float(torch.tan, x)

    def arcsin(self, x):
        return _unary_float(torch.asin, x)

    def arccos(self, x):
        return _unary_float(torch.acos, x)

    def arctan(self, x):
        return _unary_float(torch.atan, x)

    def sinh(self, x):
        return _unary_float(torch.sinh, x)

    def cosh(self, x):
        return _unary_float(torch.cosh, x)

    def tanh(self, x):
        return _unary_float(torch.tanh, x)

    def arcsinh(self, x):
        return _unary_float(torch.asinh, x)

    def arccosh(self, x):
        return _unary_float(torch.acosh, x)

    def arctanh(self, x):
        return _unary_float(torch.atanh, x)

    def floor(self, x):
        return _unary_float(torch.floor, x)

    def ceil(self, x):
        return _unary_float(torch.ceil, x)

    def reciprocal(self, x):
        return _unary_float(torch.reciprocal, x)

    def rsqrt(self, x):
        return _unary_float(torch.rsqrt, x)

    def erf(self, x):
        return _unary_float(torch.erf, x)

    def isnan(self, x):
        t = cv.convert(x)
        return torch.isnan(t) if cv.is_float(t) else torch.zeros(t.shape, dtype=torch.bool, device=t.device)

    def isinf(self, x):
        t = cv.convert(x)
        return torch.isinf(t) if cv.is_float(t) else torch.zeros(t.shape, dtype=torch.bool, device=t.device)

    def isfinite(self, x):
        t = cv.convert(x)
        return torch.isfinite(t) if cv.is_float(t) else torch.ones(t.shape, dtype=torch.bool, device=t.device)

    def logical_not(self, x):
        return torch.logical_not(cv.convert(x).to(torch.bool))

    def round(self, x, decimals=0):
        t = cv.convert(x)
        decimals = int(decimals)
        if cv.is_float(t):
            return torch.round(t, decimals=decimals) if decimals else torch.round(t)
        if t.dtype == torch.bool or decimals >= 0:
            return t
        # negative decimals on integers: numpy rounds half to even at that power of ten, exactly
        return torch.round(t.to(torch.float64), decimals=decimals).to(t.dtype)

    def clip(self, x, x_min, x_max):
        t = _bool_to_int(cv.convert(x))
        parts = [t] + [b for b in (x_min, x_max) if b is not None]
        tensors, _ = cv.promote(*parts)
        t = tensors[0]
        lo = tensors[1] if x_min is not None else None
        hi = tensors[-1] if x_max is not None else None
        if t.dtype in cv.WIDE_UNSIGNED:
            out = torch.clamp(
                t.to(torch.int64),
                None if lo is None else lo.to(torch.int64),
                None if hi is None else hi.to(torch.int64),
            )
            return out.to(t.dtype)
        # torch.clamp's gradient is 1 on [min, max] inclusive and 0 outside, as JAX's clip
        return torch.clamp(t, lo, hi)

    def nan_to_num(self, x, nan=0.0, posinf=None, neginf=None):
        t = cv.convert(x)
        if not cv.is_float(t):
            return t
        return torch.nan_to_num(t, nan=nan, posinf=posinf, neginf=neginf)

    # ------------------------------------------------------ elementwise, binary
    def add(self, x1, x2):
        return _binary(operator.add, x1, x2)

    def subtract(self, x1, x2):
        return _binary(operator.sub, x1, x2)

    def multiply(self, x1, x2):
        return _binary(operator.mul, x1, x2)

    def divide(self, x1, x2):
        if isinstance(x1, torch.Tensor) and cv.is_float(x1) and _is_py_number(x2):
            return x1 / x2
        (a, b), _ = cv.promote_float(x1, x2)
        return torch.div(a, b)

    def floor_divide(self, x1, x2):
        (a, b), _ = cv.promote(x1, x2)
        if a.dtype == torch.bool:
            a, b = a.to(torch.int32), b.to(torch.int32)
        if cv.is_float(a):
            return torch.floor_divide(a, b)
        return cv.run(lambda p, q: _int_division(torch.floor_divide, p, q), [a, b])

    def mod(self, x1, x2):
        (a, b), _ = cv.promote(x1, x2)
        if a.dtype == torch.bool:
            a, b = a.to(torch.int32), b.to(torch.int32)
        if cv.is_float(a):
            return torch.remainder(a, b)
        return cv.run(lambda p, q: _int_division(torch.remainder, p, q), [a, b])

    def power(self, x1, x2):
        if isinstance(x1, torch.Tensor) and cv.is_float(x1) and _is_py_number(x2):
            return torch.pow(x1, x2)
        (a, b), _ = cv.promote(x1, x2)
        if a.dtype == torch.bool:
            a, b = a.to(torch.int32), b.to(torch.int32)
        if a.dtype in _SIGNED_INTS and bool((b < 0).any()):
            raise ValueError("Integers to negative integer powers are not allowed; cast to a float dtype first.")
        return cv.run(torch.pow, [a, b])

    def arctan2(self, x1, x2):
        (a, b), _ = cv.promote_float(x1, x2)
        return torch.atan2(a, b)

    def maximum(self, x1, x2):
        # torch.maximum propagates NaN and splits the gradient 0.5/0.5 on ties, as JAX
        (a, b), _ = cv.promote(x1, x2)
        return cv.run(torch.maximum, [a, b])

    def minimum(self, x1, x2):
        (a, b), _ = cv.promote(x1, x2)
        return cv.run(torch.minimum, [a, b])

    def logaddexp(self, x1, x2):
        (a, b), _ = cv.promote_float(x1, x2)
        return torch.logaddexp(a, b)

    def equal(self, x1, x2):
        return _compare(operator.eq, x1, x2)

    def not_equal(self, x1, x2):
        return _compare(operator.ne, x1, x2)

    def less(self, x1, x2):
        return _compare(operator.lt, x1, x2)

    def less_equal(self, x1, x2):
        return _compare(operator.le, x1, x2)

    def greater(self, x1, x2):
        return _compare(operator.gt, x1, x2)

    def greater_equal(self, x1, x2):
        return _compare(operator.ge, x1, x2)

    def logical_and(self, x1, x2):
        (a, b), _ = cv.promote(x1, x2)
        return torch.logical_and(a.to(torch.bool), b.to(torch.bool))

    def logical_or(self, x1, x2):
        (a, b), _ = cv.promote(x1, x2)
        return torch.logical_or(a.to(torch.bool), b.to(torch.bool))

    def logical_xor(self, x1, x2):
        (a, b), _ = cv.promote(x1, x2)
        return torch.logical_xor(a.to(torch.bool), b.to(torch.bool))

    def where(self, condition, x1=None, x2=None):
        cond = cv.convert(condition).to(torch.bool)
        if x1 is None and x2 is None:
            return tuple(i.to(torch.int32) for i in torch.nonzero(cond, as_tuple=True))
        if x1 is None or x2 is None:
            raise ValueError("where() needs both x1 and x2, or neither (to return the indices of true entries).")
        (a, b), _ = cv.promote(x1, x2)
        if a.dtype in cv.WIDE_UNSIGNED:
            return torch.where(cond, a.to(torch.int64), b.to(torch.int64)).to(a.dtype)
        return torch.where(cond.to(a.device), a, b)
