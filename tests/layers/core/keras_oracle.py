"""Helpers shared by the layer tests of core, merging, activations and reshaping: real Keras 3 (TensorFlow
backend, in-process) as the oracle for outputs and gradients, and the config / symbolic-shape checks.

Our layer and the Keras layer get the same weights (ours copied into Keras with ``set_weights``), the same
inputs, and the same loss ``sum(output * cotangent)`` for gradients.
"""

import numpy as np

import highlevel as hl
from highlevel import layers
from highlevel.models import Input, Model

ATOL = 1e-5


def to_numpy(x):
    if isinstance(x, (list, tuple)):
        return [to_numpy(v) for v in x]
    return np.asarray(hl.ops.convert_to_numpy(x))


def _to_tensors(inputs):
    if isinstance(inputs, (list, tuple)):
        return [hl.ops.convert_to_tensor(x) for x in inputs]
    return hl.ops.convert_to_tensor(inputs)


def keras_module():
    import keras

    return keras


def keras_outputs(keras_layer, inputs, weights=None, **call_kwargs):
    """Builds ``keras_layer`` on ``inputs``, sets ``weights`` (ours) and returns its output as numpy."""
    out = keras_layer(inputs, **call_kwargs)
    if weights is not None:
        keras_layer.set_weights(weights)
        out = keras_layer(inputs, **call_kwargs)
    return np.asarray(out)


def assert_matches_keras(layer, keras_layer, inputs, atol=ATOL, **call_kwargs):
    """Calls our layer (building it) and the Keras layer with our weights; outputs must agree."""
    ours = to_numpy(layer(_to_tensors(inputs), **{k: _to_tensors(v) for k, v in call_kwargs.items()}))
    theirs = keras_outputs(keras_layer, inputs, layer.get_weights() or None, **call_kwargs)
    assert ours.shape == theirs.shape, (ours.shape, theirs.shape)
    assert ours.dtype == theirs.dtype or np.issubdtype(ours.dtype, np.floating), (ours.dtype, theirs.dtype)
    np.testing.assert_allclose(ours, theirs, atol=atol, rtol=atol)
    return ours


def _cotangent(shape, seed=0):
    return np.random.default_rng(seed).normal(size=shape).astype("float32")


def weight_and_input_grads(layer, inputs, **call_kwargs):
    """Gradients of ``sum(layer(inputs) * cotangent)`` with respect to the trainable weights and the (float)
    inputs, through ``layer.stateless_call`` under ``hl.ops.value_and_grad``; numpy arrays."""
    x = _to_tensors(inputs)
    if not layer.built:
        layer(x, **call_kwargs)
    trainable = [v.value for v in layer.trainable_variables]
    non_trainable = [v.value for v in layer.non_trainable_variables]
    out_shape = to_numpy(layer(x, **call_kwargs)).shape
    cot = hl.ops.convert_to_tensor(_cotangent(out_shape))

    def loss(weights, x):
        out, _ = layer.stateless_call(weights, non_trainable, x, **call_kwargs)
        return hl.ops.sum(hl.ops.multiply(out, cot))

    _, (w_grads, x_grads) = hl.ops.value_and_grad(loss, argnums=(0, 1))(trainable, x)
    w_grads = [None if g is None else to_numpy(g) for g in w_grads]
    if isinstance(x_grads, (list, tuple)):
        x_grads = [None if g is None else to_numpy(g) for g in x_grads]
    elif x_grads is not None:
        x_grads = to_numpy(x_grads)
    return w_grads, x_grads


def keras_grads(keras_layer, inputs, **call_kwargs):
    """The same gradients from the Keras layer: with ``tf.GradientTape`` on Keras's TensorFlow backend (the
    default), with ``jax.grad`` of its ``stateless_call`` when another test of the process imported Keras on JAX
    first (Keras's engine is chosen once per process, at its first import)."""
    import keras

    if keras.config.backend() == "jax":
        return _keras_grads_jax(keras_layer, inputs, **call_kwargs)
    import tensorflow as tf

    is_list = isinstance(inputs, (list, tuple))
    xs = [tf.constant(v) for v in (inputs if is_list else [inputs])]
    with tf.GradientTape(persistent=True) as tape:
        for v in xs:
            if v.dtype.is_floating:
                tape.watch(v)
        out = keras_layer(xs if is_list else xs[0], **call_kwargs)
        loss = tf.reduce_sum(out * _cotangent(tuple(out.shape)))
    # A gather's gradient comes as IndexedSlices; densify it.
    w_grads = [np.asarray(tf.convert_to_tensor(g)) for g in tape.gradient(loss, keras_layer.trainable_weights)]
    x_grads = [None if not v.dtype.is_floating else tape.gradient(loss, v) for v in xs]
    x_grads = [None if g is None else np.asarray(g) for g in x_grads]
    return w_grads, (x_grads if is_list else x_grads[0])


