"""Activation, Identity and Masking: outputs, gradients and masks vs Keras 3, configs and shapes."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from highlevel.models import Input, Model

from .keras_oracle import (
    assert_config_round_trip,
    assert_grads_match_keras,
    assert_matches_keras,
    assert_symbolic_shape,
    keras_module,
    to_numpy,
)

X = np.random.default_rng(0).normal(size=(2, 3, 4)).astype("float32")


@pytest.mark.parametrize("activation", ["relu", "tanh", "softmax", "sigmoid", "gelu", "linear"])
def test_activation_matches_keras(backend, activation):
    keras = keras_module()
    assert_matches_keras(layers.Activation(activation), keras.layers.Activation(activation), X)
    assert_grads_match_keras(layers.Activation(activation), keras.layers.Activation(activation), X)


def test_activation_config_and_shape(backend):
    layer = layers.Activation("relu", name="act")
    assert layer.get_config()["activation"] == "relu"
    assert_config_round_trip(layer, X)
    assert_symbolic_shape(layers.Activation("tanh"), (None, 3, 4))
    assert layers.Activation(hl.ops.tanh).compute_output_shape((None, 5)) == (None, 5)
    with pytest.raises(ValueError, match="Unknown activation|activation"):
        layers.Activation("not_an_activation")


def test_identity(backend):
    keras = keras_module()
    assert_matches_keras(layers.Identity(), keras.layers.Identity(), X)
    assert_grads_match_keras(layers.Identity(), keras.layers.Identity(), X)
    pair = layers.Identity()([hl.ops.ones((2,)), hl.ops.zeros((3,))])
    assert [hl.ops.shape(t) for t in pair] == [(2,), (3,)]
    assert_config_round_trip(layers.Identity(name="idt"), X)
    assert_symbolic_shape(layers.Identity(), (None, 3))


MASK_X = np.array([[[1.0, 2.0], [0.0, 0.0], [3.0, 0.0]], [[0.0, 0.0], [5.0, 5.0], [0.0, 0.0]]], "float32")


@pytest.mark.parametrize("mask_value", [0.0, 5.0])
def test_masking_matches_keras(backend, mask_value):
    keras = keras_module()
    layer = layers.Masking(mask_value)
    k = keras.layers.Masking(mask_value)
    assert_matches_keras(layer, k, MASK_X)
    np.testing.assert_array_equal(
        to_numpy(layer.compute_mask(hl.ops.convert_to_tensor(MASK_X))), np.asarray(k.compute_mask(MASK_X))
    )
    assert_grads_match_keras(layer, keras.layers.Masking(mask_value), MASK_X)


def test_masking_feeds_the_mask_downstream(backend):
    """In a functional model the mask reaches a mask-aware layer (a Lambda taking `mask`) as in Keras."""
    keras = keras_module()

    def mark(ops):
        # highlevel's symbolic graph carries no masks (they are computed when the model runs).
        return lambda x, mask=None: x if mask is None else ops.where(ops.expand_dims(mask, -1), x, -7.0)

    inp = Input(shape=(3, 2))
    out = layers.Lambda(mark(hl.ops))(layers.Dense(2, kernel_initializer="ones")(layers.Masking()(inp)))
    ours = to_numpy(Model(inp, out)(MASK_X))
    kin = keras.Input(shape=(3, 2))
    kout = keras.layers.Lambda(mark(keras.ops))(
        keras.layers.Dense(2, kernel_initializer="ones")(keras.layers.Masking()(kin))
    )
    theirs = np.asarray(keras.Model(kin, kout)(MASK_X))
    np.testing.assert_allclose(ours, theirs, atol=1e-6)
    assert (ours == -7.0).any()  # the mask did arrive, through Dense


def test_masking_config_shape_errors(backend):
    layer = layers.Masking(mask_value=-1.0, name="m")
    assert layer.get_config()["mask_value"] == -1.0
    assert_config_round_trip(layer, MASK_X)
    assert_symbolic_shape(layers.Masking(), (None, 3, 2))
    with pytest.raises(TypeError, match="mask_value"):
        layers.Masking(mask_value="zero")
