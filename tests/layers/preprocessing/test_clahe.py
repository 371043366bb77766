"""ContrastLimitedAdaptiveHistogramEqualization: deterministic, so compared with Keras 3 output for output.

Keras's TensorFlow and JAX backends agree with each other (and with this layer); its PyTorch backend differs
whenever ``clip_limit > 0``: there the histograms are integer tensors, so the clip limit is truncated to an
integer (to 0 for tiles of fewer than 64 pixels at the default limit) before clipping. The TensorFlow backend,
the one these tests run Keras on, is the reference.
"""

import keras
import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .categorical_oracle import save_and_load
from .image_helpers import to_numpy

NAME = "ContrastLimitedAdaptiveHistogramEqualization"

#: Two 10x13 images with 2 channels in [0, 255): neither side divides evenly into the tile grids below.
X = (np.random.default_rng(4).random((2, 10, 13, 2)) * 255).astype("float32")


def _keras(x, **kwargs):
    return np.asarray(keras.ops.convert_to_numpy(getattr(keras.layers, NAME)(**kwargs)(x)))


@pytest.mark.parametrize("training", [False, True])
def test_standard_checks(backend, training):
    run_layer_test(
        getattr(layers, NAME),
        {"tile_grid_size": (2, 2)},
        input_shape=(2, 8, 8, 3),
        expected_output_shape=(2, 8, 8, 3),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
        call_kwargs={"training": training},
        run_training_check=False,
    )


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"tile_grid_size": (3, 4), "clip_limit": 2.0},
        {"tile_grid_size": (2, 2), "clip_limit": 0.0},
        {"tile_grid_size": (1, 1), "clip_limit": 40.0},
        {"tile_grid_size": (4, 4), "value_range": (0, 1)},
        {"tile_grid_size": (2, 3), "data_format": "channels_first"},
    ],
)
def test_matches_keras(backend, kwargs):
    x = X / 255.0 if kwargs.get("value_range") == (0, 1) else X
    if kwargs.get("data_format") == "channels_first":
        x = np.transpose(x, (0, 3, 1, 2))
    got = to_numpy(getattr(layers, NAME)(**kwargs)(hl.ops.convert_to_tensor(x)))
    scale = 1.0 if kwargs.get("value_range") != (0, 1) else 1 / 255.0
    np.testing.assert_allclose(got, _keras(x, **kwargs), rtol=1e-5, atol=1e-3 * scale)


def test_unbatched_and_inference_match_keras(backend):
    layer = getattr(layers, NAME)(tile_grid_size=(2, 2))
    want = _keras(X[0], tile_grid_size=(2, 2))
    np.testing.assert_allclose(to_numpy(layer(X[0])), want, rtol=1e-5, atol=1e-3)
    # Deterministic, and applied at inference too, as in Keras.
    np.testing.assert_allclose(to_numpy(layer(X[0], training=False)), want, rtol=1e-5, atol=1e-3)


def test_raises_the_contrast_of_a_dull_image(backend):
    # Values crowded into [100, 120): equalization spreads them over most of [0, 255].
    x = (100 + np.random.default_rng(5).random((1, 16, 16, 1)) * 20).astype("float32")
    y = to_numpy(getattr(layers, NAME)(tile_grid_size=(2, 2), clip_limit=0.0)(x))
    assert y.std() > 4 * x.std()
    assert y.min() >= 0.0 and y.max() <= 255.0
    # The order of the values within a tile is kept.
    tile_x, tile_y = x[0, :8, :8, 0].ravel(), y[0, :8, :8, 0].ravel()
    order = np.argsort(tile_x)
    assert np.all(np.diff(tile_y[order]) >= -30.0)


def test_in_tf_data_map(backend):
    tf = pytest.importorskip("tensorflow")
    layer = getattr(layers, NAME)(tile_grid_size=(2, 3))
    mapped = np.concatenate([np.asarray(v) for v in tf.data.Dataset.from_tensor_slices(X).batch(4).map(layer)])
    np.testing.assert_allclose(mapped, _keras(X, tile_grid_size=(2, 3)), rtol=1e-5, atol=1e-3)


def test_config_and_saved_model_round_trip(backend, tmp_path):
    layer = getattr(layers, NAME)(value_range=(0, 1), clip_limit=3.0, tile_grid_size=(2, 4))
    config = layer.get_config()
    assert {k: config[k] for k in ("value_range", "clip_limit", "tile_grid_size")} == {
        "value_range": [0.0, 1.0],
        "clip_limit": 3.0,
        "tile_grid_size": [2, 4],
    }
    assert getattr(layers, NAME).from_config(config).get_config() == config
    model = hl.Sequential([hl.Input((8, 8, 3)), layer, layers.Flatten(), layers.Dense(2)])
    x = np.random.default_rng(6).random((2, 8, 8, 3)).astype("float32")
    loaded = save_and_load(model, tmp_path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), atol=1e-5)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="tile_grid_size"):
        getattr(layers, NAME)(tile_grid_size=(0, 2))
    with pytest.raises(ValueError, match="tile_grid_size"):
        getattr(layers, NAME)(tile_grid_size=8)
    with pytest.raises(ValueError, match="clip_limit"):
        getattr(layers, NAME)(clip_limit=-1.0)
    with pytest.raises(ValueError, match="value_range"):
        getattr(layers, NAME)(value_range=(1, 1))