def assert_grads_match_keras(layer, keras_layer, inputs, atol=1e-4, check_inputs=True, **call_kwargs):
    """Weight (and input) gradients of our layer on the current backend equal Keras'; every trainable
    weight gets a gradient."""
    ours_w, ours_x = weight_and_input_grads(layer, inputs, **call_kwargs)
    keras_outputs(keras_layer, inputs, layer.get_weights() or None, **call_kwargs)
    theirs_w, theirs_x = keras_grads(keras_layer, inputs, **call_kwargs)
    assert len(ours_w) == len(layer.trainable_variables) == len(theirs_w)
    for v, g, k in zip(layer.trainable_variables, ours_w, theirs_w):
        assert g is not None, f"no gradient for {v.path}"
        assert g.shape == tuple(v.shape)
        np.testing.assert_allclose(g, k, atol=atol, rtol=atol, err_msg=v.path)
    if check_inputs:
        ours_x = ours_x if isinstance(ours_x, list) else [ours_x]
        theirs_x = theirs_x if isinstance(theirs_x, list) else [theirs_x]
        for g, k in zip(ours_x, theirs_x):
            if k is None:
                continue
            assert g is not None
            np.testing.assert_allclose(g, k, atol=atol, rtol=atol)


def assert_config_round_trip(layer, inputs=None):
    """``from_config(get_config())`` and ``layers.deserialize(serialize())`` rebuild an equal config; with
    ``inputs``, the rebuilt layer given the same weights computes the same output."""
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config
    again = layers.deserialize(layers.serialize(layer))
    assert type(again) is type(layer) and again.get_config() == config
    if inputs is not None:
        x = _to_tensors(inputs)
        expected = to_numpy(layer(x))
        clone(x)
        clone.set_weights(layer.get_weights())
        np.testing.assert_allclose(to_numpy(clone(x)), expected, atol=1e-6)
    return clone


def assert_symbolic_shape(layer, input_shapes, dtype="float32"):
    """In a functional model, the symbolic output shape equals ``compute_output_shape``; the model then
    runs on concrete data of those shapes (None -> 2) and gives outputs of the predicted shapes."""
    is_list = isinstance(input_shapes, list)
    shapes = input_shapes if is_list else [input_shapes]
    ins = [Input(shape=s[1:], batch_size=s[0], dtype=dtype) for s in shapes]
    out = layer(ins if is_list else ins[0])
    expected = layer.compute_output_shape([tuple(i.shape) for i in ins] if is_list else tuple(ins[0].shape))
    assert tuple(out.shape) == tuple(expected), (out.shape, expected)
    model = Model(ins if is_list else ins[0], out)
    rng = np.random.default_rng(1)
    data = [
        rng.normal(size=tuple(2 if d is None else d for d in s)).astype(dtype)
        if "float" in dtype
        else rng.integers(0, 3, size=tuple(2 if d is None else d for d in s)).astype(dtype)
        for s in shapes
    ]
    y = to_numpy(model(data if is_list else data[0]))
    assert len(y.shape) == len(expected)
    for got, want in zip(y.shape, expected):
        assert want is None or got == want, (y.shape, expected)
    return out


def _keras_grads_jax(keras_layer, inputs, **call_kwargs):
    import jax
    import jax.numpy as jnp

    is_list = isinstance(inputs, (list, tuple))
    xs = [jnp.asarray(v) for v in (inputs if is_list else [inputs])]
    floating = [i for i, v in enumerate(xs) if jnp.issubdtype(v.dtype, jnp.floating)]
    if not keras_layer.built:
        keras_layer(xs if is_list else xs[0], **call_kwargs)
    trainable = [v.value for v in keras_layer.trainable_variables]
    non_trainable = [v.value for v in keras_layer.non_trainable_variables]

    def loss(weights, float_inputs):
        args = list(xs)
        for i, v in zip(floating, float_inputs):
            args[i] = v
        out, _ = keras_layer.stateless_call(weights, non_trainable, args if is_list else args[0], **call_kwargs)
        return jnp.sum(out * _cotangent(tuple(out.shape)))

    w_grads, f_grads = jax.grad(loss, argnums=(0, 1))(trainable, [xs[i] for i in floating])
    x_grads = [None] * len(xs)
    for i, g in zip(floating, f_grads):
        x_grads[i] = np.asarray(g)
    return [np.asarray(g) for g in w_grads], (x_grads if is_list else x_grads[0])
