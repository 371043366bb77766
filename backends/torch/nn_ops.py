"""Neural-network ops of the torch engine: activations, softmax, convolution, pooling, moments.

Images arrive channels_last with Keras kernel layouts; torch wants channels_first and
(out, in/groups, *spatial) weights, so inputs and kernels are permuted on the way in and outputs on the
way out. "same" padding is TensorFlow's (the extra row/column goes after), which torch cannot express
when it is asymmetric: the input is then padded explicitly with ``F.pad``.
"""

import math

import torch
import torch.nn.functional as F

from highlevel.backends.contract.axes import canonical_axis, every_axis
from highlevel.backends.contract.spatial import canonical_padding, channels_first, spatial_tuple

from . import _convert as cv

_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
_MAX_POOL = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
_AVG_POOL = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}


def _spatial_rank(x, name):
    nd = x.ndim - 2
    if nd not in (1, 2, 3):
        raise ValueError(
            f"{name} needs an input of rank 3, 4 or 5 (batch, 1-3 spatial dims, channels); received shape "
            f"{tuple(x.shape)}."
        )
    return nd


# Axes counted from the front: a traced program (torch.onnx) writes a negative axis of movedim into a Transpose
# permutation, which ONNX refuses.
def _to_channels_first(x, last):
    return torch.movedim(x, x.ndim - 1, 1) if last else x


def _from_channels_first(y, last):
    return torch.movedim(y, 1, y.ndim - 1) if last else y


