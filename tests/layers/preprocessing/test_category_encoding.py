"""CategoryEncoding vs Keras 3: one_hot / multi_hot / count (with count_weights), shapes, dtype, errors."""

import numpy as np
import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .categorical_oracle import assert_same, keras_module, ours

INPUTS = [
    np.array([0, 1, 3]),
    np.array([[0, 1], [3, 3]]),
    np.array(2),
    np.array([[1], [2]]),
    np.array([[0, 5, 4, 2]]),
    np.array([[[0, 1], [2, 2]], [[3, 0], [1, 1]]]),
]


@pytest.mark.parametrize("mode", ["one_hot", "multi_hot", "count"])
def test_matches_keras(backend, mode):
    keras = keras_module()
    for x in INPUTS:
        if x.ndim == 3 and mode != "one_hot":
            continue  # Keras' count/multi_hot reduce a fixed axis on rank-3 inputs (a Keras quirk)
        assert_same(
            layers.CategoryEncoding(4, output_mode=mode)(x),
            keras.layers.CategoryEncoding(4, output_mode=mode)(x),
            f"{mode} {x.shape}",
        )


def test_count_weights_and_dtype(backend):
    keras = keras_module()
    x, w = np.array([[0, 1, 1], [2, 3, 3]]), np.array([[0.5, 1.0, 2.0], [1.0, 0.25, 0.25]], "float32")
    layer = layers.CategoryEncoding(4, output_mode="count")
    assert_same(layer(x, count_weights=w), keras.layers.CategoryEncoding(4, output_mode="count")(x, count_weights=w))
    out = ours(layers.CategoryEncoding(3, dtype="int32")(np.array([[0, 2]])))
    assert out.dtype == np.int32 and out.tolist() == [[1, 0, 1]]
    with pytest.raises(ValueError, match="count_weights"):
        layers.CategoryEncoding(4, output_mode="one_hot")(x, count_weights=w)


@pytest.mark.parametrize("mode,out_shape", [("multi_hot", (3, 5)), ("count", (3, 5)), ("one_hot", (3, 4, 5))])
def test_standard_checks(backend, mode, out_shape):
    run_layer_test(
        layers.CategoryEncoding,
        {"num_tokens": 5, "output_mode": mode},
        input_shape=(3, 4),
        input_dtype="int32",
        expected_output_shape=out_shape,
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
    )


def test_argument_errors():
    with pytest.raises(ValueError, match="num_tokens must be set"):
        layers.CategoryEncoding()
    with pytest.raises(ValueError, match="num_tokens"):
        layers.CategoryEncoding(0)
    with pytest.raises(ValueError, match="output_mode"):
        layers.CategoryEncoding(3, output_mode="tf_idf")
    with pytest.raises(ValueError, match="sparse"):
        layers.CategoryEncoding(3, sparse=True)
    assert layers.CategoryEncoding(3, output_mode="binary").output_mode == "multi_hot"
