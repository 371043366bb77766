"""The shared ``run_layer_test`` checks for every convolution layer, on every backend."""

import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

CF = "channels_first"

# (class, kwargs, input shape, output shape, trainable weights)
CASES = [
    (layers.Conv1D, {"filters": 3, "kernel_size": 2, "padding": "causal"}, (2, 5, 2), (2, 5, 3), 2),
    (
        layers.Conv2D,
        {"filters": 4, "kernel_size": 3, "groups": 2, "strides": 2, "kernel_regularizer": "l2"},
        (2, 5, 5, 2),
        (2, 2, 2, 4),
        2,
    ),
    (
        layers.Conv3D,
        {"filters": 2, "kernel_size": 2, "use_bias": False, "data_format": CF},
        (1, 2, 3, 3, 3),
        (1, 2, 2, 2, 2),
        1,
    ),
    (
        layers.Conv1DTranspose,
        {"filters": 2, "kernel_size": 3, "strides": 2, "padding": "same"},
        (2, 3, 2),
        (2, 6, 2),
        2,
    ),
    (
        layers.Conv2DTranspose,
        {"filters": 2, "kernel_size": 2, "strides": 2, "output_padding": 1, "data_format": CF},
        (1, 3, 2, 2),
        (1, 2, 5, 5),
        2,
    ),
    (
        layers.Conv3DTranspose,
        {"filters": 2, "kernel_size": 2, "activation": "relu"},
        (1, 2, 2, 2, 2),
        (1, 3, 3, 3, 2),
        2,
    ),
    (layers.DepthwiseConv1D, {"kernel_size": 3, "depth_multiplier": 2, "padding": "same"}, (2, 5, 2), (2, 5, 4), 2),
    (layers.DepthwiseConv2D, {"kernel_size": 2, "data_format": CF}, (1, 3, 4, 4), (1, 3, 3, 3), 2),
    (layers.SeparableConv1D, {"filters": 3, "kernel_size": 2, "strides": 2}, (2, 6, 2), (2, 3, 3), 3),
    (
        layers.SeparableConv2D,
        {"filters": 3, "kernel_size": 3, "depth_multiplier": 2, "padding": "same"},
        (1, 4, 4, 2),
        (1, 4, 4, 3),
        3,
    ),
]


@pytest.mark.parametrize(
    "cls,kwargs,input_shape,output_shape,n_trainable", CASES, ids=lambda v: v.__name__ if isinstance(v, type) else None
)
def test_run_layer_test(backend, cls, kwargs, input_shape, output_shape, n_trainable):
    expected_losses = 1 if kwargs.get("kernel_regularizer") else 0
    run_layer_test(
        cls,
        kwargs,
        input_shape=input_shape,
        expected_output_shape=output_shape,
        expected_num_trainable_weights=n_trainable,
        expected_num_non_trainable_weights=0,
        expected_num_losses=expected_losses,
        atol=1e-5,
        rtol=1e-5,
    )
