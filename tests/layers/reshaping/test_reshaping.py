"""Flatten, Reshape, Permute and RepeatVector: outputs and gradients vs Keras 3 on every backend, configs,
symbolic shapes and argument checks."""

import numpy as np
import pytest

from highlevel import layers
from highlevel.models import Input
from tests.layers.core.keras_oracle import (
    assert_config_round_trip,
    assert_grads_match_keras,
    assert_matches_keras,
    assert_symbolic_shape,
    keras_module,
)

X = np.random.default_rng(0).normal(size=(2, 3, 4, 5)).astype("float32")


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (2, 6), (2, 3, 4)])
def test_flatten_matches_keras(backend, data_format, shape):
    keras = keras_module()
    x = X.reshape(-1)[: int(np.prod(shape))].reshape(shape)
    out = assert_matches_keras(layers.Flatten(data_format), keras.layers.Flatten(data_format), x)
    assert out.shape == (2, int(np.prod(shape[1:])))
    assert_grads_match_keras(layers.Flatten(data_format), keras.layers.Flatten(data_format), x)


def test_flatten_rank_one_and_shapes(backend):
    keras = keras_module()
    x = np.arange(3, dtype="float32")
    assert_matches_keras(layers.Flatten(), keras.layers.Flatten(), x)
    assert layers.Flatten().compute_output_shape((None,)) == (None, 1)
    assert layers.Flatten().compute_output_shape((None, None, 3)) == (None, None)
    out = assert_symbolic_shape(layers.Flatten(), (None, 3, 4))
    assert out.shape == (None, 12)
    assert layers.Flatten()(Input(shape=(None, 3))).shape == (None, None)


@pytest.mark.parametrize("target", [(12, 5), (-1, 5), (3, -1), (60,), (5, 4, 3)])
def test_reshape_matches_keras(backend, target):
    keras = keras_module()
    x = X
    out = assert_matches_keras(layers.Reshape(target), keras.layers.Reshape(target), x)
    assert out.shape == layers.Reshape(target).compute_output_shape(x.shape)
    assert_grads_match_keras(layers.Reshape(target), keras.layers.Reshape(target), x)
    assert_symbolic_shape(layers.Reshape(target), (None, 3, 4, 5))


def test_reshape_shapes_and_errors(backend):
    assert layers.Reshape((-1, 2)).compute_output_shape((None, 3, 4)) == (None, 6, 2)
    assert layers.Reshape((-1, 2)).compute_output_shape((None, None, 4)) == (None, None, 2)
    with pytest.raises(ValueError, match="at most one unknown dimension"):
        layers.Reshape((-1, -1))
    with pytest.raises(ValueError, match="target_shape"):
        layers.Reshape((0, 3))
    with pytest.raises(ValueError, match="total size"):
        layers.Reshape((7,))(X)
    with pytest.raises(ValueError, match="total size"):
        layers.Reshape((7, -1))(X)


@pytest.mark.parametrize("dims", [(2, 1, 3), (3, 2, 1), (1, 2, 3)])
def test_permute_matches_keras(backend, dims):
    keras = keras_module()
    layer = layers.Permute(dims)
    out = assert_matches_keras(layer, keras.layers.Permute(dims), X)
    assert out.shape == layer.compute_output_shape(X.shape)
    assert_grads_match_keras(layers.Permute(dims), keras.layers.Permute(dims), X)
    assert_symbolic_shape(layers.Permute(dims), (None, 3, None, 5))


def test_permute_errors(backend):
    with pytest.raises(ValueError, match="consecutive and start from 1"):
        layers.Permute((0, 1))
    with pytest.raises(ValueError, match="consecutive"):
        layers.Permute((1, 3))
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=4"):
        layers.Permute((2, 1))(X)


def test_repeat_vector(backend):
    keras = keras_module()
    x = X.reshape(2, 60)[:, :7]
    out = assert_matches_keras(layers.RepeatVector(3), keras.layers.RepeatVector(3), x)
    assert out.shape == (2, 3, 7)
    assert_grads_match_keras(layers.RepeatVector(3), keras.layers.RepeatVector(3), x)
    assert_symbolic_shape(layers.RepeatVector(4), (None, 7))
    with pytest.raises(ValueError, match="positive integer. Received: n=0"):
        layers.RepeatVector(0)
    with pytest.raises(TypeError, match="integer value for `n`"):
        layers.RepeatVector(2.0)
    with pytest.raises(ValueError, match="expected ndim=2, found ndim=3"):
        layers.RepeatVector(2)(X[:, 0])


@pytest.mark.parametrize(
    "layer",
    [
        lambda: layers.Flatten("channels_first", name="f"),
        lambda: layers.Reshape((-1, 5), name="r"),
        lambda: layers.Permute((3, 1, 2), name="p"),
    ],
)
def test_configs(backend, layer):
    made = layer()
    assert_config_round_trip(made, X)
    config = made.get_config()
    assert set(config) >= {"name", "trainable", "dtype"}


def test_repeat_vector_and_flatten_configs(backend):
    layer = layers.RepeatVector(5, name="rv")
    assert layer.get_config()["n"] == 5
    assert_config_round_trip(layer, X.reshape(2, 60))
    assert layers.Flatten().get_config()["data_format"] == "channels_last"
    with pytest.raises(ValueError, match="data_format"):
        layers.Flatten("channels_middle")
