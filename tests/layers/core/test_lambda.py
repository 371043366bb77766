"""Lambda: calls, arguments, output shapes, masks, gradients and the code-free config with its safe mode."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from highlevel.layers.core import lambda_layer
from highlevel.models import Input, Model

from .keras_oracle import assert_symbolic_shape, keras_module, to_numpy, weight_and_input_grads

X = np.random.default_rng(0).normal(size=(2, 3, 4)).astype("float32")


def scaled_sum(x, scale=1.0):
    return hl.ops.sum(x, axis=-1) * scale


def with_training(x, training=None):
    return x * 2.0 if training else x


def test_lambda_calls_function_with_arguments(backend):
    keras = keras_module()
    layer = layers.Lambda(scaled_sum, arguments={"scale": 3.0})
    ours = to_numpy(layer(X))
    theirs = np.asarray(
        keras.layers.Lambda(lambda x, scale: keras.ops.sum(x, axis=-1) * scale, arguments={"scale": 3.0})(X)
    )
    np.testing.assert_allclose(ours, theirs, atol=1e-5)
    _, x_grad = weight_and_input_grads(layer, X)
    assert x_grad.shape == X.shape and np.isfinite(x_grad).all() and np.abs(x_grad).sum() > 0


def test_lambda_training_and_mask_arguments(backend):
    layer = layers.Lambda(with_training)
    x = hl.ops.ones((1, 2))
    assert to_numpy(layer(x, training=True)).tolist() == [[2.0, 2.0]]
    assert to_numpy(layer(x)).tolist() == [[1.0, 1.0]]
    masker = layers.Lambda(lambda x: x, mask=lambda inputs, mask: hl.ops.greater(inputs, 0.0))
    assert masker.supports_masking
    assert to_numpy(masker.compute_mask(hl.ops.convert_to_tensor([1.0, -1.0]))).tolist() == [True, False]


def test_lambda_output_shapes(backend):
    assert_symbolic_shape(layers.Lambda(scaled_sum), (None, 3, 4))
    fixed = layers.Lambda(lambda x: hl.ops.reshape(x, (-1, 12)), output_shape=(12,))
    assert fixed.compute_output_shape((None, 3, 4)) == (None, 12)
    inp = Input(shape=(3, 4))
    out = fixed(inp)
    assert out.shape == (None, 12)
    assert to_numpy(Model(inp, out)(X)).shape == (2, 12)
    by_fn = layers.Lambda(lambda x: x[:, 0], output_shape=lambda s: (s[0], s[2]))
    assert by_fn.compute_output_shape((None, 3, 4)) == (None, 4)


def test_lambda_config_is_code_free(backend):
    layer = layers.Lambda(scaled_sum, arguments={"scale": 2.0}, output_shape=(3,), name="lam")
    config = layer.get_config()
    assert config["function"] == {"class_name": "function", "module": __name__, "config": "scaled_sum"}
    assert config["arguments"] == {"scale": 2.0} and config["output_shape"] == (3,)
    # Safe mode (the default) refuses to import a module named by the config.
    with pytest.raises(ValueError, match="Refusing to rebuild Lambda layer 'lam'.*safe_mode_scope"):
        layers.Lambda.from_config(config)
    with pytest.raises(ValueError, match="Refusing"):
        layers.deserialize(layers.serialize(layer))
    with lambda_layer.safe_mode_scope(False):
        clone = layers.Lambda.from_config(config)
    assert clone.function is scaled_sum and clone.get_config() == config
    np.testing.assert_allclose(to_numpy(clone(X)), to_numpy(layer(X)))
    assert layers.Lambda.from_config(config, safe_mode=False).function is scaled_sum
    assert lambda_layer.in_safe_mode()


def test_lambda_config_of_highlevel_function_loads_in_safe_mode(backend):
    layer = layers.Lambda(hl.ops.tanh)
    clone = layers.deserialize(layers.serialize(layer))
    assert clone.function is hl.ops.tanh


def test_lambda_process_switch(backend):
    config = layers.Lambda(scaled_sum).get_config()
    lambda_layer.enable_unsafe_deserialization()
    try:
        assert layers.Lambda.from_config(config).function is scaled_sum
    finally:
        lambda_layer.disable_unsafe_deserialization()
    with pytest.raises(ValueError, match="Refusing"):
        layers.Lambda.from_config(config)


def test_lambda_python_lambda_cannot_be_rebuilt(backend):
    config = layers.Lambda(lambda x: x + 1.0).get_config()
    assert config["function"]["config"].endswith("<lambda>")
    with lambda_layer.safe_mode_scope(False):
        with pytest.raises(ValueError, match="no importable name"):
            layers.Lambda.from_config(config)


def test_lambda_argument_errors(backend):
    with pytest.raises(TypeError, match="callable"):
        layers.Lambda(3)
    with pytest.raises(ValueError, match="output_shape"):
        layers.Lambda(scaled_sum, output_shape="big")
    with pytest.raises(TypeError, match="arguments"):
        layers.Lambda(scaled_sum, arguments=[1])
