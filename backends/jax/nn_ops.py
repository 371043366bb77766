"""Activations, softmax, convolution, pooling and moments of the JAX backend.

Convolutions run on ``jax.lax.conv_general_dilated`` with the Keras kernel layouts of the contract:
``conv`` kernels are (*spatial, in_channels // groups, out_channels) (``feature_group_count`` = groups),
``depthwise_conv`` kernels (*spatial, in_channels, multiplier) are reshaped to a grouped convolution with
one group per input channel, and ``conv_transpose`` kernels are (*spatial, out_channels, in_channels).
"same" padding is TensorFlow's (the odd extra row or column goes after), which is also XLA's.
"""

import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from highlevel.backends.contract.axes import canonical_axes
from highlevel.backends.contract.spatial import canonical_data_format, canonical_padding, spatial_tuple

from . import conversion as cv

_SPATIAL_LETTERS = {1: "W", 2: "HW", 3: "DHW"}


def _spatial_dims(inputs, op):
    n = inputs.ndim - 2
    if n not in _SPATIAL_LETTERS:
        raise ValueError(
            f"{op} works on 1, 2 or 3 spatial dimensions: inputs of rank 3, 4 or 5 (batch, *spatial, "
            f"channels); received inputs of shape {tuple(inputs.shape)}."
        )
    return n


def _dimension_numbers(n, data_format):
    sp = _SPATIAL_LETTERS[n]
    lhs = "N" + sp + "C" if data_format == "channels_last" else "NC" + sp
    return (lhs, sp + "IO", lhs)


def _channels(inputs, data_format):
    return inputs.shape[-1] if data_format == "channels_last" else inputs.shape[1]


def _conv_operands(inputs, kernel):
    """Inputs and kernel in one float dtype (the contract's promotion, ints computing in floatx)."""
    return cv.promote_float(inputs, kernel)


