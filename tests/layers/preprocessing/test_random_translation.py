"""RandomTranslation: fixed offsets against Keras 3, identity at inference, seeded draws, on every engine."""

import numpy as np
import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .image_helpers import check_random_layer_basics, images, keras_output, ours


@pytest.mark.parametrize("training", [False, True])
def test_standard_checks(backend, training):
    run_layer_test(
        layers.RandomTranslation,
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
    check_random_layer_basics("RandomTranslation", {"height_factor": 0.3, "width_factor": 0.3})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"height_factor": (0.2, 0.2), "width_factor": (-0.35, -0.35)},
        {"height_factor": (-0.5, -0.5), "width_factor": (0.1, 0.1), "fill_mode": "nearest", "interpolation": "nearest"},
        {"height_factor": (0.3, 0.3), "width_factor": (0.0, 0.0), "fill_mode": "constant", "fill_value": 5.0},
        {"height_factor": (0.7, 0.7), "width_factor": (-0.45, -0.45), "fill_mode": "wrap"},
    ],
    ids=["reflect", "nearest", "constant", "wrap"],
)
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("batched", [True, False], ids=["batched", "unbatched"])
def test_fixed_offset_matches_keras(backend, kwargs, data_format, batched):
    x = images(data_format, batched)
    kwargs = dict(kwargs, data_format=data_format)
    np.testing.assert_allclose(
        ours("RandomTranslation", kwargs, x, training=True),
        keras_output("RandomTranslation", kwargs, x, training=True),
        atol=5e-3,
    )


def test_offsets_stay_within_the_factor(backend):
    """A constant-filled shift of at most 25% leaves at least 75% of each row/column of pixels."""
    x = np.ones((8, 8, 8, 1), "float32")
    y = ours(
        "RandomTranslation",
        {"height_factor": 0.25, "width_factor": 0.25, "fill_mode": "constant", "interpolation": "nearest", "seed": 4},
        x,
        training=True,
    )
    kept = (y == 1).mean(axis=(1, 2, 3))
    assert np.all(kept >= 0.75 * 0.75 - 1e-6) and np.all((y == 0) | (y == 1))


def test_invalid_arguments():
    with pytest.raises(ValueError, match="height_factor"):
        layers.RandomTranslation(1.2, 0.1)
    with pytest.raises(ValueError, match="width_factor"):
        layers.RandomTranslation(0.1, (0.1, 0.2, 0.3))
