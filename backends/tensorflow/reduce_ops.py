"""Reductions, arg-reductions and cumulative ops of the TensorFlow backend.

Result dtypes follow the conformance suite's rule: ``sum``, ``prod`` and ``cumsum``/``cumprod`` of bool give
int32 and keep every other dtype (int8 sums stay int8, as numpy's ``dtype=x.dtype``); ``mean``/``var``/``std``
of integers give floatx; float16 and bfloat16 accumulate in float32.
"""

import tensorflow as tf

from highlevel.backends.contract.axes import canonical_axes, canonical_axis

from .convert import convert, to_float

_WIDEN = {tf.bool: tf.int32}


def _accumulate(x):
    """float16/bfloat16 reductions accumulate in float32 (as XLA does), other dtypes as they are."""
    return tf.cast(x, tf.float32) if x.dtype in (tf.float16, tf.bfloat16) else x


def _check_nonempty(x, axes, name):
    dims = x.shape.as_list()
    reduced = range(len(dims)) if axes is None else axes
    if any(dims[a] == 0 for a in reduced):
        raise ValueError(
            f"{name}() of an empty axis has no identity; received a tensor of shape "
            f"{tuple(dims)} reduced over axis={None if axes is None else tuple(axes)}."
        )


def _flatten_for_arg(x, axis, keepdims):
    """``(x, axis)`` for an arg-reduction: axis None flattens."""
    if axis is None:
        return tf.reshape(x, [-1]), 0
    return x, canonical_axis(axis, x.shape.rank)


