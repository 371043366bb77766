"""RMSNormalization vs Keras 3: outputs and gradients, configs, the standard layer checks, errors and a fit."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from ..core.keras_oracle import (
    assert_config_round_trip,
    assert_grads_match_keras,
    assert_matches_keras,
    assert_symbolic_shape,
    keras_module,
)

RNG = np.random.default_rng(3)


def _x(*shape):
    return (RNG.normal(size=shape) * 1.5 + 0.3).astype("float32")


@pytest.mark.parametrize(
    "shape,kwargs",
    [((4, 6), {}), ((2, 3, 5), {"epsilon": 1e-3}), ((2, 3, 4), {"axis": [1, 2]}), ((2, 3, 4), {"axis": [-2, -1]})],
)
def test_matches_keras(backend, shape, kwargs):
    keras = keras_module()
    x = _x(*shape)
    layer = layers.RMSNormalization(**kwargs)
    layer(x)
    layer.set_weights([RNG.normal(size=tuple(w.shape)).astype("float32") for w in layer.weights])
    assert_matches_keras(layer, keras.layers.RMSNormalization(**kwargs), x)
    assert_grads_match_keras(layer, keras.layers.RMSNormalization(**kwargs), x, atol=2e-4)


def test_standard_checks(backend):
    run_layer_test(
        layers.RMSNormalization,
        {"axis": -1},
        input_shape=(2, 3, 4),
        expected_output_shape=(2, 3, 4),
        expected_num_trainable_weights=1,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
        supports_masking=True,
        atol=1e-5,
        rtol=1e-5,
    )


def test_config_shape_and_errors(backend):
    layer = layers.RMSNormalization(axis=[1, 2], epsilon=1e-4)
    assert layer.get_config()["axis"] == [1, 2] and layer.get_config()["epsilon"] == 1e-4
    assert_config_round_trip(layer, _x(2, 3, 4))
    assert [w.path.split("/")[-1] for w in layer.weights] == ["scale"] and tuple(layer.weights[0].shape) == (3, 4)
    assert_symbolic_shape(layers.RMSNormalization(), (None, 4, 3))
    with pytest.raises(TypeError, match="axis"):
        layers.RMSNormalization(axis="last")
    with pytest.raises(ValueError, match="epsilon"):
        layers.RMSNormalization(epsilon=-1.0)
    with pytest.raises(ValueError, match="out of bounds"):
        layers.RMSNormalization(axis=2)(_x(2, 3))


def test_output_has_unit_rms_times_scale(backend):
    x = _x(5, 8)
    y = hl.ops.convert_to_numpy(layers.RMSNormalization(epsilon=0.0)(x))
    np.testing.assert_allclose(np.sqrt(np.mean(y**2, axis=-1)), np.ones(5), rtol=1e-5)


def test_fit_learns(backend):
    hl.utils.set_random_seed(0)
    x = _x(64, 6)
    y = (x @ RNG.normal(size=(6, 1))).astype("float32")
    model = hl.Sequential([hl.Input((6,)), layers.Dense(16), layers.RMSNormalization(), layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.Adam(0.02), loss="mse")
    start = float(model.evaluate(x, y, verbose=0))
    model.fit(x, y, batch_size=16, epochs=15, verbose=0)
    assert float(model.evaluate(x, y, verbose=0)) < 0.5 * start
