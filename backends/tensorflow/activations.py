"""Activations, softmax and log-softmax of the TensorFlow backend.

Gradients at the kinks follow JAX (the contract's reference): relu and relu6 have gradient 0 at 0,
leaky_relu gradient 1 at 0 (``x >= 0`` takes the identity branch), elu/selu use ``x > 0``.
"""

import math

import tensorflow as tf

from highlevel.backends.contract.axes import canonical_axes

from .convert import convert, to_float

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _keep_int(x):
    """Signed integer tensors as they are (relu keeps their dtype), anything else as float."""
    x = convert(x)
    return x if x.dtype in (tf.int8, tf.int16, tf.int32, tf.int64) else to_float(x)


def _elu(x, alpha):
    # expm1 of min(x, 0): the unused branch must stay finite or its zero gradient would turn into NaN.
    neg = tf.constant(alpha, x.dtype) * tf.math.expm1(tf.minimum(x, tf.zeros((), x.dtype)))
    return tf.where(x > 0, x, neg)


class ActivationOps:
    """relu, sigmoid, softplus, gelu, softmax and friends."""

    def relu(self, x):
        # tf.nn.relu passes NaN through and its gradient at 0 is 0; integer inputs keep their dtype.
        return tf.nn.relu(_keep_int(x))

    def relu6(self, x):
        return tf.nn.relu6(_keep_int(x))

    def sigmoid(self, x):
        return tf.sigmoid(to_float(x))

    def softplus(self, x):
        return tf.nn.softplus(to_float(x))

    def softsign(self, x):
        # the formula rather than tf.nn.softsign, whose gradient (SoftsignGrad) has no gradient of its own
        x = to_float(x)
        return x / (1.0 + tf.abs(x))

    def silu(self, x):
        return tf.nn.silu(to_float(x))

    def gelu(self, x, approximate=True):
        x = to_float(x)
        half = x.dtype in (tf.float16, tf.bfloat16)
        xc = tf.cast(x, tf.float32) if half else x
        # Constants are built in the input's dtype: tf.nn.gelu rounds them through float32, which costs
        # float64 results about 1e-8 of relative accuracy.
        c = lambda v: tf.constant(v, xc.dtype)  # noqa: E731
        if approximate:
            inner = c(math.sqrt(2.0 / math.pi)) * (xc + c(0.044715) * xc * xc * xc)
            y = c(0.5) * xc * (c(1.0) + tf.tanh(inner))
        else:
            # erfc(-x / sqrt(2)) keeps full relative accuracy for negative x, where 1 + erf(...) cancels.
            y = c(0.5) * xc * tf.math.erfc(-xc * c(1.0 / math.sqrt(2.0)))
        return tf.cast(y, x.dtype) if half else y

    def elu(self, x, alpha=1.0):
        return _elu(to_float(x), alpha)

    def selu(self, x):
        x = to_float(x)
        return tf.constant(_SELU_SCALE, x.dtype) * _elu(x, _SELU_ALPHA)

    def leaky_relu(self, x, negative_slope=0.2):
        x = to_float(x)
        return tf.where(x >= 0, x, x * tf.constant(negative_slope, x.dtype))

    def hard_sigmoid(self, x):
        # Keras 3: relu6(x + 3) / 6, i.e. clip(x / 6 + 0.5, 0, 1).
        x = to_float(x)
        return tf.nn.relu6(x + tf.constant(3.0, x.dtype)) / tf.constant(6.0, x.dtype)

    def softmax(self, x, axis=-1):
        x = to_float(x)
        if isinstance(axis, int):
            return tf.nn.softmax(x, axis=axis)
        axes = canonical_axes(axis, x.shape.rank)
        return tf.exp(x - tf.math.reduce_logsumexp(x, axis=axes, keepdims=True))

    def log_softmax(self, x, axis=-1):
        x = to_float(x)
        if isinstance(axis, int):
            return tf.nn.log_softmax(x, axis=axis)
        axes = canonical_axes(axis, x.shape.rank)
        return x - tf.math.reduce_logsumexp(x, axis=axes, keepdims=True)
