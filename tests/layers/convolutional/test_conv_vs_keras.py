"""Every convolution layer against real Keras 3 (same weights, same inputs) on every backend: outputs, weight
gradients and input gradients, over strides, "same"/"causal" padding, dilation, groups, output_padding,
depth multipliers, activations and channels_first."""

import numpy as np
import pytest

import highlevel as hl
from tests.layers.convolutional.keras_reference import assert_matches_keras, case_data

CF = "channels_first"

CASES = [
    ("Conv1D", {"filters": 4, "kernel_size": 3}, (2, 7, 3)),
    ("Conv1D", {"filters": 4, "kernel_size": 3, "padding": "causal", "dilation_rate": 2}, (2, 7, 3)),
    ("Conv1D", {"filters": 4, "kernel_size": 3, "groups": 2, "strides": 2, "padding": "same"}, (2, 7, 4)),
    ("Conv1D", {"filters": 2, "kernel_size": 2, "padding": "causal", "data_format": CF}, (2, 3, 6)),
    ("Conv2D", {"filters": 3, "kernel_size": 3, "strides": 2, "padding": "same", "activation": "relu"}, (2, 6, 5, 2)),
    ("Conv2D", {"filters": 4, "kernel_size": (2, 3), "groups": 2, "dilation_rate": (2, 1)}, (1, 6, 6, 4)),
    (
        "Conv2D",
        {"filters": 3, "kernel_size": 3, "strides": (2, 1), "padding": "same", "data_format": CF, "use_bias": False},
        (1, 2, 6, 5),
    ),
    ("Conv3D", {"filters": 2, "kernel_size": 2, "padding": "same", "activation": "tanh"}, (1, 3, 4, 3, 2)),
    ("Conv3D", {"filters": 2, "kernel_size": (2, 1, 2), "strides": 2, "data_format": CF}, (1, 2, 4, 3, 4)),
    ("Conv1DTranspose", {"filters": 3, "kernel_size": 3, "strides": 2}, (2, 4, 2)),
    (
        "Conv1DTranspose",
        {"filters": 2, "kernel_size": 3, "strides": 2, "padding": "same", "output_padding": 1},
        (1, 4, 2),
    ),
    ("Conv2DTranspose", {"filters": 3, "kernel_size": 3, "strides": 2, "padding": "same"}, (1, 3, 4, 2)),
    ("Conv2DTranspose", {"filters": 2, "kernel_size": 3, "strides": 2, "data_format": CF}, (1, 2, 3, 4)),
    (
        "Conv2DTranspose",
        {"filters": 2, "kernel_size": (2, 3), "strides": (3, 2), "output_padding": (2, 1)},
        (1, 2, 3, 2),
    ),
    ("Conv3DTranspose", {"filters": 2, "kernel_size": 2, "strides": 2}, (1, 2, 2, 2, 2)),
    (
        "Conv3DTranspose",
        {"filters": 2, "kernel_size": 3, "strides": (1, 2, 1), "padding": "same", "data_format": CF},
        (1, 2, 2, 2, 3),
    ),
    ("DepthwiseConv1D", {"kernel_size": 3, "depth_multiplier": 2, "padding": "same", "strides": 2}, (2, 7, 3)),
    ("DepthwiseConv1D", {"kernel_size": 2, "dilation_rate": 2, "data_format": CF}, (1, 3, 6)),
    ("DepthwiseConv2D", {"kernel_size": 3, "depth_multiplier": 2}, (1, 5, 5, 2)),
    ("DepthwiseConv2D", {"kernel_size": 3, "dilation_rate": 2, "padding": "same", "data_format": CF}, (1, 2, 6, 6)),
    ("SeparableConv1D", {"filters": 4, "kernel_size": 3, "depth_multiplier": 2}, (2, 7, 3)),
    (
        "SeparableConv1D",
        {"filters": 2, "kernel_size": 3, "strides": 2, "padding": "same", "data_format": CF},
        (1, 3, 7),
    ),
    (
        "SeparableConv2D",
        {"filters": 4, "kernel_size": 3, "strides": 2, "padding": "same", "activation": "sigmoid"},
        (1, 5, 5, 2),
    ),
    (
        "SeparableConv2D",
        {"filters": 3, "kernel_size": 2, "dilation_rate": 2, "depth_multiplier": 2, "data_format": CF},
        (1, 2, 5, 5),
    ),
]


def _id(case):
    name, kwargs, _ = case
    return name + "-" + "-".join(f"{k}={v}" for k, v in kwargs.items()).replace(" ", "")


@pytest.mark.parametrize("name,kwargs,shape", CASES, ids=[_id(c) for c in CASES])
def test_matches_keras(backend, name, kwargs, shape):
    layer, out = assert_matches_keras(name, kwargs, shape)
    assert out.shape == layer.compute_output_shape(shape)


@pytest.mark.parametrize("data_format", ["channels_last", CF])
def test_dilated_conv2d_transpose_matches_torch(backend, data_format):
    """TensorFlow's CPU kernels have no dilated transposed convolution, so Keras cannot be the oracle here:
    PyTorch's ``conv_transpose2d`` (also the gradient of a convolution) is."""
    import torch

    x, _ = case_data((1, 3, 4, 2), seed=3)
    layer = hl.layers.Conv2DTranspose(2, 3, dilation_rate=2, data_format=data_format)
    x_in = x if data_format == "channels_last" else np.moveaxis(x, -1, 1)
    out = np.asarray(hl.ops.convert_to_numpy(layer(hl.ops.convert_to_tensor(x_in))))
    kernel, bias = (np.asarray(w) for w in layer.get_weights())
    want = torch.nn.functional.conv_transpose2d(
        torch.from_numpy(np.moveaxis(x, -1, 1).copy()),
        torch.from_numpy(kernel.transpose(3, 2, 0, 1).copy()),
        torch.from_numpy(bias.copy()),
        dilation=2,
    ).numpy()
    if data_format == "channels_last":
        want = np.moveaxis(want, 1, -1)
    assert out.shape == want.shape == layer.compute_output_shape(x_in.shape)
    np.testing.assert_allclose(out, want, atol=1e-5, rtol=1e-5)
