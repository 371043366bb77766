"""Real Keras 3 (TensorFlow backend, in-process) as the oracle of the spatial layers (convolution, pooling,
padding, cropping, upsampling): outputs and gradients for given weights and inputs.

TensorFlow's CPU kernels reject some ``channels_first`` convolutions (NCHW), so a ``channels_first`` case is
run on Keras as the ``channels_last`` layer on transposed data, and transposed back; the kernels' layouts do
not depend on ``data_format``, so the same weights serve both.

The loss whose gradients are compared is ``sum(output * cotangent)`` with :func:`cotangent` of the output
shape.
"""

import functools

import numpy as np

import highlevel as hl

ATOL = 1e-4


def cotangent(shape):
    return np.random.default_rng(7).normal(size=shape).astype("float32")


def _to_last(x):
    return np.moveaxis(x, 1, -1)


def _to_first(x):
    return np.moveaxis(x, -1, 1)


def case_data(shape, n_weights_shapes=(), seed=0):
    """The input and weights (numpy float32) of a case, drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=shape).astype("float32")
    return x, [rng.normal(size=s).astype("float32") * 0.5 for s in n_weights_shapes]


@functools.lru_cache(maxsize=None)
def _keras_run(name, kwargs_items, x_bytes, shape, weights_key):
    import keras
    import tensorflow as tf

    kwargs = dict(kwargs_items)
    x = np.frombuffer(x_bytes, dtype="float32").reshape(shape)
    weights = [np.frombuffer(b, dtype="float32").reshape(s) for b, s in weights_key]
    first = kwargs.get("data_format") == "channels_first"
    if first:
        kwargs["data_format"] = "channels_last"
        x = _to_last(x)
    layer = getattr(keras.layers, name)(**kwargs)
    layer(x)
    if weights:
        layer.set_weights(weights)
    xt = tf.constant(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xt)
        out = layer(xt)
        cot = cotangent(_to_first(np.zeros(out.shape)).shape if first else tuple(out.shape))
        loss = tf.reduce_sum(out * (_to_last(cot) if first else cot))
    w_grads = [np.asarray(tf.convert_to_tensor(g)) for g in tape.gradient(loss, layer.trainable_weights)]
    x_grad = np.asarray(tape.gradient(loss, xt))
    out = np.asarray(out)
    if first:
        out, x_grad = _to_first(out), _to_first(x_grad)
    return out, w_grads, x_grad


def keras_run(name, kwargs, x, weights=()):
    """``(output, weight_gradients, input_gradient)`` of ``keras.layers.<name>(**kwargs)`` with ``weights``."""
    key = tuple((w.tobytes(), w.shape) for w in weights)
    return _keras_run(name, tuple(sorted(kwargs.items())), np.ascontiguousarray(x).tobytes(), x.shape, key)


def ours_run(layer, x, weights=()):
    """The same triple from our layer on the current backend, through ``stateless_call`` under
    ``hl.ops.value_and_grad``."""
    xt = hl.ops.convert_to_tensor(x)
    out = layer(xt)
    if weights:
        layer.set_weights(list(weights))
    out = np.asarray(hl.ops.convert_to_numpy(layer(xt)))
    cot = hl.ops.convert_to_tensor(cotangent(out.shape))
    non_trainable = [v.value for v in layer.non_trainable_variables]

    def loss(trainable, inputs):
        y, _ = layer.stateless_call(trainable, non_trainable, inputs)
        return hl.ops.sum(hl.ops.multiply(y, cot))

    trainable = [v.value for v in layer.trainable_variables]
    _, (w_grads, x_grad) = hl.ops.value_and_grad(loss, argnums=(0, 1))(trainable, xt)
    return out, [np.asarray(hl.ops.convert_to_numpy(g)) for g in w_grads], np.asarray(hl.ops.convert_to_numpy(x_grad))


def assert_matches_keras(name, kwargs, shape, atol=ATOL, seed=0):
    """Builds our ``hl.layers.<name>`` and Keras' on the same input and weights (drawn from ``seed``); the
    outputs, the weight gradients and the input gradient must agree."""
    layer = getattr(hl.layers, name)(**kwargs)
    x, _ = case_data(shape, seed=seed)
    layer(hl.ops.convert_to_tensor(x))
    _, weights = case_data(shape, [tuple(v.shape) for v in layer.weights], seed=seed)
    ours = ours_run(layer, x, weights)
    theirs = keras_run(name, kwargs, x, weights)
    assert ours[0].shape == theirs[0].shape, f"{name}{kwargs}: output shape {ours[0].shape} vs {theirs[0].shape}"
    np.testing.assert_allclose(ours[0], theirs[0], atol=atol, rtol=atol, err_msg=f"{name}{kwargs}: output")
    assert len(ours[1]) == len(theirs[1])
    for v, g, k in zip(layer.trainable_variables, ours[1], theirs[1]):
        np.testing.assert_allclose(g, k, atol=atol, rtol=atol, err_msg=f"{name}{kwargs}: gradient of {v.path}")
    np.testing.assert_allclose(ours[2], theirs[2], atol=atol, rtol=atol, err_msg=f"{name}{kwargs}: input gradient")
    return layer, ours[0]
