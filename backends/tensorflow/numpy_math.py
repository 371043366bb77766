"""The TensorFlow engine's primitives of the elementwise/bitwise math family (``contract/numpy_math.py``).

``tf.bitwise`` has no bool kernels (bools use the logical ops) and leaves shifts by counts outside ``[0, bits)``
undefined (they are mapped to the contract's results here). ``tf.bitcast`` changes the item size through a
trailing axis, which ``view`` folds into the last one as numpy does. ``erfinv`` refines TensorFlow's kernel, which
loses digits near +-1 and near 0.

>>> from highlevel.backends.tensorflow import TensorFlowBackend
>>> b = TensorFlowBackend()
>>> b.to_numpy(b.bitwise_and(b.convert_to_tensor([True, True]), b.convert_to_tensor([False, True]))).tolist()
[False, True]
"""

import math

import tensorflow as tf

from .convert import convert, promote, tf_dtype, to_float

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _bitwise(bit_op, logical_op, x, y):
    a, b = promote(x, y)
    return logical_op(a, b) if a.dtype == tf.bool else bit_op(a, b)


def _shift(shift_op, x, y, outside):
    a, b = promote(x, y)
    bits = a.dtype.size * 8
    inside = tf.logical_and(b >= tf.zeros((), b.dtype), b < tf.constant(bits, b.dtype))
    shifted = shift_op(a, tf.where(inside, b, tf.zeros_like(b)))
    return tf.where(inside, shifted, outside(a))


class NumpyMathOps:
    """Bitwise ops, shifts, ``view``, ``erfc`` and ``erfinv`` with tf."""

    def bitwise_and(self, x, y):
        return _bitwise(tf.bitwise.bitwise_and, tf.logical_and, x, y)

    def bitwise_or(self, x, y):
        return _bitwise(tf.bitwise.bitwise_or, tf.logical_or, x, y)

    def bitwise_xor(self, x, y):
        return _bitwise(tf.bitwise.bitwise_xor, tf.math.logical_xor, x, y)

    def bitwise_invert(self, x):
        x = convert(x)
        return tf.logical_not(x) if x.dtype == tf.bool else tf.bitwise.invert(x)

    def bitwise_left_shift(self, x, y):
        return _shift(tf.bitwise.left_shift, x, y, tf.zeros_like)

    def bitwise_right_shift(self, x, y):
        # all bits set is -1 in a signed dtype (the only kind that can be negative)
        return _shift(
            tf.bitwise.right_shift,
            x,
            y,
            lambda a: tf.where(a < tf.zeros((), a.dtype), tf.bitwise.invert(tf.zeros_like(a)), tf.zeros_like(a)),
        )

    def view(self, x, dtype):
        x = tf.stop_gradient(convert(x))
        if x.dtype == tf.bool:
            x = tf.cast(x, tf.uint8)
        target = tf_dtype("uint8" if dtype == "bool" else dtype)
        old, new = x.dtype.size, target.size
        if old == new:
            out = tf.bitcast(x, target)
        elif old > new:  # bitcast adds a trailing axis of old // new entries: merge it into the last one
            out = tf.bitcast(x, target)
            out = tf.reshape(out, tf.concat([tf.shape(x)[:-1], [-1]], 0))
        else:  # bitcast takes a trailing axis of new // old entries: split the last one into it
            out = tf.bitcast(tf.reshape(x, tf.concat([tf.shape(x)[:-1], [-1, new // old]], 0)), target)
        return tf.not_equal(out, tf.zeros((), out.dtype)) if dtype == "bool" else out

    def erfc(self, x):
        x = to_float(x)
        if x.dtype in (tf.float16, tf.bfloat16):
            return tf.cast(tf.math.erfc(tf.cast(x, tf.float32)), x.dtype)
        return tf.math.erfc(x)

    def erfinv(self, x):
        # TensorFlow's erfinv loses digits in float32 near +-1 and in float64 (1e-300 gives 0, 1 - 1e-12 is off by
        # 2e-6): its float64 value is refined by two Halley steps on erf(y) = |x| (the residual of |x| > 0.5 taken
        # as erfc(y) - (1 - |x|), whose 1 - |x| is exact), then rounded to the input's dtype. The gradient stays
        # TensorFlow's (sqrt(pi)/2 exp(y**2) at its value, as accurate as a gradient needs).
        x = to_float(x)
        x64 = tf.cast(x, tf.float64)
        guess = tf.math.erfinv(x64)
        t, y = tf.abs(x64), tf.stop_gradient(tf.abs(guess))
        finite = tf.math.is_finite(y)
        y = tf.where(finite, y, tf.zeros_like(y))
        for _ in range(2):
            f = tf.where(t > 0.5, (1.0 - t) - tf.math.erfc(y), tf.math.erf(y) - t)
            slope = _TWO_OVER_SQRT_PI * tf.exp(-y * y)
            y = y - f / (slope + y * f)
        correction = tf.where(finite, tf.stop_gradient(tf.sign(x64) * y - guess), tf.zeros_like(guess))
        return tf.cast(guess + correction, x.dtype)
