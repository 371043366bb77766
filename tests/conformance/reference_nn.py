"""Float64 numpy references for convolution and pooling, written as plain loops over kernel offsets.

Layouts follow the contract (Keras): inputs channels_last ``(batch, *spatial, channels)`` unless
``data_format="channels_first"``; kernels ``conv`` (*k, in // groups, out), ``depthwise_conv``
(*k, in, multiplier), ``conv_transpose`` (*k, out, in). ``"same"`` padding pads as TensorFlow does: the
total is ``max((ceil(n / s) - 1) * s + (k - 1) * d + 1 - n, 0)`` and the extra entry goes after.

Each output is a sum over kernel offsets of a strided window of the (padded) input times one kernel tap;
nothing here is clever, so it is easy to check by eye.

>>> x = np.arange(5.0).reshape(1, 5, 1); k = np.ones((2, 1, 1))
>>> conv(x, k)[0, :, 0].tolist()
[1.0, 3.0, 5.0, 7.0]
"""

import itertools
import math

import numpy as np


def _tuple(v, n):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


def _to_last(x, data_format):
    return np.moveaxis(x, 1, -1) if data_format == "channels_first" else x


def _from_last(y, data_format):
    return np.moveaxis(y, -1, 1) if data_format == "channels_first" else y


def same_padding(n, k, s, d=1):
    """``(before, after)`` padding of one spatial dim for ``"same"`` (TensorFlow's rule)."""
    eff = (k - 1) * d + 1
    total = max((math.ceil(n / s) - 1) * s + eff - n, 0)
    return total // 2, total - total // 2


def _pads(spatial, ksize, strides, dilation, padding):
    if padding == "valid":
        return [(0, 0)] * len(spatial)
    if padding == "same":
        return [same_padding(n, k, s, d) for n, k, s, d in zip(spatial, ksize, strides, dilation)]
    raise ValueError(f"padding must be 'valid' or 'same'; received {padding!r}")


def _windows(xp, ksize, strides, dilation, out_sizes):
    """Yields ``(offset, window)``: the strided input window that meets kernel tap ``offset``."""
    for offset in itertools.product(*(range(k) for k in ksize)):
        idx = tuple(
            slice(o * d, o * d + (n - 1) * s + 1, s) for o, d, s, n in zip(offset, dilation, strides, out_sizes)
        )
        yield offset, xp[(slice(None),) + idx]


def _out_size(n, k, s, d, padding):
    eff = (k - 1) * d + 1
    return (n - eff) // s + 1 if padding == "valid" else math.ceil(n / s)


