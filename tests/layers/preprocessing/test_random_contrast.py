"""RandomContrast: fixed factors against Keras 3, identity at inference, seeded draws, on every engine."""

import numpy as np
import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .image_helpers import check_random_layer_basics, images, keras_output, ours


@pytest.mark.parametrize("training", [False, True])
def test_standard_checks(backend, training):
    run_layer_test(
        layers.RandomContrast,
        {"factor": 0.5, "value_range": (-10, 10), "seed": 1},
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
    check_random_layer_basics("RandomContrast", {"factor": 0.5})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"factor": (-0.3, 0.3)},
        {"factor": (-0.9, 0.9), "value_range": (0, 100)},
        {"factor": (-0.1, 0.1), "value_range": (50, 200)},
    ],
    ids=["up", "clipped", "small"],
)
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("batched", [True, False], ids=["batched", "unbatched"])
def test_fixed_factor_matches_keras(backend, kwargs, data_format, batched):
    """``(-a, a)`` draws from ``[1 + a, 1 + a]``: a known contrast factor."""
    x = images(data_format, batched)
    kwargs = dict(kwargs, data_format=data_format)
    np.testing.assert_allclose(
        ours("RandomContrast", kwargs, x, training=True),
        keras_output("RandomContrast", kwargs, x, training=True),
        atol=5e-3,
    )


def test_output_stays_in_value_range_and_keeps_means(backend):
    x = images() / 255.0
    y = ours("RandomContrast", {"factor": (0.0, 0.5), "value_range": (0, 1), "seed": 3}, x, training=True)
    assert y.min() >= 0.0 and y.max() <= 1.0
    wide = ours("RandomContrast", {"factor": (0.0, 0.5), "value_range": (-100, 100), "seed": 3}, x, training=True)
    np.testing.assert_allclose(wide.mean(axis=(1, 2)), x.mean(axis=(1, 2)), atol=1e-5)
    spread = wide.std(axis=(1, 2)) / x.std(axis=(1, 2))
    assert np.all(spread >= 1.0 - 1e-5) and np.all(spread <= 1.5 + 1e-5)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="factor"):
        layers.RandomContrast(1.5)
    with pytest.raises(ValueError, match="factor"):
        layers.RandomContrast((2.0, 3.0))
    with pytest.raises(ValueError, match="value_range"):
        layers.RandomContrast(0.2, value_range=(1, 0))
