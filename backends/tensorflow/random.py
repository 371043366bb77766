"""The random samplers of the TensorFlow engine that the contract cannot compose: gamma, binomial and
categorical, on TensorFlow's stateless random ops (deterministic in the seed, also inside a ``tf.function``)."""

import tensorflow as tf

from highlevel.backends.contract.random import draw_dtype

from .convert import convert, dtype_name, tf_dtype
from .core import _seed_tensor


class TensorFlowRandomOps:
    """Contract random samplers on ``tf.random.stateless_*``."""

    def random_gamma(self, shape, alpha, dtype, seed=None):
        work = tf_dtype(draw_dtype(dtype))
        alpha = tf.broadcast_to(tf.cast(convert(alpha), work), shape)
        out = tf.random.stateless_gamma(shape, _seed_tensor(seed), alpha=alpha, dtype=work)
        return tf.cast(out, tf_dtype(dtype))

    def random_binomial(self, shape, counts, probabilities, dtype, seed=None):
        work = tf_dtype(draw_dtype(dtype))
        n = tf.broadcast_to(tf.cast(convert(counts), work), shape)
        p = tf.broadcast_to(tf.cast(convert(probabilities), work), shape)
        out = tf.random.stateless_binomial(shape, _seed_tensor(seed), n, p, output_dtype=work)
        return tf.cast(out, tf_dtype(dtype))

    def random_categorical(self, logits, num_samples, dtype="int32", seed=None):
        logits = convert(logits)
        logits = tf.cast(logits, tf_dtype(draw_dtype(dtype_name(logits))))
        out = tf.random.stateless_categorical(logits, num_samples, _seed_tensor(seed), dtype=tf.int64)
        return tf.cast(out, tf_dtype(dtype))
