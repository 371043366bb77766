"""Dense and EinsumDense: outputs and gradients vs Keras 3, configs, shapes, argument checks."""

import numpy as np
import pytest

from highlevel import layers, regularizers

from .keras_oracle import (
    assert_config_round_trip,
    assert_grads_match_keras,
    assert_matches_keras,
    assert_symbolic_shape,
    keras_module,
)

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.normal(size=shape).astype("float32")


@pytest.mark.parametrize("shape", [(4, 3), (2, 5, 3), (2, 2, 2, 3)])
def test_dense_matches_keras(backend, shape):
    keras = keras_module()
    layer = layers.Dense(6, activation="tanh", bias_initializer="glorot_uniform")
    x = _x(*shape)
    out = assert_matches_keras(layer, keras.layers.Dense(6, activation="tanh"), x)
    assert out.shape == shape[:-1] + (6,)
    assert [w.path for w in layer.weights] == [f"{layer.name}/kernel", f"{layer.name}/bias"]
    assert_grads_match_keras(layer, keras.layers.Dense(6, activation="tanh"), x)


def test_dense_no_bias_and_regularizers(backend):
    keras = keras_module()
    layer = layers.Dense(3, use_bias=False, kernel_regularizer=regularizers.L2(0.1), activity_regularizer="l1")
    x = _x(2, 4)
    assert_matches_keras(layer, keras.layers.Dense(3, use_bias=False), x)
    assert len(layer.weights) == 1
    assert len(layer.losses) == 2  # the kernel penalty and the activity penalty
    assert_grads_match_keras(layer, keras.layers.Dense(3, use_bias=False), x)


def test_dense_config_and_shapes(backend):
    layer = layers.Dense(
        5, activation="relu", kernel_initializer="he_normal", bias_regularizer=regularizers.L1(0.01), name="d1"
    )
    config = layer.get_config()
    assert config["units"] == 5 and config["activation"] == "relu" and config["use_bias"] is True
    assert config["kernel_initializer"]["class_name"] == "HeNormal"
    assert_config_round_trip(layer, _x(2, 3))
    assert_symbolic_shape(layers.Dense(5), (None, 7, 3))
    assert layers.Dense(5).compute_output_shape((None, 2, 3)) == (None, 2, 5)


def test_dense_errors(backend):
    with pytest.raises(ValueError, match=r"expected a positive integer. Received: units=-3"):
        layers.Dense(units=-3)
    with pytest.raises(ValueError, match="units"):
        layers.Dense(units=2.5)
    layer = layers.Dense(2)
    with pytest.raises(ValueError, match="min_ndim=2, found ndim=1"):
        layer(np.ones((3,), "float32"))
    layer(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError, match=r"expected axis -1 of input shape to have value 3"):
        layer(np.ones((2, 4), "float32"))


EINSUM_CASES = [
    ("ab,bc->ac", 4, "c", (3, 5)),
    ("abc,cd->abd", (None, 6), "d", (2, 3, 5)),
    ("abc,cde->abde", (None, 2, 4), "de", (2, 3, 5)),
    ("...b,bc->...c", 4, "c", (2, 3, 5)),
    ("...b,bc->...c", 4, None, (2, 5)),
    ("abc,cd->ad", 4, "d", (2, 3, 5)),
    ("ab...,bc->ac...", 4, "c", (2, 5, 3)),
    ("abcd,cde->abe", (3, 4), "be", (2, 3, 5, 6)),
]


@pytest.mark.parametrize("equation,output_shape,bias_axes,shape", EINSUM_CASES)
def test_einsum_dense_matches_keras(backend, equation, output_shape, bias_axes, shape):
    keras = keras_module()
    make = lambda mod: mod.EinsumDense(
        equation,
        output_shape=output_shape,
        bias_axes=bias_axes,
        activation="sigmoid",
        **({"bias_initializer": "ones"} if mod is layers else {}),
    )
    layer = make(layers)
    x = _x(*shape)
    out = assert_matches_keras(layer, make(keras.layers), x)
    assert out.shape == layer.compute_output_shape(shape)
    k = make(keras.layers)
    k.build(shape)
    assert [tuple(w.shape) for w in layer.weights] == [tuple(w.shape) for w in k.weights]
    assert_grads_match_keras(layer, make(keras.layers), x)


def test_einsum_dense_symbolic_and_config(backend):
    layer = layers.EinsumDense("abc,cd->abd", output_shape=(None, 8), bias_axes="d", kernel_regularizer="l2", name="ed")
    out = assert_symbolic_shape(layer, (None, 4, 3))
    assert out.shape == (None, 4, 8)
    assert_config_round_trip(layer, _x(2, 4, 3))
    config = layer.get_config()
    assert config["output_shape"] == (None, 8) and config["bias_axes"] == "d" and config["equation"] == "abc,cd->abd"
    assert_symbolic_shape(layers.EinsumDense("...b,bc->...c", output_shape=3), (None, 2, 4))


def test_einsum_dense_kernel_fans(backend):
    """The default glorot init takes its fans from the contracted and produced axes (as Keras)."""
    layer = layers.EinsumDense("abc,cde->abde", output_shape=(None, 4, 50), kernel_initializer="glorot_uniform")
    layer.build((None, 3, 100))
    limit = np.sqrt(6.0 / (100 + 200))
    w = layer.get_weights()[0]
    assert np.abs(w).max() <= limit and np.abs(w).max() > 0.8 * limit


def test_einsum_dense_errors(backend):
    with pytest.raises(ValueError, match="Invalid einsum equation"):
        layers.EinsumDense("ab->b", output_shape=3)
    with pytest.raises(ValueError, match="output_shape"):
        layers.EinsumDense("ab,bc->ac", output_shape="x")
    with pytest.raises(ValueError, match="Bias dimension 'q'"):
        layers.EinsumDense("ab,bc->ac", output_shape=3, bias_axes="q")(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError, match="do not match at shared dimension"):
        layers.EinsumDense("abc,cd->abd", output_shape=(7, 3))(np.ones((2, 4, 3), "float32"))
    with pytest.raises(ValueError, match="rank"):
        layers.EinsumDense("abc,cd->abd", output_shape=(None, 3))(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError, match="does not fit"):
        layers.EinsumDense("abc,cd->abd", output_shape=(3,))(np.ones((2, 4, 3), "float32"))
