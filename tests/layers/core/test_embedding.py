"""Embedding: lookups and gradients vs Keras 3, masks, integer checks, configs and shapes."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers

from .keras_oracle import (
    assert_config_round_trip,
    assert_grads_match_keras,
    assert_matches_keras,
    assert_symbolic_shape,
    keras_module,
    to_numpy,
)

IDS = np.array([[1, 2, 0, 4], [3, 3, 0, 0]], dtype="int32")


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_embedding_matches_keras(backend, dtype):
    keras = keras_module()
    layer = layers.Embedding(5, 3)
    ids = IDS.astype(dtype)
    out = assert_matches_keras(layer, keras.layers.Embedding(5, 3), ids)
    assert out.shape == (2, 4, 3) and out.dtype == np.float32
    assert [w.path for w in layer.weights] == [f"{layer.name}/embeddings"]
    assert_grads_match_keras(layer, keras.layers.Embedding(5, 3), IDS, check_inputs=False)


def test_embedding_default_initializer_is_keras_uniform(backend):
    layer = layers.Embedding(200, 50)
    layer.build()
    w = layer.get_weights()[0]
    assert w.shape == (200, 50) and np.abs(w).max() <= 0.05 and np.abs(w).max() > 0.04
    assert layer.get_config()["embeddings_initializer"]["class_name"] == "RandomUniform"


def test_embedding_mask_zero(backend):
    keras = keras_module()
    layer = layers.Embedding(5, 2, mask_zero=True)
    mask = to_numpy(layer.compute_mask(hl.ops.convert_to_tensor(IDS)))
    k = keras.layers.Embedding(5, 2, mask_zero=True)
    np.testing.assert_array_equal(mask, np.asarray(k.compute_mask(IDS)))
    assert layer.supports_masking
    assert layers.Embedding(5, 2).compute_mask(hl.ops.convert_to_tensor(IDS)) is None


def test_embedding_weights_argument_and_config(backend):
    table = np.arange(12, dtype="float32").reshape(4, 3)
    layer = layers.Embedding(4, 3, weights=table, mask_zero=True, embeddings_regularizer="l2", name="emb")
    np.testing.assert_array_equal(to_numpy(layer(np.array([[3, 1]], "int32"))), table[[[3, 1]]])
    config = layer.get_config()
    assert config["input_dim"] == 4 and config["output_dim"] == 3 and config["mask_zero"] is True
    assert_config_round_trip(layer, IDS % 4)


def test_embedding_symbolic_shape(backend):
    out = assert_symbolic_shape(layers.Embedding(5, 7), (None, 4), dtype="int32")
    assert out.shape == (None, 4, 7) and out.dtype == "float32"


def test_embedding_errors(backend):
    with pytest.raises(ValueError, match="`input_dim`.*Received: input_dim=0"):
        layers.Embedding(0, 3)
    with pytest.raises(ValueError, match="output_dim"):
        layers.Embedding(3, 2.0)
    with pytest.raises(ValueError, match="output_dim"):
        layers.Embedding(3, True)
    with pytest.raises(TypeError, match="expects integer indices.*bool"):
        layers.Embedding(3, 2)(np.array([[True, False]]))
