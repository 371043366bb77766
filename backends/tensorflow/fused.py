"""The TensorFlow engine's fused forms of the contract's composite ops (``backends/contract/fused.py``).

``dense`` on inputs of rank 3 or more (a sequence model's feed-forward layers) runs as one two-dimensional
matrix product over the flattened leading axes, as a hand-written model reshapes it. ``tf.linalg.matmul`` of
a ``(batch, T, in)`` tensor by an ``(in, units)`` kernel is otherwise a broadcast batched product, whose
kernel gradient is ``batch`` separate products and then a sum over the batch (about a third more time than
one product of the flattened inputs on a Transformer's feed-forward block, forward and backward). The bias is
a ``BiasAdd`` on the flat product, whose gradient is one reduction over rows.

``batch_normalization`` of a channels-last float32 image batch (a BatchNormalization layer in inference mode, after a
convolution) is TensorFlow's ``FusedBatchNormV3`` kernel in inference form. Grappler then folds it, and a
following ReLU/ReLU6, into the convolution before it (one ``_FusedConv2D`` instead of a convolution, a multiply, an
add and the activation as separate passes over the activations): about a fifth off a chain of 1x1 convolutions
with batch norm, as in MobileNetV2. The kernel's own gradient has no terms for the mean and the variance, so the op
carries its own gradient (``tf.custom_gradient``) with all five: the result stays differentiable with respect to
every input, as the contract says.

``adam_update`` updates the slots and weights in place (``assign_add`` / ``assign_sub``), as a hand-written
TensorFlow loop does, in the contract's arithmetic.

>>> import numpy as np
>>> import highlevel as hl
>>> b = hl.backends.get("tensorflow")
>>> y = b.dense(np.ones((2, 3, 4), np.float32), np.ones((4, 5), np.float32), np.ones(5, np.float32), "relu")
>>> tuple(y.shape), float(y[0, 0, 0])
((2, 3, 5), 5.0)
"""

import tensorflow as tf

from highlevel.backends.contract.fused import DENSE_ACTIVATIONS, FusedContract
from highlevel.backends.contract.variable import _scopes

from .convert import convert


class TensorFlowFusedMixin(FusedContract):
    def dense(self, inputs, kernel, bias=None, activation=None):
        x, w = convert(inputs), convert(kernel)
        b = None if bias is None else convert(bias)
        rank = x.shape.rank
        flat = (
            activation in DENSE_ACTIVATIONS
            and rank is not None
            and rank > 2
            and w.shape.rank == 2
            and x.dtype.is_floating
            and w.dtype == x.dtype
            and (b is None or (b.dtype == x.dtype and b.shape.rank == 1))
        )
        if not flat:
            return super().dense(inputs, kernel, bias, activation)
        lead = x.shape[:-1]
        lead = lead.as_list() if lead.is_fully_defined() else tf.shape(x)[:-1]
        y = tf.linalg.matmul(tf.reshape(x, [-1, tf.shape(x)[-1] if x.shape[-1] is None else x.shape[-1]]), w)
        if b is not None:
            y = tf.nn.bias_add(y, b)
        if activation not in (None, "linear"):
            y = getattr(self, activation)(y)
        units = w.shape[-1] if w.shape[-1] is not None else tf.shape(w)[-1]
        if isinstance(lead, list):
            return tf.reshape(y, lead + [units])
        return tf.reshape(y, tf.concat([lead, [units]], axis=0))

    def batch_normalization(self, x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
        x = convert(x)
        mean, variance, offset, scale = (None if v is None else convert(v) for v in (mean, variance, offset, scale))
        fusable = (
            x.shape.rank == 4
            and axis % 4 == 3
            and x.dtype == tf.float32
            and x.shape[-1] is not None
            and all(v is None or (v.dtype == tf.float32 and v.shape.rank == 1) for v in (mean, variance, offset, scale))
        )
        if not fusable:
            return super().batch_normalization(x, mean, variance, axis, offset=offset, scale=scale, epsilon=epsilon)
        channels = x.shape[-1]
        scale = tf.ones([channels], tf.float32) if scale is None else scale
        offset = tf.zeros([channels], tf.float32) if offset is None else offset
        return _inference_batch_norm(x, mean, variance, scale, offset, float(epsilon))

    def adam_update(self, variables, grads, momentums, velocities, alpha, beta_1, beta_2, epsilon, velocity_hats=None):
        # Keras's formula with in-place variable updates (m and v by AssignAddVariableOp, the weight by
        # AssignSubVariableOp): the same arithmetic as the contract's form, bit for bit, without a separate
        # sum and copy per buffer. (TensorFlow's fused ResourceApplyAdam is not used: it takes 1 - beta_2 as
        # float32(1) - float32(beta_2), 1e-5 away from Keras's constant, and its trajectory drifts from Keras's.)
        handles = [v._handle for v in (*variables, *momentums, *velocities)]
        if (
            _scopes.stack
            or velocity_hats is not None
            or tf.distribute.has_strategy()
            or not all(isinstance(h, tf.Variable) and h.dtype.is_floating for h in handles)
        ):
            return super().adam_update(
                variables, grads, momentums, velocities, alpha, beta_1, beta_2, epsilon, velocity_hats
            )
        n = len(variables)
        c1, c2 = 1.0 - float(beta_1), 1.0 - float(beta_2)
        for w, g, m, v in zip(handles[:n], grads, handles[n : 2 * n], handles[2 * n :]):
            dt = w.dtype
            g = convert(g, dt)
            m_new = m.assign_add((g - m) * tf.constant(c1, dt))
            v_new = v.assign_add((tf.square(g) - v) * tf.constant(c2, dt))
            a = tf.cast(alpha, dt) if isinstance(alpha, (tf.Tensor, tf.Variable)) else tf.constant(alpha, dt)
            w.assign_sub((m_new * a) / (tf.sqrt(v_new) + tf.constant(epsilon, dt)))


def _inference_batch_norm(x, mean, variance, scale, offset, epsilon):
    """``(x - mean) * rsqrt(variance + epsilon) * scale + offset`` over the last axis of a rank-4 float32 ``x``."""

    @tf.custom_gradient
    def normalize(x, mean, variance, scale, offset):
        y, _, _ = tf.compat.v1.nn.fused_batch_norm(
            x, scale, offset, mean=mean, variance=variance, epsilon=epsilon, is_training=False
        )

        def grad(dy):
            inv = tf.math.rsqrt(variance + epsilon)
            centred = x - mean
            d_offset = tf.reduce_sum(dy, axis=(0, 1, 2))
            d_scale = tf.reduce_sum(dy * centred, axis=(0, 1, 2)) * inv
            dx = dy * (inv * scale)
            d_mean = -tf.reduce_sum(dx, axis=(0, 1, 2))
            d_variance = d_scale * scale * (-0.5) * tf.square(inv)
            return dx, d_mean, d_variance, d_scale, d_offset

        return y, grad

    # Plain tensors in (a variable passed in would be read inside the custom-gradient body, which TensorFlow
    # rejects): the reads stay outside, on the tape, so the gradient still reaches the variables.
    return normalize(*(tf.convert_to_tensor(t) for t in (x, mean, variance, scale, offset)))