def conv(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """N-D grouped convolution (cross-correlation, as every framework computes it)."""
    x = _to_last(np.asarray(x, np.float64), data_format)
    kernel = np.asarray(kernel, np.float64)
    nd = x.ndim - 2
    ksize = kernel.shape[:nd]
    strides, dilation = _tuple(strides, nd), _tuple(dilation_rate, nd)
    cin, cout = x.shape[-1], kernel.shape[-1]
    groups = cin // kernel.shape[-2]
    pads = _pads(x.shape[1:-1], ksize, strides, dilation, padding)
    xp = np.pad(x, [(0, 0)] + pads + [(0, 0)])
    out_sizes = [_out_size(n, k, s, d, padding) for n, k, s, d in zip(x.shape[1:-1], ksize, strides, dilation)]
    y = np.zeros((x.shape[0], *out_sizes, cout))
    gi, go = cin // groups, cout // groups
    for offset, win in _windows(xp, ksize, strides, dilation, out_sizes):
        tap = kernel[offset]  # (cin // groups, cout)
        for g in range(groups):
            y[..., g * go : (g + 1) * go] += win[..., g * gi : (g + 1) * gi] @ tap[:, g * go : (g + 1) * go]
    return _from_last(y, data_format)


def depthwise_conv(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """Depthwise convolution: output channel ``c * multiplier + m`` is input channel ``c`` with filter ``m``."""
    x = _to_last(np.asarray(x, np.float64), data_format)
    kernel = np.asarray(kernel, np.float64)
    cin, mult = kernel.shape[-2], kernel.shape[-1]
    # a grouped conv with one group per input channel and (*k, 1, cin * mult) kernel
    grouped = kernel.reshape(kernel.shape[:-2] + (1, cin * mult))
    y = conv(x, grouped, strides, padding, None, dilation_rate)
    return _from_last(y, data_format)


def conv_transpose_length(n, k, s, padding, output_padding=None, d=1):
    """Keras's ``deconv_output_length``."""
    eff = (k - 1) * d + 1
    if output_padding is None:
        return n * s + max(eff - s, 0) if padding == "valid" else n * s
    pad = eff // 2 if padding == "same" else 0
    return (n - 1) * s + eff - 2 * pad + output_padding


def conv_transpose(x, kernel, strides, padding="valid", output_padding=None, data_format=None, dilation_rate=1):
    """Transposed convolution: the adjoint of :func:`conv` on an input of the Keras output length.

    Each input position ``i`` scatters ``x[i] @ kernel[offset].T`` to output position
    ``i * s + offset * d - pad_before``; ``pad_before`` is the padding :func:`conv` would use on the output.
    Only ``output_padding=None`` is supported here.
    """
    if output_padding is not None:
        raise ValueError("the reference conv_transpose covers output_padding=None only")
    x = _to_last(np.asarray(x, np.float64), data_format)
    kernel = np.asarray(kernel, np.float64)
    nd = x.ndim - 2
    ksize = kernel.shape[:nd]
    strides, dilation = _tuple(strides, nd), _tuple(dilation_rate, nd)
    in_sizes = x.shape[1:-1]
    out_sizes = [
        conv_transpose_length(n, k, s, padding, None, d) for n, k, s, d in zip(in_sizes, ksize, strides, dilation)
    ]
    befores = [p[0] for p in _pads(out_sizes, ksize, strides, dilation, padding)]
    full = [
        max((n - 1) * s + (k - 1) * d + 1, o + b)
        for n, k, s, d, o, b in zip(in_sizes, ksize, strides, dilation, out_sizes, befores)
    ]
    y = np.zeros((x.shape[0], *full, kernel.shape[-2]))
    for offset in itertools.product(*(range(k) for k in ksize)):
        idx = tuple(slice(o * d, o * d + (n - 1) * s + 1, s) for o, d, s, n in zip(offset, dilation, strides, in_sizes))
        y[(slice(None),) + idx] += x @ kernel[offset].T  # kernel tap (out, in)
    crop = tuple(slice(b, b + o) for b, o in zip(befores, out_sizes))
    return _from_last(y[(slice(None),) + crop], data_format)


def _pool(x, pool_size, strides, padding, data_format, reduce, fill):
    x = _to_last(np.asarray(x, np.float64), data_format)
    nd = x.ndim - 2
    ksize = _tuple(pool_size, nd)
    strides = ksize if strides is None else _tuple(strides, nd)
    ones = (1,) * nd
    pads = _pads(x.shape[1:-1], ksize, strides, ones, padding)
    xp = np.pad(x, [(0, 0)] + pads + [(0, 0)], constant_values=fill)
    real = np.pad(np.ones(x.shape[1:-1]), pads)[None, ..., None]  # 1 where an entry is not padding
    out_sizes = [_out_size(n, k, s, 1, padding) for n, k, s in zip(x.shape[1:-1], ksize, strides)]
    windows = [w for _, w in _windows(xp, ksize, strides, ones, out_sizes)]
    counts = [c for _, c in _windows(real, ksize, strides, ones, out_sizes)]
    return _from_last(reduce(np.stack(windows), np.stack(counts)), data_format)


def max_pool(x, pool_size, strides=None, padding="valid", data_format=None):
    """Max pooling; ``"same"`` padding never wins (padded with -inf)."""
    return _pool(x, pool_size, strides, padding, data_format, lambda w, c: w.max(axis=0), -np.inf)


def average_pool(x, pool_size, strides=None, padding="valid", data_format=None):
    """Average pooling over the real (unpadded) entries of each window."""
    return _pool(x, pool_size, strides, padding, data_format, lambda w, c: w.sum(axis=0) / c.sum(axis=0), 0.0)


def moments(x, axes, keepdims=False):
    """``(mean, variance)`` over ``axes`` (population variance)."""
    return np.mean(x, axis=axes, keepdims=keepdims), np.var(x, axis=axes, keepdims=keepdims)