def _same_pads(spatial, window, strides, dilation=None):
    """TensorFlow's "same" padding: ``[(before, after), ...]`` per spatial dim, the extra one after."""
    pads = []
    for i, n in enumerate(spatial):
        d = 1 if dilation is None else dilation[i]
        k_eff = (window[i] - 1) * d + 1
        out = -(-n // strides[i])
        total = max((out - 1) * strides[i] + k_eff - n, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def _flat_pads(pads):
    """``[(before, after)] `` per spatial dim in order -> F.pad's list (last dim first)."""
    return [v for before_after in reversed(pads) for v in before_after]


def _float_operands(*xs):
    tensors, _ = cv.promote_float(*xs)
    return tensors


def _prepare_conv_input(x, window, strides, dilation, padding):
    """Pads ``x`` (channels_first) for "same"; returns ``(x, symmetric_padding_for_torch)``."""
    nd = x.ndim - 2
    if canonical_padding(padding) == "valid":
        return x, (0,) * nd
    pads = _same_pads(tuple(x.shape[2:]), window, strides, dilation)
    if all(b == a for b, a in pads):
        return x, tuple(b for b, _ in pads)
    return F.pad(x, _flat_pads(pads)), (0,) * nd


class TorchNNMixin:
    """Contract NN ops on torch."""

    # ---------------------------------------------------------------- activations
    def relu(self, x):
        t = cv.convert(x)
        if t.dtype == torch.bool:
            return t
        # torch.relu keeps NaN and has gradient 0 at 0, as jax.nn.relu
        return cv.run(torch.relu, [t])

    def relu6(self, x):
        # hardtanh's gradient is 0 at both kinks, matching jax.nn.relu6
        return F.hardtanh(cv.to_float(x), 0.0, 6.0)

    def sigmoid(self, x):
        return torch.sigmoid(cv.to_float(x))

    def softplus(self, x):
        return F.softplus(cv.to_float(x))

    def softsign(self, x):
        return F.softsign(cv.to_float(x))

    def silu(self, x):
        return F.silu(cv.to_float(x))

    def gelu(self, x, approximate=True):
        return F.gelu(cv.to_float(x), approximate="tanh" if approximate else "none")

    def elu(self, x, alpha=1.0):
        return F.elu(cv.to_float(x), alpha=float(alpha))

    def selu(self, x):
        return F.selu(cv.to_float(x))

    def leaky_relu(self, x, negative_slope=0.2):
        t = cv.to_float(x)
        # written out (not F.leaky_relu) so that the gradient at 0 is 1, as JAX's where(x >= 0, ...)
        return torch.where(t >= 0, t, t * negative_slope)

    def hard_sigmoid(self, x):
        # F.hardsigmoid's own formula, relu6(x + 3) / 6, from ops whose gradients are differentiable: its backward
        # (hardsigmoid_backward) has no derivative in torch, which stops a second derivative
        return F.relu6(cv.to_float(x) + 3.0) / 6.0

    def softmax(self, x, axis=-1):
        t = cv.to_float(x)
        if isinstance(axis, (list, tuple)):
            axes = every_axis(axis, t.ndim)
            return torch.exp(t - torch.logsumexp(t, dim=axes, keepdim=True))
        return torch.softmax(t, dim=canonical_axis(axis, t.ndim))

    def log_softmax(self, x, axis=-1):
        t = cv.to_float(x)
        if isinstance(axis, (list, tuple)):
            axes = every_axis(axis, t.ndim)
            return t - torch.logsumexp(t, dim=axes, keepdim=True)
        return torch.log_softmax(t, dim=canonical_axis(axis, t.ndim))

    # ---------------------------------------------------------------- convolution
    def conv(self, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
        x, k = _float_operands(inputs, kernel)
        nd = _spatial_rank(x, "conv")
        if k.ndim != nd + 2:
            raise ValueError(
                f"conv kernel must have rank {nd + 2} (*spatial, in_channels // groups, out_channels) for an "
                f"input of shape {tuple(x.shape)}; received kernel shape {tuple(k.shape)}."
            )
        last = not channels_first(data_format)
        x = _to_channels_first(x, last)
        in_channels, kernel_in, out_channels = x.shape[1], k.shape[-2], k.shape[-1]
        if kernel_in == 0 or in_channels % kernel_in:
            raise ValueError(
                f"The input has {in_channels} channels, which is not a multiple of the kernel's input channels "
                f"{kernel_in} (kernel shape {tuple(k.shape)}); groups = in_channels // kernel.shape[-2]."
            )
        groups = in_channels // kernel_in
        if out_channels % groups:
            raise ValueError(f"The kernel's {out_channels} output channels are not divisible by groups={groups}.")
        strides = spatial_tuple(strides, nd)
        dilation = spatial_tuple(dilation_rate, nd)
        weight = k.permute(nd + 1, nd, *range(nd))  # (*spatial, in/g, out) -> (out, in/g, *spatial)
        x, pad = _prepare_conv_input(x, tuple(weight.shape[2:]), strides, dilation, padding)
        y = _CONV[nd](x, weight, None, strides, pad, dilation, groups)
        return _from_channels_first(y, last)

    def depthwise_conv(self, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
        k = cv.convert(kernel)
        if k.ndim < 3:
            raise ValueError(
                f"depthwise_conv kernel must be (*spatial, in_channels, multiplier); received shape {tuple(k.shape)}."
            )
        # (*spatial, in, mult) -> (*spatial, 1, in * mult): output channel c * mult + m, groups = in
        k = k.reshape(tuple(k.shape[:-2]) + (1, k.shape[-2] * k.shape[-1]))
        return self.conv(
            inputs, k, strides=strides, padding=padding, data_format=data_format, dilation_rate=dilation_rate
        )

    def conv_transpose(
        self, inputs, kernel, strides, padding="valid", output_padding=None, data_format=None, dilation_rate=1
    ):
        x, k = _float_operands(inputs, kernel)
        nd = _spatial_rank(x, "conv_transpose")
        if k.ndim != nd + 2:
            raise ValueError(
                f"conv_transpose kernel must have rank {nd + 2} (*spatial, out_channels, in_channels); "
                f"received kernel shape {tuple(k.shape)}."
            )
        last = not channels_first(data_format)
        x = _to_channels_first(x, last)
        if x.shape[1] != k.shape[-1]:
            raise ValueError(
                f"conv_transpose: the input has {x.shape[1]} channels but the kernel expects {k.shape[-1]} "
                f"(kernel shape {tuple(k.shape)} is (*spatial, out_channels, in_channels))."
            )
        padding = canonical_padding(padding)
        strides = spatial_tuple(strides, nd)
        dilation = spatial_tuple(dilation_rate, nd)
        out_pad = (None,) * nd if output_padding is None else spatial_tuple(output_padding, nd)
        weight = k.permute(nd + 1, nd, *range(nd))  # (*spatial, out, in) -> (in, out, *spatial)
        # torch's unpadded transpose gives the "full" result of length (n - 1) * s + k_eff; Keras' output is
        # a window of it: cropped in front, cropped or zero-extended behind
        y = _CONV_T[nd](x, weight, None, strides, 0, 0, 1, dilation)
        crops = []
        for i in range(nd):
            k_eff = (k.shape[i] - 1) * dilation[i] + 1
            left, right = _keras_transpose_pads(k_eff, strides[i], padding, out_pad[i])
            crops.append((left - (k_eff - 1), right - (k_eff - 1)))
        if any(c != (0, 0) for c in crops):
            y = F.pad(y, _flat_pads(crops))
        return _from_channels_first(y, last)

    # -------------------------------------------------------------------- pooling
    def _pool_args(self, x, pool_size, strides, name):
        nd = _spatial_rank(x, name)
        pool = spatial_tuple(pool_size, nd)
        strides = pool if strides is None else spatial_tuple(strides, nd)
        return nd, pool, strides

    def max_pool(self, inputs, pool_size, strides=None, padding="valid", data_format=None):
        x = cv.convert(inputs)
        dtype = x.dtype
        if dtype in cv.WIDE_UNSIGNED:
            x = x.to(torch.int64)
        nd, pool, strides = self._pool_args(x, pool_size, strides, "max_pool")
        last = not channels_first(data_format)
        x = _to_channels_first(x, last)
        if canonical_padding(padding) == "same":
            pads = _same_pads(tuple(x.shape[2:]), pool, strides)
            if any(p != (0, 0) for p in pads):
                if cv.is_float(x):
                    fill = -math.inf
                else:
                    fill = False if x.dtype == torch.bool else torch.iinfo(x.dtype).min
                x = F.pad(x, _flat_pads(pads), value=fill)
        if cv.is_float(x):
            y = _MAX_POOL[nd](x, pool, strides)
        else:
            # torch's max_pool kernels are float-only (some ranks): take windows with unfold instead
            for i in range(nd):
                x = x.unfold(2 + i, pool[i], strides[i])
            y = torch.amax(x, dim=tuple(range(-nd, 0)))
        return _from_channels_first(y, last).to(dtype)

    def average_pool(self, inputs, pool_size, strides=None, padding="valid", data_format=None):
        x = cv.to_float(inputs)
        nd, pool, strides = self._pool_args(x, pool_size, strides, "average_pool")
        last = not channels_first(data_format)
        x = _to_channels_first(x, last)
        if canonical_padding(padding) == "same":
            pads = _same_pads(tuple(x.shape[2:]), pool, strides)
            if any(p != (0, 0) for p in pads):
                flat = _flat_pads(pads)
                total = _AVG_POOL[nd](F.pad(x, flat), pool, strides)
                ones = torch.ones((1, 1) + tuple(x.shape[2:]), dtype=x.dtype, device=x.device)
                # the share of real (unpadded) entries in each window: divide them out
                share = _AVG_POOL[nd](F.pad(ones, flat), pool, strides)
                return _from_channels_first(total / share, last)
        return _from_channels_first(_AVG_POOL[nd](x, pool, strides), last)

    # -------------------------------------------------------------------- moments
    def moments(self, x, axes, keepdims=False):
        t = cv.to_float(x)
        dtype = t.dtype
        if dtype in (torch.float16, torch.bfloat16):
            t = t.to(torch.float32)  # the squared deviations overflow/lose precision in half floats
        dims = every_axis(axes, t.ndim)
        if not dims:
            return t.to(dtype), torch.zeros_like(t).to(dtype)
        var, mean = torch.var_mean(t, dim=dims, correction=0, keepdim=keepdims)
        return mean.to(dtype), var.to(dtype)


def _keras_transpose_pads(k_eff, stride, padding, output_padding):
    """The (left, right) padding of the stride-dilated input that gives Keras 3's conv_transpose size.

    "valid": output length ``(n - 1) * s + max(k_eff, s)`` (or ``+ k_eff + output_padding``);
    "same": ``n * s`` (or ``(n - 1) * s + k_eff % 2 + output_padding``).
    """
    if padding == "valid":
        extra = max(k_eff, stride) - k_eff if output_padding is None else output_padding
        return k_eff - 1, k_eff - 1 + extra
    if output_padding is None:
        pad_len = stride + k_eff - 2
    else:
        pad_len = k_eff + k_eff % 2 - 2 + output_padding
    left = min(pad_len // 2 + pad_len % 2, k_eff - 1)
    return left, pad_len - left
