"""Elementwise math, comparisons and linear algebra of the TensorFlow backend.

Operands go through :func:`~.convert.promote` (the contract's table), because TensorFlow refuses mixed
dtypes. Where TensorFlow's gradient or NaN convention differs from JAX's (the contract's reference),
the op is written out: ``maximum``/``minimum`` split the gradient 0.5/0.5 at ties and propagate NaN.
"""

import math

import numpy as np
import tensorflow as tf

from .convert import convert, promote, promote_float, to_float
from .einsum_order import transpose_free_order

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)


def _unsigned(x):
    return x.dtype.is_unsigned


def max_impl(a, b):
    """Elementwise max of two same-dtype tensors: NaN propagates, a tie sends half the gradient each way."""
    if a.dtype == tf.bool:
        return tf.logical_or(a, b)
    if not a.dtype.is_floating:
        return tf.maximum(a, b)
    half = tf.constant(0.5, a.dtype)
    # Neither comparison holds at a tie or a NaN: the mean is then the value and splits the gradient.
    return tf.where(a > b, a, tf.where(a < b, b, a * half + b * half))


def min_impl(a, b):
    """Elementwise min of two same-dtype tensors, with :func:`max_impl`'s conventions."""
    if a.dtype == tf.bool:
        return tf.logical_and(a, b)
    if not a.dtype.is_floating:
        return tf.minimum(a, b)
    half = tf.constant(0.5, a.dtype)
    return tf.where(a < b, a, tf.where(a > b, b, a * half + b * half))


