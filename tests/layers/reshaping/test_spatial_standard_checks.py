"""The shared ``run_layer_test`` checks for the ZeroPadding, Cropping and UpSampling layers, on every backend."""

import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

CF = "channels_first"

CASES = [
    (layers.ZeroPadding1D, {"padding": (0, 2)}, (2, 3, 2), (2, 5, 2)),
    (layers.ZeroPadding2D, {"data_format": CF}, (1, 2, 3, 3), (1, 2, 5, 5)),
    (layers.ZeroPadding3D, {"padding": (1, 0, 2)}, (1, 2, 2, 2, 1), (1, 4, 2, 6, 1)),
    (layers.Cropping1D, {"cropping": 1}, (2, 4, 2), (2, 2, 2)),
    (layers.Cropping2D, {"cropping": ((1, 0), (1, 1))}, (1, 3, 4, 2), (1, 2, 2, 2)),
    (layers.Cropping3D, {"data_format": CF}, (1, 2, 3, 3, 4), (1, 2, 1, 1, 2)),
    (layers.UpSampling1D, {"size": 3}, (2, 2, 2), (2, 6, 2)),
    (layers.UpSampling2D, {"interpolation": "bilinear"}, (1, 2, 3, 2), (1, 4, 6, 2)),
    (layers.UpSampling3D, {"size": (1, 2, 1), "data_format": CF}, (1, 2, 2, 2, 2), (1, 2, 2, 4, 2)),
]


@pytest.mark.parametrize(
    "cls,kwargs,input_shape,output_shape", CASES, ids=lambda v: v.__name__ if isinstance(v, type) else None
)
def test_run_layer_test(backend, cls, kwargs, input_shape, output_shape):
    run_layer_test(
        cls,
        kwargs,
        input_shape=input_shape,
        expected_output_shape=output_shape,
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
    )
