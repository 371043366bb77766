"""Discretization vs Keras 3: given and adapted boundaries (arrays, batches), output modes, config, errors."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .categorical_oracle import assert_same, keras_module, ours, save_and_load

RNG = np.random.default_rng(5)


@pytest.mark.parametrize("mode", ["int", "one_hot", "multi_hot", "count"])
def test_given_boundaries_match_keras(backend, mode):
    keras = keras_module()
    x = np.array([[-1.5, 1.0, 3.4, 0.5], [0.0, 2.0, 1.999, -0.0]], "float32")
    kw = {"bin_boundaries": [0.0, 1.0, 2.0], "output_mode": mode}
    assert_same(layers.Discretization(**kw)(x), keras.layers.Discretization(**kw)(x), mode)


@pytest.mark.parametrize("num_bins,epsilon", [(4, 0.01), (3, 0.1), (10, 0.001)])
def test_adapt_matches_keras(backend, num_bins, epsilon):
    keras = keras_module()
    data = RNG.normal(size=(300, 2)).astype("float32")
    ours_layer = layers.Discretization(num_bins=num_bins, epsilon=epsilon)
    keras_layer = keras.layers.Discretization(num_bins=num_bins, epsilon=epsilon)
    ours_layer.adapt(data)
    keras_layer.adapt(data)
    np.testing.assert_allclose(ours_layer.bin_boundaries, keras_layer.bin_boundaries, rtol=1e-6)
    assert_same(ours_layer(data[:5]), keras_layer(data[:5]))
    batches = [data[i : i + 64] for i in range(0, 300, 64)]
    ours_layer.adapt(iter(batches))
    keras_layer.adapt(iter(batches))
    np.testing.assert_allclose(ours_layer.bin_boundaries, keras_layer.bin_boundaries, rtol=1e-6)


def test_adapted_boundaries_survive_config_and_save(backend, tmp_path):
    layer = layers.Discretization(num_bins=3)
    layer.adapt(np.arange(30, dtype="float32"))
    config = layer.get_config()
    assert config["bin_boundaries"] == layer.bin_boundaries and config["num_bins"] == 3
    clone = layers.Discretization.from_config(config)
    x = np.array([[1.0, 12.0, 25.0]], "float32")
    np.testing.assert_array_equal(ours(clone(x)), ours(layer(x)))
    model = hl.Sequential([hl.Input((3,)), layer])
    np.testing.assert_array_equal(ours(save_and_load(model, tmp_path)(x)), ours(model(x)))


@pytest.mark.parametrize(
    "mode,shape,dtype", [("int", (3, 4), "int32"), ("count", (3, 4), "float32"), ("one_hot", (3, 4, 4), "float32")]
)
def test_standard_checks(backend, mode, shape, dtype):
    run_layer_test(
        layers.Discretization,
        {"bin_boundaries": [-0.5, 0.0, 0.5], "output_mode": mode},
        input_shape=(3, 4),
        expected_output_shape=shape,
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype=dtype,
    )


def test_errors():
    with pytest.raises(ValueError, match="either `num_bins` or `bin_boundaries`"):
        layers.Discretization()
    with pytest.raises(ValueError, match="should not be set"):
        layers.Discretization(bin_boundaries=[0.0], num_bins=2)
    with pytest.raises(ValueError, match="sorted"):
        layers.Discretization(bin_boundaries=[1.0, 0.0])
    with pytest.raises(ValueError, match="use `num_bins` instead"):
        layers.Discretization(bin_boundaries=[0.0]).adapt(np.ones(3))
    with pytest.raises(ValueError, match="adapt"):
        layers.Discretization(num_bins=2)(np.ones((1, 2), "float32"))