class ReduceOps:
    """sum, mean, max, min, prod, var, std, any, all, logsumexp, argmax/argmin, cumsum/cumprod."""

    def sum(self, x, axis=None, keepdims=False):
        x = convert(x)
        if x.dtype in _WIDEN:
            x = tf.cast(x, _WIDEN[x.dtype])
        return tf.reduce_sum(x, axis=canonical_axes(axis, x.shape.rank), keepdims=keepdims)

    def prod(self, x, axis=None, keepdims=False, dtype=None):
        x = convert(x, dtype)
        if x.dtype in _WIDEN:
            x = tf.cast(x, _WIDEN[x.dtype])
        return tf.reduce_prod(x, axis=canonical_axes(axis, x.shape.rank), keepdims=keepdims)

    def mean(self, x, axis=None, keepdims=False):
        x = to_float(x)
        out = tf.reduce_mean(_accumulate(x), axis=canonical_axes(axis, x.shape.rank), keepdims=keepdims)
        return tf.cast(out, x.dtype)

    def var(self, x, axis=None, keepdims=False):
        x = to_float(x)
        out = tf.math.reduce_variance(_accumulate(x), axis=canonical_axes(axis, x.shape.rank), keepdims=keepdims)
        return tf.cast(out, x.dtype)

    def std(self, x, axis=None, keepdims=False):
        x = to_float(x)
        out = tf.math.reduce_std(_accumulate(x), axis=canonical_axes(axis, x.shape.rank), keepdims=keepdims)
        return tf.cast(out, x.dtype)

    def max(self, x, axis=None, keepdims=False, initial=None):
        if initial is not None:
            return self._reduce_with_initial("max", x, axis, keepdims, initial)
        x = convert(x)
        axes = canonical_axes(axis, x.shape.rank)
        _check_nonempty(x, axes, "max")
        if x.dtype == tf.bool:
            return tf.reduce_any(x, axis=axes, keepdims=keepdims)
        # reduce_max propagates NaN; its gradient splits equally among tied maxima (JAX's rule).
        return tf.reduce_max(x, axis=axes, keepdims=keepdims)

    def min(self, x, axis=None, keepdims=False, initial=None):
        if initial is not None:
            return self._reduce_with_initial("min", x, axis, keepdims, initial)
        x = convert(x)
        axes = canonical_axes(axis, x.shape.rank)
        _check_nonempty(x, axes, "min")
        if x.dtype == tf.bool:
            return tf.reduce_all(x, axis=axes, keepdims=keepdims)
        return tf.reduce_min(x, axis=axes, keepdims=keepdims)

    def _bool(self, x):
        x = convert(x)
        return x if x.dtype == tf.bool else tf.not_equal(x, tf.zeros((), x.dtype))

    def any(self, x, axis=None, keepdims=False):
        x = self._bool(x)
        return tf.reduce_any(x, axis=canonical_axes(axis, x.shape.rank), keepdims=keepdims)

    def all(self, x, axis=None, keepdims=False):
        x = self._bool(x)
        return tf.reduce_all(x, axis=canonical_axes(axis, x.shape.rank), keepdims=keepdims)

    def logsumexp(self, x, axis=None, keepdims=False):
        x = to_float(x)
        axes = canonical_axes(axis, x.shape.rank)
        xa = _accumulate(x)
        # reduce_logsumexp subtracts the (stop-gradient) max, so +-1e4 stay finite; an all -inf slice is -inf.
        out = tf.math.reduce_logsumexp(xa, axis=axes, keepdims=keepdims)
        return tf.cast(out, x.dtype)

    def _arg(self, x, axis, keepdims, tf_op, name):
        x = convert(x)
        rank = x.shape.rank
        flat, ax = _flatten_for_arg(x, axis, keepdims)
        if flat.shape.as_list()[ax] == 0:
            raise ValueError(f"{name}() of an empty sequence; received a tensor of shape {tuple(x.shape.as_list())}.")
        if flat.dtype == tf.bool:
            flat = tf.cast(flat, tf.int8)
        elif flat.dtype in (tf.uint16, tf.uint32, tf.uint64):
            flat = tf.cast(flat, tf.int64) if flat.dtype != tf.uint64 else tf.cast(flat, tf.float64)
        out = tf_op(flat, axis=ax, output_type=tf.int32)
        if flat.dtype.is_floating:
            # numpy returns the first NaN; TensorFlow skips NaN.
            nan = tf.math.is_nan(flat)
            first_nan = tf.argmax(tf.cast(nan, tf.int8), axis=ax, output_type=tf.int32)
            out = tf.where(tf.reduce_any(nan, axis=ax), first_nan, out)
        if keepdims:
            if axis is None:
                out = tf.reshape(out, [1] * rank)
            else:
                out = tf.expand_dims(out, ax)
        return out

    def argmax(self, x, axis=None, keepdims=False):
        return self._arg(x, axis, keepdims, tf.argmax, "argmax")

    def argmin(self, x, axis=None, keepdims=False):
        return self._arg(x, axis, keepdims, tf.argmin, "argmin")

    def _cum(self, x, axis, dtype, op):
        x = convert(x, dtype)
        if x.dtype == tf.bool:
            x = tf.cast(x, tf.int32)
        if axis is None:
            x, axis = tf.reshape(x, [-1]), 0
        return op(x, axis=canonical_axis(axis, x.shape.rank))

    def cumsum(self, x, axis=None, dtype=None):
        return self._cum(x, axis, dtype, tf.math.cumsum)

    def cumprod(self, x, axis=None, dtype=None):
        return self._cum(x, axis, dtype, tf.math.cumprod)

    def moments(self, x, axes, keepdims=False):
        x = to_float(x)
        axes = canonical_axes(axes, x.shape.rank)
        xa = _accumulate(x)
        mean = tf.reduce_mean(xa, axis=axes, keepdims=True)
        # Two-pass variance: stable where E[x^2] - E[x]^2 would cancel. The mean is not cut from the graph (its
        # first-order contribution is zero, but the variance's second derivative needs it).
        variance = tf.reduce_mean(tf.square(xa - mean), axis=axes, keepdims=True)
        if not keepdims:
            mean = tf.squeeze(mean, axes)
            variance = tf.squeeze(variance, axes)
        return tf.cast(mean, x.dtype), tf.cast(variance, x.dtype)
