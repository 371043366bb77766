"""LayerNormalization, GroupNormalization and UnitNormalization vs Keras 3: outputs, gradients through
stateless_call, configs, shapes and argument checks."""

import warnings

import numpy as np
import pytest

from highlevel import layers

from ..core.keras_oracle import (
    assert_config_round_trip,
    assert_grads_match_keras,
    assert_matches_keras,
    assert_symbolic_shape,
    keras_module,
    to_numpy,
)

RNG = np.random.default_rng(1)


def _x(*shape):
    return (RNG.normal(size=shape) * 1.5 + 0.3).astype("float32")


def _randomize(layer):
    layer.set_weights([RNG.normal(size=tuple(v.shape)).astype("float32") for v in layer.weights])


# ------------------------------------------------------------------ LayerNormalization
@pytest.mark.parametrize(
    "shape,kwargs",
    [
        ((4, 6), {}),
        ((2, 3, 5), {"axis": [1, 2]}),
        ((2, 3, 5), {"axis": 1}),
        ((2, 3, 4, 5), {"axis": [-3, -1], "epsilon": 1e-5}),
        ((3, 4), {"center": False}),
        ((3, 4), {"scale": False}),
    ],
)
def test_layer_normalization_matches_keras(backend, shape, kwargs):
    keras = keras_module()
    x = _x(*shape)
    layer = layers.LayerNormalization(**kwargs)
    layer(x)
    _randomize(layer)
    assert_matches_keras(layer, keras.layers.LayerNormalization(**kwargs), x)
    assert_grads_match_keras(layer, keras.layers.LayerNormalization(**kwargs), x, atol=2e-4)


def test_layer_normalization_rms_scaling_matches_keras(backend):
    keras = keras_module()
    x = _x(3, 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        layer = layers.LayerNormalization(rms_scaling=True)
        layer(x)
        assert [w.path.split("/")[-1] for w in layer.weights] == ["gamma"]
        _randomize(layer)
        assert_matches_keras(layer, keras.layers.LayerNormalization(rms_scaling=True), x)


def test_layer_normalization_config_and_errors(backend):
    layer = layers.LayerNormalization(axis=[1, 2], epsilon=1e-4, beta_regularizer="l1", gamma_constraint="non_neg")
    config = layer.get_config()
    assert config["axis"] == [1, 2] and config["epsilon"] == 1e-4 and config["rms_scaling"] is False
    assert config["gamma_constraint"]["class_name"] == "NonNeg"
    assert_config_round_trip(layer, _x(2, 3, 4))
    assert_symbolic_shape(layers.LayerNormalization(), (None, 4, 3))
    assert [w.path.split("/")[-1] for w in layer.weights] == ["gamma", "beta"]
    assert tuple(layer.weights[0].shape) == (3, 4)
    with pytest.raises(TypeError, match="axis"):
        layers.LayerNormalization(axis="last")
    with pytest.raises(ValueError, match="out of bounds"):
        layers.LayerNormalization(axis=2)(_x(2, 3))
    with pytest.raises(ValueError, match="out of bounds"):
        layers.LayerNormalization(axis=2).compute_output_shape((2, 3))
    with pytest.raises(ValueError, match="epsilon"):
        layers.LayerNormalization(epsilon=-1)


def test_layer_normalization_half_precision_input(backend):
    x = _x(2, 8)
    y = to_numpy(layers.LayerNormalization()(x.astype("float16")))
    assert y.dtype == np.float32
    np.testing.assert_allclose(y.mean(-1), 0.0, atol=1e-2)


# ------------------------------------------------------------------ GroupNormalization
@pytest.mark.parametrize(
    "shape,kwargs",
    [
        ((2, 8), {"groups": 4}),
        ((2, 5, 6), {"groups": 3}),
        ((2, 3, 3, 4), {"groups": 2}),
        ((2, 4, 3, 3), {"groups": 2, "axis": 1}),
        ((2, 5, 4), {"groups": -1}),
        ((2, 5, 4), {"groups": 1, "center": False, "epsilon": 1e-5}),
    ],
)
def test_group_normalization_matches_keras(backend, shape, kwargs):
    keras = keras_module()
    x = _x(*shape)
    layer = layers.GroupNormalization(**kwargs)
    layer(x)
    _randomize(layer)
    assert_matches_keras(layer, keras.layers.GroupNormalization(**kwargs), x)
    assert_grads_match_keras(layer, keras.layers.GroupNormalization(**kwargs), x, atol=2e-4)


def test_group_normalization_config_and_errors(backend):
    layer = layers.GroupNormalization(groups=-1, axis=1, gamma_regularizer="l2", name="gn")
    config = layer.get_config()
    assert config["groups"] == -1 and config["axis"] == 1
    assert_config_round_trip(layer, _x(2, 3, 4))
    assert layer.get_config()["groups"] == -1  # building does not rewrite the argument
    assert_symbolic_shape(layers.GroupNormalization(groups=2), (None, 3, 4))
    with pytest.raises(ValueError, match=r"expected a positive integer \(or `-1`"):
        layers.GroupNormalization(groups=0)
    with pytest.raises(ValueError, match="groups"):
        layers.GroupNormalization(groups=2.0)
    with pytest.raises(ValueError, match="cannot be more than the number of channels"):
        layers.GroupNormalization(groups=8)(_x(2, 4))
    with pytest.raises(ValueError, match="must divide"):
        layers.GroupNormalization(groups=3)(_x(2, 4))
    with pytest.raises(ValueError, match="batch axis"):
        layers.GroupNormalization(groups=1, axis=0)(_x(2, 4))


# ------------------------------------------------------------------ UnitNormalization
@pytest.mark.parametrize("shape,axis", [((3, 4), -1), ((2, 3, 4), [1, 2]), ((2, 3, 4), 1)])
def test_unit_normalization_matches_keras(backend, shape, axis):
    keras = keras_module()
    x = _x(*shape)
    out = assert_matches_keras(layers.UnitNormalization(axis=axis), keras.layers.UnitNormalization(axis=axis), x)
    axes = tuple(axis) if isinstance(axis, list) else axis
    np.testing.assert_allclose(np.sqrt(np.sum(out**2, axis=axes)), 1.0, atol=1e-5)
    assert_grads_match_keras(layers.UnitNormalization(axis=axis), keras.layers.UnitNormalization(axis=axis), x)


def test_unit_normalization_zeros_ints_config_errors(backend):
    np.testing.assert_array_equal(to_numpy(layers.UnitNormalization()(np.zeros((2, 3), "float32"))), 0.0)
    y = to_numpy(layers.UnitNormalization()(np.array([[3, 4]], "int32")))
    np.testing.assert_allclose(y, [[0.6, 0.8]], atol=1e-6)
    layer = layers.UnitNormalization(axis=[1, 2])
    assert layer.get_config()["axis"] == [1, 2]
    assert_config_round_trip(layer, _x(2, 3, 4))
    assert_symbolic_shape(layers.UnitNormalization(), (None, 3))
    with pytest.raises(TypeError, match="axis"):
        layers.UnitNormalization(axis=1.5)
    with pytest.raises(ValueError, match="out of bounds"):
        layers.UnitNormalization(axis=3)(_x(2, 3))
