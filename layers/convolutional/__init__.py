"""Convolution layers: Conv1D/2D/3D, their transposes, depthwise and depthwise-separable convolutions."""

from .conv1d import Conv1D
from .conv1d_transpose import Conv1DTranspose
from .conv2d import Conv2D
from .conv2d_transpose import Conv2DTranspose
from .conv3d import Conv3D
from .conv3d_transpose import Conv3DTranspose
from .depthwise_conv1d import DepthwiseConv1D
from .depthwise_conv2d import DepthwiseConv2D
from .separable_conv1d import SeparableConv1D
from .separable_conv2d import SeparableConv2D

# Keras' alias spellings.
Convolution1D = Conv1D
Convolution2D = Conv2D
Convolution3D = Conv3D
Convolution1DTranspose = Conv1DTranspose
Convolution2DTranspose = Conv2DTranspose
Convolution3DTranspose = Conv3DTranspose
SeparableConvolution1D = SeparableConv1D
SeparableConvolution2D = SeparableConv2D

__all__ = [
    "Conv1D",
    "Conv1DTranspose",
    "Conv2D",
    "Conv2DTranspose",
    "Conv3D",
    "Conv3DTranspose",
    "Convolution1D",
    "Convolution1DTranspose",
    "Convolution2D",
    "Convolution2DTranspose",
    "Convolution3D",
    "Convolution3DTranspose",
    "DepthwiseConv1D",
    "DepthwiseConv2D",
    "SeparableConv1D",
    "SeparableConv2D",
    "SeparableConvolution1D",
    "SeparableConvolution2D",
]
