"""AlphaDropout: Keras 3's transform of kept and dropped units, mean and variance kept, noise shapes, configs."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from ..core.keras_oracle import assert_config_round_trip, keras_module


def _values(layer, x, **kwargs):
    return np.asarray(hl.ops.convert_to_numpy(layer(hl.ops.convert_to_tensor(x), **kwargs)))


def test_kept_and_dropped_units_follow_keras(backend):
    """Keras and highlevel draw different masks; each output entry must be Keras's a·x + b (kept) or Keras's
    dropped value, the same two maps Keras applies, and about ``rate`` of them dropped."""
    keras = keras_module()
    x = np.linspace(-2.0, 2.0, 4000).astype("float32")
    theirs = np.asarray(keras.layers.AlphaDropout(0.25, seed=1)(x, training=True))
    ours = _values(layers.AlphaDropout(0.25, seed=1), x, training=True)
    values, counts = np.unique(theirs, return_counts=True)
    dropped_value = values[counts.argmax()]  # every dropped unit has this one value
    kept_theirs = theirs != dropped_value
    a, b = np.polyfit(x[kept_theirs], theirs[kept_theirs], 1)  # Keras's affine map of kept units
    kept = ~np.isclose(ours, dropped_value, atol=1e-6)
    np.testing.assert_allclose(ours[kept], a * x[kept] + b, rtol=1e-5, atol=1e-5)
    assert 0.2 < 1.0 - kept.mean() < 0.3


def test_keeps_mean_and_variance_of_selu_inputs(backend):
    x = np.random.default_rng(0).normal(size=(50000,)).astype("float32")
    y = _values(layers.AlphaDropout(0.4, seed=3), x, training=True)
    assert abs(y.mean()) < 0.02 and abs(y.std() - 1.0) < 0.02
    np.testing.assert_array_equal(_values(layers.AlphaDropout(0.4), x), x)  # inference: identity


def test_noise_shape_broadcasts_the_mask(backend):
    x = np.ones((4, 50, 3), "float32")
    y = _values(layers.AlphaDropout(0.5, noise_shape=(None, 1, 3), seed=2), x, training=True)
    assert (y == y[:, :1, :]).all()  # one decision per (sample, channel)
    with pytest.raises(ValueError, match="noise_shape"):
        layers.AlphaDropout(0.5, noise_shape=(1, 3))(hl.ops.ones((2, 3, 3)), training=True)


def test_standard_checks_and_config(backend):
    run_layer_test(
        layers.AlphaDropout,
        {"rate": 0.2, "seed": 1},
        input_shape=(2, 3),
        expected_output_shape=(2, 3),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        supports_masking=True,
        run_training_check=False,
    )
    layer = layers.AlphaDropout(0.3, noise_shape=(None, 1), seed=4)
    assert layer.get_config()["rate"] == 0.3 and layer.get_config()["noise_shape"] == (None, 1)
    assert_config_round_trip(layer, np.ones((2, 3), "float32"))
    for bad in (-0.1, 1.0, "half"):
        with pytest.raises(ValueError, match="rate"):
            layers.AlphaDropout(bad)
