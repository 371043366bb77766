"""The shared ``run_layer_test`` checks for every regularization layer, on every backend (inference mode:
the random layers are the identity there)."""

import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

CASES = [
    (layers.Dropout, {"rate": 0.5, "seed": 1}, (2, 3), 0),
    (layers.Dropout, {"rate": 0.2, "noise_shape": (None, 1, 3)}, (2, 4, 3), 0),
    (layers.SpatialDropout1D, {"rate": 0.5}, (2, 4, 3), 0),
    (layers.SpatialDropout2D, {"rate": 0.5, "data_format": "channels_first"}, (2, 3, 4, 4), 0),
    (layers.SpatialDropout3D, {"rate": 0.5}, (2, 2, 2, 2, 3), 0),
    (layers.GaussianNoise, {"stddev": 0.1, "seed": 3}, (2, 3), 0),
    (layers.GaussianDropout, {"rate": 0.1}, (2, 3), 0),
    (layers.ActivityRegularization, {"l1": 0.1, "l2": 0.01}, (2, 3), 1),
]


@pytest.mark.parametrize(
    "cls,kwargs,input_shape,n_losses", CASES, ids=lambda v: v.__name__ if isinstance(v, type) else None
)
def test_run_layer_test(backend, cls, kwargs, input_shape, n_losses):
    run_layer_test(
        cls,
        kwargs,
        input_shape=input_shape,
        expected_output_shape=input_shape,
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_num_losses=n_losses,
        expected_output_dtype="float32",
        supports_masking=True,
    )
