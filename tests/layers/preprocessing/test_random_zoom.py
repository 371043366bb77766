"""RandomZoom: fixed zooms against Keras 3, identity at inference, seeded draws, on every engine."""

import numpy as np
import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .image_helpers import check_random_layer_basics, images, keras_output, ours


@pytest.mark.parametrize("training", [False, True])
def test_standard_checks(backend, training):
    run_layer_test(
        layers.RandomZoom,
        {"height_factor": 0.2, "width_factor": (-0.3, 0.1), "seed": 1},
        input_shape=(2, 5, 6, 3),
        expected_output_shape=(2, 5, 6, 3),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
        call_kwargs={"training": training},
        run_config_check=not training,
        atol=1e-5,
        rtol=1e-5,
    )


def test_random_basics(backend):
    check_random_layer_basics("RandomZoom", {"height_factor": 0.3})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"height_factor": (0.3, 0.3)},
        {"height_factor": (-0.4, -0.4), "width_factor": (0.2, 0.2), "fill_mode": "constant", "fill_value": 2.0},
        {"height_factor": (0.5, 0.5), "width_factor": (-0.5, -0.5), "fill_mode": "wrap", "interpolation": "nearest"},
        {"height_factor": (1.0, 1.0), "fill_mode": "nearest"},
    ],
    ids=["reflect", "constant", "wrap-nearest", "nearest"],
)
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("batched", [True, False], ids=["batched", "unbatched"])
def test_fixed_zoom_matches_keras(backend, kwargs, data_format, batched):
    x = images(data_format, batched)
    kwargs = dict(kwargs, data_format=data_format)
    np.testing.assert_allclose(
        ours("RandomZoom", kwargs, x, training=True), keras_output("RandomZoom", kwargs, x, training=True), atol=5e-3
    )


def test_zoom_in_keeps_values_in_range(backend):
    x = images()
    y = ours("RandomZoom", {"height_factor": (-0.5, -0.1), "seed": 5}, x, training=True)
    assert y.min() >= x.min() - 1e-3 and y.max() <= x.max() + 1e-3


def test_invalid_arguments():
    with pytest.raises(ValueError, match="height_factor"):
        layers.RandomZoom(-1.0)
    with pytest.raises(ValueError, match="width_factor"):
        layers.RandomZoom(0.1, width_factor=2.0)
