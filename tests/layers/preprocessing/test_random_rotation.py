"""RandomRotation: fixed angles against Keras 3, identity at inference, seeded draws, on every engine."""

import numpy as np
import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .image_helpers import check_random_layer_basics, images, keras_output, ours


@pytest.mark.parametrize("training", [False, True])
def test_standard_checks(backend, training):
    run_layer_test(
        layers.RandomRotation,
        {"factor": 0.2, "seed": 1},
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
    check_random_layer_basics("RandomRotation", {"factor": 0.2})


# A factor pair with equal ends fixes the angle, so the transform is known and Keras must agree.
@pytest.mark.parametrize(
    "kwargs",
    [
        {"factor": (0.1, 0.1)},
        {"factor": (-0.3, -0.3), "fill_mode": "constant", "fill_value": 3.0, "interpolation": "nearest"},
        {"factor": (0.25, 0.25), "fill_mode": "wrap"},
        {"factor": (0.6, 0.6), "fill_mode": "nearest"},
    ],
    ids=["reflect", "constant-nearest", "wrap", "nearest"],
)
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("batched", [True, False], ids=["batched", "unbatched"])
def test_fixed_angle_matches_keras(backend, kwargs, data_format, batched):
    x = images(data_format, batched)
    kwargs = dict(kwargs, data_format=data_format)
    np.testing.assert_allclose(
        ours("RandomRotation", kwargs, x, training=True),
        keras_output("RandomRotation", kwargs, x, training=True),
        atol=5e-3,
    )


def test_constant_fill_stays_in_range(backend):
    x = images()
    y = ours(
        "RandomRotation", {"factor": 0.5, "fill_mode": "constant", "fill_value": -1.0, "seed": 2}, x, training=True
    )
    assert y.min() >= -1.0 - 1e-4 and y.max() <= x.max() + 1e-3


def test_invalid_arguments():
    with pytest.raises(ValueError, match="factor"):
        layers.RandomRotation(1.5)
    with pytest.raises(ValueError, match="fill_mode"):
        layers.RandomRotation(0.1, fill_mode="mirror")
    with pytest.raises(ValueError, match="interpolation"):
        layers.RandomRotation(0.1, interpolation="bicubic")