class MathOps:
    """Unary and binary elementwise ops, comparisons, logic and linear algebra."""

    # ------------------------------------------------------- elementwise, unary
    def negative(self, x):
        x = convert(x)
        if x.dtype == tf.bool:
            raise TypeError("negative() is not defined for bool tensors; use logical_not().")
        return tf.negative(x)

    def abs(self, x):
        x = convert(x)
        if x.dtype == tf.bool or _unsigned(x):
            return x
        return tf.abs(x)

    def sign(self, x):
        x = convert(x)
        if x.dtype == tf.bool:
            return x
        if _unsigned(x):
            return tf.cast(x > 0, x.dtype)
        return tf.sign(x)

    def sqrt(self, x):
        return tf.sqrt(to_float(x))

    def square(self, x):
        x = convert(x)
        if x.dtype == tf.bool:
            x = tf.cast(x, tf.int32)
        return tf.square(x) if not _unsigned(x) else x * x

    def exp(self, x):
        return tf.exp(to_float(x))

    def expm1(self, x):
        return tf.math.expm1(to_float(x))

    def log(self, x):
        return tf.math.log(to_float(x))

    def log1p(self, x):
        return tf.math.log1p(to_float(x))

    def log2(self, x):
        x = to_float(x)
        return tf.math.log(x) / tf.constant(_LN2, x.dtype)

    def log10(self, x):
        x = to_float(x)
        return tf.math.log(x) / tf.constant(_LN10, x.dtype)

    def sin(self, x):
        return tf.sin(to_float(x))

    def cos(self, x):
        return tf.cos(to_float(x))

    def tan(self, x):
        return tf.tan(to_float(x))

    def arcsin(self, x):
        return tf.asin(to_float(x))

    def arccos(self, x):
        return tf.acos(to_float(x))

    def arctan(self, x):
        return tf.atan(to_float(x))

    def sinh(self, x):
        return tf.sinh(to_float(x))

    def cosh(self, x):
        return tf.cosh(to_float(x))

    def tanh(self, x):
        return tf.tanh(to_float(x))

    def arcsinh(self, x):
        return tf.asinh(to_float(x))

    def arccosh(self, x):
        return tf.acosh(to_float(x))

    def arctanh(self, x):
        return tf.atanh(to_float(x))

    def floor(self, x):
        return tf.floor(to_float(x))

    def ceil(self, x):
        return tf.math.ceil(to_float(x))

    def reciprocal(self, x):
        return tf.math.reciprocal(to_float(x))

    def rsqrt(self, x):
        return tf.math.rsqrt(to_float(x))

    def erf(self, x):
        return tf.math.erf(to_float(x))

    def isnan(self, x):
        x = convert(x)
        return tf.math.is_nan(x) if x.dtype.is_floating else tf.zeros_like(x, dtype=tf.bool)

    def isinf(self, x):
        x = convert(x)
        return tf.math.is_inf(x) if x.dtype.is_floating else tf.zeros_like(x, dtype=tf.bool)

    def isfinite(self, x):
        x = convert(x)
        return tf.math.is_finite(x) if x.dtype.is_floating else tf.ones_like(x, dtype=tf.bool)

    def logical_not(self, x):
        x = convert(x)
        return tf.logical_not(x if x.dtype == tf.bool else tf.not_equal(x, tf.zeros((), x.dtype)))

    def round(self, x, decimals=0):
        x = convert(x)
        decimals = int(decimals)
        if x.dtype == tf.bool:
            x = tf.cast(x, tf.int32)
        if not x.dtype.is_floating:
            if decimals >= 0:
                return x
            # Integers round to tens, hundreds, ... half to even, as numpy does.
            factor = 10 ** (-decimals)
            y = tf.round(tf.cast(x, tf.float64) / factor) * factor
            return tf.cast(y, x.dtype)
        if decimals == 0:
            return tf.round(x)
        calc = x if x.dtype in (tf.float32, tf.float64) else tf.cast(x, tf.float32)
        factor = tf.constant(10.0**decimals, calc.dtype)
        return tf.cast(tf.round(calc * factor) / factor, x.dtype)

    def clip(self, x, x_min, x_max):
        x = convert(x)
        if x.dtype == tf.bool:
            x = tf.cast(x, tf.int32)
        lo, hi = convert(x_min, x.dtype), convert(x_max, x.dtype)
        # clip_by_value's gradient is 1 on [lo, hi] inclusive and 0 outside, as JAX's.
        return tf.clip_by_value(x, lo, hi)

    def nan_to_num(self, x, nan=0.0, posinf=None, neginf=None):
        x = convert(x)
        if not x.dtype.is_floating:
            return x
        d = x.dtype
        posinf = d.max if posinf is None else posinf
        neginf = d.min if neginf is None else neginf
        x = tf.where(tf.math.is_nan(x), tf.constant(nan, d), x)
        x = tf.where(tf.math.is_inf(x) & (x > 0), tf.constant(posinf, d), x)
        return tf.where(tf.math.is_inf(x) & (x < 0), tf.constant(neginf, d), x)

    # ------------------------------------------------------ elementwise, binary
    def add(self, x1, x2):
        a, b = promote(x1, x2)
        return tf.logical_or(a, b) if a.dtype == tf.bool else tf.add(a, b)

    def subtract(self, x1, x2):
        a, b = promote(x1, x2)
        if a.dtype == tf.bool:
            raise TypeError("subtract() is not defined for bool tensors; use logical_xor().")
        return tf.subtract(a, b)

    def multiply(self, x1, x2):
        a, b = promote(x1, x2)
        return tf.logical_and(a, b) if a.dtype == tf.bool else tf.multiply(a, b)

    def divide(self, x1, x2):
        a, b = promote_float(x1, x2)
        return tf.divide(a, b)

    def floor_divide(self, x1, x2):
        a, b = promote(x1, x2)
        if a.dtype == tf.bool:
            a, b = tf.cast(a, tf.int8), tf.cast(b, tf.int8)
        return tf.math.floordiv(a, b)

    def mod(self, x1, x2):
        a, b = promote(x1, x2)
        if a.dtype == tf.bool:
            a, b = tf.cast(a, tf.int8), tf.cast(b, tf.int8)
        return tf.math.floormod(a, b)

    def power(self, x1, x2):
        a, b = promote(x1, x2)
        if a.dtype == tf.bool:
            a, b = tf.cast(a, tf.int32), tf.cast(b, tf.int32)
        return tf.pow(a, b)

    def arctan2(self, x1, x2):
        a, b = promote_float(x1, x2)
        return tf.atan2(a, b)

    def maximum(self, x1, x2):
        return max_impl(*promote(x1, x2))

    def minimum(self, x1, x2):
        return min_impl(*promote(x1, x2))

    def logaddexp(self, x1, x2):
        a, b = promote_float(x1, x2)
        m = max_impl(a, b)
        d = a - b
        # Both -inf (or both +inf): a - b is NaN, but the answer is m itself.
        same_inf = tf.math.is_inf(m) & tf.equal(a, b)
        d = tf.where(same_inf, tf.zeros_like(d), d)
        out = m + tf.math.log1p(tf.exp(-tf.abs(d)))
        return tf.where(same_inf, m, out)

    def _compare(self, op, x1, x2):
        a, b = promote(x1, x2)
        if a.dtype == tf.bool and op not in (tf.equal, tf.not_equal):
            a, b = tf.cast(a, tf.int8), tf.cast(b, tf.int8)
        return op(a, b)

    def equal(self, x1, x2):
        return self._compare(tf.equal, x1, x2)

    def not_equal(self, x1, x2):
        return self._compare(tf.not_equal, x1, x2)

    def less(self, x1, x2):
        return self._compare(tf.less, x1, x2)

    def less_equal(self, x1, x2):
        return self._compare(tf.less_equal, x1, x2)

    def greater(self, x1, x2):
        return self._compare(tf.greater, x1, x2)

    def greater_equal(self, x1, x2):
        return self._compare(tf.greater_equal, x1, x2)

    def _as_bool(self, x):
        x = convert(x)
        return x if x.dtype == tf.bool else tf.not_equal(x, tf.zeros((), x.dtype))

    def logical_and(self, x1, x2):
        return tf.logical_and(self._as_bool(x1), self._as_bool(x2))

    def logical_or(self, x1, x2):
        return tf.logical_or(self._as_bool(x1), self._as_bool(x2))

    def logical_xor(self, x1, x2):
        return tf.math.logical_xor(self._as_bool(x1), self._as_bool(x2))

    # ------------------------------------------------------------ linear algebra
    @staticmethod
    def _int_compute(xs):
        """TF's matmul/einsum lack small and unsigned int kernels: the dtype to compute in, and to return."""
        d = xs[0].dtype
        if d.is_floating or d in (tf.int32, tf.int64):
            return None, None
        if d == tf.bool:
            return tf.int32, tf.bool
        return (tf.int64 if d in (tf.uint32, tf.uint64) else tf.int32), d

    def int8_matmul(self, x, kernel):
        # TensorFlow's CPU kernels multiply integer matrices in a slow loop; a float product is exact here: each
        # partial sum of int8 products is an integer below 128 * 128 * k, which float32 holds exactly up to
        # k = 1024 (float64 far beyond any layer), so the rounded float result is the int32 product bit for bit
        x, kernel = convert(x), convert(kernel)
        if x.dtype != tf.int8 or kernel.dtype != tf.int8:
            return self.matmul(tf.cast(x, tf.int32), tf.cast(kernel, tf.int32))
        k = kernel.shape[0]
        exact = tf.float32 if k is not None and k <= 1024 else tf.float64
        out = tf.linalg.matmul(tf.cast(x, exact), tf.cast(kernel, exact)) if x.shape.rank == 2 else None
        if out is None:
            out = tf.tensordot(tf.cast(x, exact), tf.cast(kernel, exact), axes=[[x.shape.rank - 1], [0]])
        return tf.cast(tf.round(out), tf.int32)

    def matmul(self, x1, x2):
        a, b = promote(x1, x2)
        calc, back = self._int_compute((a, b))
        if calc is not None:
            a, b = tf.cast(a, calc), tf.cast(b, calc)
        if a.shape.rank == 0 or b.shape.rank == 0:
            raise ValueError(f"matmul needs operands of rank >= 1; received shapes {a.shape} and {b.shape}.")
        if a.shape.rank == 1 and b.shape.rank == 1:
            out = tf.reduce_sum(a * b)
        elif a.shape.rank == 1:
            out = tf.squeeze(tf.linalg.matmul(a[None, :], b), axis=-2)
        elif b.shape.rank == 1:
            out = tf.squeeze(tf.linalg.matmul(a, b[:, None]), axis=-1)
        else:
            out = tf.linalg.matmul(a, b)
        if back is tf.bool:
            return tf.not_equal(out, 0)
        return out if back is None else tf.cast(out, back)

    def einsum(self, subscripts, *operands):
        ops = promote(*operands) if len(operands) > 1 else (convert(operands[0]),)
        calc, back = self._int_compute(ops)
        if calc is not None:
            ops = tuple(tf.cast(o, calc) for o in ops)
        if len(ops) == 2:
            subscripts, swapped = transpose_free_order(subscripts)
            if swapped:
                ops = ops[::-1]
        out = tf.einsum(subscripts, *ops)
        if back is tf.bool:
            return tf.not_equal(out, 0)
        return out if back is None else tf.cast(out, back)

    def tensordot(self, x1, x2, axes=2):
        a, b = promote(x1, x2)
        calc, back = self._int_compute((a, b))
        if calc is not None:
            a, b = tf.cast(a, calc), tf.cast(b, calc)
        if not isinstance(axes, (int, np.integer)):
            ax1, ax2 = axes
            ax1 = [ax1] if isinstance(ax1, (int, np.integer)) else list(ax1)
            ax2 = [ax2] if isinstance(ax2, (int, np.integer)) else list(ax2)
            ax1 = [int(i) % a.shape.rank for i in ax1]
            ax2 = [int(i) % b.shape.rank for i in ax2]
            axes = [ax1, ax2]
        out = tf.tensordot(a, b, axes)
        if back is tf.bool:
            return tf.not_equal(out, 0)
        return out if back is None else tf.cast(out, back)

    def outer(self, x1, x2):
        a, b = promote(x1, x2)
        a, b = tf.reshape(a, [-1]), tf.reshape(b, [-1])
        if a.dtype == tf.bool:
            return tf.logical_and(a[:, None], b[None, :])
        return a[:, None] * b[None, :]