def _transpose_pads(kernel_size, stride, dilation, padding, output_padding):
    """The (before, after) padding of the stride-dilated input that gives Keras 3's output size.

    The transposed convolution is a stride-1 convolution of the input dilated by ``stride`` with the
    flipped kernel. Its output length is ``(in - 1) * stride + 1 + before + after - k + 1`` where ``k``
    is the dilated kernel size. Keras sizes the output as ``(in - 1) * stride + max(k, stride)`` for
    "valid" and ``in * stride`` for "same", ``output_padding`` adding extra rows at the end.
    """
    k = (kernel_size - 1) * dilation + 1
    if padding == "valid":
        extra = max(k, stride) - k if output_padding is None else output_padding
        return k - 1, k - 1 + extra
    if output_padding is None:
        total = stride + k - 2  # output length in * stride
    else:
        total = k + k % 2 - 2 + output_padding  # (in - 1) * stride + k % 2 + output_padding
    before = min(total // 2 + total % 2, k - 1)
    return before, total - before


class NNOps:
    """Implements :class:`~highlevel.backends.contract.NNContract` with JAX."""

    # --------------------------------------------------------------- activations
    def relu(self, x):
        return jax.nn.relu(cv.convert(x))

    def relu6(self, x):
        # jax.nn.relu6 clips with a weak float 6.0: integers would become float64 under x64
        return jax.nn.relu6(cv.to_float(x))

    def sigmoid(self, x):
        return jax.nn.sigmoid(cv.to_float(x))

    def softplus(self, x):
        return jax.nn.softplus(cv.to_float(x))

    def softsign(self, x):
        return jax.nn.soft_sign(cv.to_float(x))

    def silu(self, x):
        return jax.nn.silu(cv.to_float(x))

    def gelu(self, x, approximate=True):
        return jax.nn.gelu(cv.to_float(x), approximate=approximate)

    def elu(self, x, alpha=1.0):
        x = cv.to_float(x)
        return jax.nn.elu(x, alpha=cv.convert(alpha, cv.dtype_name(x)))

    def selu(self, x):
        return jax.nn.selu(cv.to_float(x))

    def leaky_relu(self, x, negative_slope=0.2):
        x = cv.to_float(x)
        return jax.nn.leaky_relu(x, negative_slope=cv.convert(negative_slope, cv.dtype_name(x)))

    def hard_sigmoid(self, x):
        return jax.nn.hard_sigmoid(cv.to_float(x))

    def softmax(self, x, axis=-1):
        x = cv.to_float(x)
        return jax.nn.softmax(x, axis=canonical_axes(axis, x.ndim) if axis is not None else None)

    def log_softmax(self, x, axis=-1):
        x = cv.to_float(x)
        return jax.nn.log_softmax(x, axis=canonical_axes(axis, x.ndim) if axis is not None else None)

    # -------------------------------------------------------------- convolution
    def conv(self, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
        inputs, kernel = _conv_operands(inputs, kernel)
        data_format, padding = canonical_data_format(data_format), canonical_padding(padding)
        n = _spatial_dims(inputs, "conv")
        if kernel.ndim != n + 2:
            raise ValueError(
                f"conv kernel must have rank {n + 2} (*spatial, in_channels // groups, out_channels) for "
                f"inputs of shape {tuple(inputs.shape)}; received kernel of shape {tuple(kernel.shape)}."
            )
        in_channels, kernel_in = _channels(inputs, data_format), kernel.shape[-2]
        if in_channels % kernel_in or kernel.shape[-1] % (in_channels // kernel_in):
            raise ValueError(
                f"conv: the inputs have {in_channels} channels, which is not a multiple of the kernel's "
                f"input channels {kernel_in} (kernel shape {tuple(kernel.shape)}), or the kernel's "
                f"{kernel.shape[-1]} output channels do not divide into {in_channels // max(kernel_in, 1)} groups."
            )
        return lax.conv_general_dilated(
            inputs,
            kernel,
            window_strides=spatial_tuple(strides, n),
            padding=padding.upper(),
            rhs_dilation=spatial_tuple(dilation_rate, n),
            dimension_numbers=_dimension_numbers(n, data_format),
            feature_group_count=in_channels // kernel_in,
        )

    def depthwise_conv(self, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
        inputs, kernel = _conv_operands(inputs, kernel)
        data_format, padding = canonical_data_format(data_format), canonical_padding(padding)
        n = _spatial_dims(inputs, "depthwise_conv")
        in_channels = _channels(inputs, data_format)
        if kernel.ndim != n + 2 or kernel.shape[-2] != in_channels:
            raise ValueError(
                f"depthwise_conv kernel must have shape (*spatial, in_channels={in_channels}, multiplier) with "
                f"{n} spatial dims; received kernel of shape {tuple(kernel.shape)}."
            )
        # (*spatial, C, M) -> (*spatial, 1, C * M): output channel c * M + m comes from input channel c
        kernel = kernel.reshape(kernel.shape[:-2] + (1, in_channels * kernel.shape[-1]))
        return lax.conv_general_dilated(
            inputs,
            kernel,
            window_strides=spatial_tuple(strides, n),
            padding=padding.upper(),
            rhs_dilation=spatial_tuple(dilation_rate, n),
            dimension_numbers=_dimension_numbers(n, data_format),
            feature_group_count=in_channels,
        )

    def conv_transpose(
        self, inputs, kernel, strides, padding="valid", output_padding=None, data_format=None, dilation_rate=1
    ):
        inputs, kernel = _conv_operands(inputs, kernel)
        data_format, padding = canonical_data_format(data_format), canonical_padding(padding)
        n = _spatial_dims(inputs, "conv_transpose")
        in_channels = _channels(inputs, data_format)
        if kernel.ndim != n + 2 or kernel.shape[-1] != in_channels:
            raise ValueError(
                f"conv_transpose kernel must have shape (*spatial, out_channels, in_channels={in_channels}); "
                f"received kernel of shape {tuple(kernel.shape)}."
            )
        strides = spatial_tuple(strides, n)
        dilation = spatial_tuple(dilation_rate, n)
        out_pad = (None,) * n if output_padding is None else spatial_tuple(output_padding, n)
        pads = [_transpose_pads(kernel.shape[i], strides[i], dilation[i], padding, out_pad[i]) for i in range(n)]
        # Flip the spatial axes and swap (out, in) -> (in, out): the transpose of conv's kernel.
        flipped = jnp.flip(kernel, axis=tuple(range(n)))
        flipped = jnp.swapaxes(flipped, -1, -2)
        return lax.conv_general_dilated(
            inputs,
            flipped,
            window_strides=(1,) * n,
            padding=pads,
            lhs_dilation=strides,
            rhs_dilation=dilation,
            dimension_numbers=_dimension_numbers(n, data_format),
        )

    # ------------------------------------------------------------------ pooling
    def _window(self, inputs, pool_size, strides, data_format, op):
        n = _spatial_dims(inputs, op)
        pool = spatial_tuple(pool_size, n)
        strides = pool if strides is None else spatial_tuple(strides, n)
        if data_format == "channels_last":
            return n, (1,) + pool + (1,), (1,) + strides + (1,)
        return n, (1, 1) + pool, (1, 1) + strides

    def max_pool(self, inputs, pool_size, strides=None, padding="valid", data_format=None):
        inputs = cv.convert(inputs)
        data_format, padding = canonical_data_format(data_format), canonical_padding(padding)
        _, window, strides = self._window(inputs, pool_size, strides, data_format, "max_pool")
        # numpy (concrete) init values: lax then recognises the max monoid and uses its differentiable
        # reduce_window_max primitive, even under jit
        if cv.is_float(inputs):
            init = np.array(-np.inf, inputs.dtype)
        elif cv.dtype_name(inputs) == "bool":
            init = np.array(False)
        else:
            init = np.array(np.iinfo(inputs.dtype).min, inputs.dtype)
        return lax.reduce_window(inputs, init, lax.max, window, strides, padding.upper())

    def average_pool(self, inputs, pool_size, strides=None, padding="valid", data_format=None):
        inputs = cv.to_float(inputs)
        data_format, padding = canonical_data_format(data_format), canonical_padding(padding)
        _, window, strides = self._window(inputs, pool_size, strides, data_format, "average_pool")
        zero = np.array(0, inputs.dtype)  # concrete, so lax uses the differentiable add monoid
        sums = lax.reduce_window(inputs, zero, lax.add, window, strides, padding.upper())
        if padding == "valid":
            return sums / jnp.array(math.prod(window), inputs.dtype)
        # "same": divide by the number of real (unpadded) entries in each window; the count depends only
        # on the spatial shape, so pool a tensor of ones of size 1 on the batch and channel axes.
        ones_shape = tuple(d if w != 1 else 1 for d, w in zip(inputs.shape, window))
        counts = lax.reduce_window(jnp.ones(ones_shape, inputs.dtype), zero, lax.add, window, strides, padding.upper())
        return sums / counts

    # ------------------------------------------------------------------ moments
    def moments(self, x, axes, keepdims=False):
        x = cv.to_float(x)
        axes = canonical_axes(axes, x.ndim)
        # half precision accumulates badly: compute in float32 and cast back
        low = cv.dtype_name(x) in ("float16", "bfloat16")
        xc = x.astype(jnp.float32) if low else x
        mean = jnp.mean(xc, axis=axes, keepdims=True)
        var = jnp.mean(jnp.square(xc - mean), axis=axes, keepdims=True)
        if not keepdims:
            mean, var = jnp.squeeze(mean, axes), jnp.squeeze(var, axes)
        if low:
            mean, var = mean.astype(x.dtype), var.astype(x.dtype)
        return mean, var
