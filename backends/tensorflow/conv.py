"""Convolution and pooling of the TensorFlow backend (1, 2 and 3 spatial dimensions).

Everything runs channels_last, because TensorFlow's CPU kernels lack NCHW: channels_first inputs are
transposed in and out. Where TensorFlow's kernels refuse a combination the contract allows, the op is
rewritten in terms of ones that work:

* strides > 1 together with dilation > 1: explicit ``"same"`` padding, a stride-1 dilated convolution,
  then subsampling;
* grouped convolution (no CPU gradient, no 3-D CPU kernel): one convolution per group, concatenated;
* depthwise convolution with unequal strides: stride 1, then subsampling;
* transposed convolution with dilation > 1: the textbook form (zero-insert the input by the stride, pad,
  correlate with the flipped kernel), with the padding rule Keras 3 uses for JAX, so output sizes match.
"""

import tensorflow as tf

from highlevel.backends.contract.spatial import canonical_data_format, canonical_padding, spatial_tuple

from .convert import promote_float, static_shape

# Always passed explicitly: with data_format=None the eager gradients of the 3-D ops fail to read the attr.
_LAST = {1: "NWC", 2: "NHWC", 3: "NDHWC"}


def to_last(x, fmt):
    """channels_first -> channels_last (a no-op for channels_last)."""
    if fmt == "channels_last":
        return x
    r = x.shape.rank
    return tf.transpose(x, [0] + list(range(2, r)) + [1])


def from_last(x, fmt):
    if fmt == "channels_last":
        return x
    r = x.shape.rank
    return tf.transpose(x, [0, r - 1] + list(range(1, r - 1)))


def _same_pads(size, k, s, d):
    """TensorFlow's "SAME" padding (the extra entry goes after) for one spatial dim."""
    eff = (k - 1) * d + 1
    out = -(-size // s)
    total = max((out - 1) * s + eff - size, 0)
    return total // 2, total - total // 2


def _strided_dilated(x, kernel, strides, padding, dilations, op):
    """Runs ``op`` (a stride-1 dilated conv) on explicitly padded input, then subsamples by ``strides``."""
    n = len(strides)
    spatial = static_shape(x)[1:-1]
    kshape = static_shape(kernel)[:n]
    if padding == "SAME":
        pads = [[0, 0]] + [list(_same_pads(spatial[i], kshape[i], strides[i], dilations[i])) for i in range(n)]
        x = tf.pad(x, pads + [[0, 0]])
    y = op(x, kernel, (1,) * n, "VALID", dilations)
    key = (slice(None),) + tuple(slice(None, None, s) for s in strides) + (slice(None),)
    return y[key]


def _convolution(x, kernel, strides, padding, dilations):
    """tf.nn.convolution, with grouped convolution done group by group.

    TensorFlow runs grouped convolutions forward on CPU but has no CPU gradient for them (and no 3-D CPU
    kernel at all), so groups are split and the results concatenated.
    """
    cin, kin = x.shape[-1], kernel.shape[-2]
    groups = cin // kin
    if groups > 1:
        xs = tf.split(x, groups, axis=-1)
        ks = tf.split(kernel, groups, axis=-1)
        return tf.concat(
            [
                tf.nn.convolution(
                    a, b, strides=strides, padding=padding, dilations=dilations, data_format=_LAST[len(strides)]
                )
                for a, b in zip(xs, ks)
            ],
            axis=-1,
        )
    return tf.nn.convolution(
        x, kernel, strides=strides, padding=padding, dilations=dilations, data_format=_LAST[len(strides)]
    )


def conv_nd(x, kernel, strides, padding, dilations):
    """Channels-last convolution with any mix of strides and dilations."""
    if any(s > 1 for s in strides) and any(d > 1 for d in dilations):
        return _strided_dilated(x, kernel, strides, padding, dilations, _convolution)
    return _convolution(x, kernel, strides, padding, dilations)


def _depthwise_2d(x, kernel, strides, padding, dilations):
    # The CPU kernel wants equal row/column strides and no strides together with dilation.
    if strides[0] != strides[1] or (max(strides) > 1 and any(d > 1 for d in dilations)):
        return _strided_dilated(x, kernel, strides, padding, dilations, _depthwise_2d)
    return tf.nn.depthwise_conv2d(
        x, kernel, (1, strides[0], strides[1], 1), padding, dilations=dilations, data_format="NHWC"
    )


def transpose_output_size(size, k, s, padding, output_padding, d):
    """The output length of a transposed convolution along one dim, by Keras 3's rule."""
    eff = (k - 1) * d + 1
    if padding == "VALID":
        op = max(eff, s) - eff if output_padding is None else output_padding
        return (size - 1) * s + eff + op
    if output_padding is None:
        return size * s
    return (size - 1) * s + eff % 2 + output_padding


def _transpose_pads(k, s, padding, output_padding, d):
    """(left, right) padding of the zero-inserted input, Keras 3's rule for JAX's conv_transpose."""
    eff = (k - 1) * d + 1
    if padding == "VALID":
        op = max(eff, s) - eff if output_padding is None else output_padding
        return eff - 1, eff - 1 + op
    pad_len = s + eff - 2 if output_padding is None else eff + eff % 2 - 2 + output_padding
    left = min(pad_len // 2 + pad_len % 2, eff - 1)
    return left, pad_len - left


def _zero_insert(x, s, axis):
    """Inserts ``s - 1`` zeros between neighbours along ``axis`` (input dilation)."""
    if s == 1:
        return x
    shape = static_shape(x)
    z = tf.stack([x] + [tf.zeros_like(x)] * (s - 1), axis=axis + 1)
    new = list(shape)
    new[axis] = shape[axis] * s
    z = tf.reshape(z, new)
    key = [slice(None)] * len(shape)
    key[axis] = slice(0, (shape[axis] - 1) * s + 1)
    return z[tuple(key)]


def conv_transpose_nd(x, kernel, strides, padding, output_padding, dilations):
    """Channels-last transposed convolution; kernel is (*spatial, out_channels, in_channels)."""
    n = len(strides)
    kshape = static_shape(kernel)
    spatial = static_shape(x)[1:-1]
    ops = (None,) * n if output_padding is None else spatial_tuple(output_padding, n)
    out_spatial = [
        transpose_output_size(spatial[i], kshape[i], strides[i], padding, ops[i], dilations[i]) for i in range(n)
    ]
    if all(d == 1 for d in dilations):
        out_shape = [tf.shape(x)[0]] + out_spatial + [kshape[-2]]
        if x.shape[0] is not None:
            out_shape[0] = x.shape[0]
        return tf.nn.conv_transpose(x, kernel, out_shape, strides, padding=padding, data_format=_LAST[n])
    # Textbook form, needed because TensorFlow's CPU kernels do not dilate transposed convolutions.
    for i in range(n):
        x = _zero_insert(x, strides[i], i + 1)
    pads = [[0, 0]]
    crop = [slice(None)]
    for i in range(n):
        lo, hi = _transpose_pads(kshape[i], strides[i], padding, ops[i], dilations[i])
        pads.append([max(lo, 0), max(hi, 0)])
        crop.append(slice(max(-lo, 0), None if hi >= 0 else hi))
    x = tf.pad(x, pads + [[0, 0]])[tuple(crop + [slice(None)])]
    flipped = tf.reverse(kernel, list(range(n)))
    flipped = tf.transpose(flipped, list(range(n)) + [n + 1, n])  # (*spatial, in, out)
    return tf.nn.convolution(x, flipped, strides=1, padding="VALID", dilations=dilations, data_format=_LAST[n])


class ConvOps:
    """conv, depthwise_conv, conv_transpose, max_pool, average_pool."""

    def conv(self, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
        x, k = promote_float(inputs, kernel)
        n = x.shape.rank - 2
        fmt = canonical_data_format(data_format)
        x = to_last(x, fmt)
        cin, kin = x.shape[-1], k.shape[-2]
        if kin is not None and cin is not None and (cin % kin or k.shape[-1] % (cin // kin)):
            raise ValueError(
                f"conv: inputs have {cin} channels but the kernel {tuple(k.shape.as_list())} "
                f"expects a multiple of {kin} (groups = in_channels // kernel.shape[-2]) and "
                "out_channels divisible by the groups."
            )
        y = conv_nd(
            x, k, spatial_tuple(strides, n), canonical_padding(padding).upper(), spatial_tuple(dilation_rate, n)
        )
        return from_last(y, fmt)

    def depthwise_conv(self, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
        x, k = promote_float(inputs, kernel)
        n = x.shape.rank - 2
        fmt = canonical_data_format(data_format)
        x = to_last(x, fmt)
        strides, dilations, pad = (
            spatial_tuple(strides, n),
            spatial_tuple(dilation_rate, n),
            canonical_padding(padding).upper(),
        )
        if n == 1:
            # A dummy row of size 1: equal strides on it change nothing and keep the CPU kernel happy.
            y = _depthwise_2d(x[:, None], k[None], (strides[0],) * 2, pad, (1,) + dilations)[:, 0]
        elif n == 2:
            y = _depthwise_2d(x, k, strides, pad, dilations)
        else:
            # (*spatial, C, mult) -> (*spatial, 1, C * mult): a convolution with C groups, same channel order.
            ks = static_shape(k)
            y = conv_nd(x, tf.reshape(k, ks[:-2] + (1, ks[-2] * ks[-1])), strides, pad, dilations)
        return from_last(y, fmt)

    def conv_transpose(
        self, inputs, kernel, strides, padding="valid", output_padding=None, data_format=None, dilation_rate=1
    ):
        x, k = promote_float(inputs, kernel)
        n = x.shape.rank - 2
        fmt = canonical_data_format(data_format)
        x = to_last(x, fmt)
        if k.shape[-1] is not None and x.shape[-1] != k.shape[-1]:
            raise ValueError(
                f"conv_transpose: inputs have {x.shape[-1]} channels but the kernel "
                f"{tuple(k.shape.as_list())} expects {k.shape[-1]} (kernel is (*spatial, out, in))."
            )
        y = conv_transpose_nd(
            x,
            k,
            spatial_tuple(strides, n),
            canonical_padding(padding).upper(),
            output_padding,
            spatial_tuple(dilation_rate, n),
        )
        return from_last(y, fmt)

    def _pool(self, op, inputs, pool_size, strides, padding, data_format):
        x = promote_float(inputs)[0]
        n = x.shape.rank - 2
        fmt = canonical_data_format(data_format)
        pool = spatial_tuple(pool_size, n)
        strides = pool if strides is None else spatial_tuple(strides, n)
        y = op(to_last(x, fmt), pool, strides, canonical_padding(padding).upper(), data_format=_LAST[n])
        return from_last(y, fmt)

    def max_pool(self, inputs, pool_size, strides=None, padding="valid", data_format=None):
        return self._pool(tf.nn.max_pool, inputs, pool_size, strides, padding, data_format)

    def average_pool(self, inputs, pool_size, strides=None, padding="valid", data_format=None):
        # TensorFlow's "SAME" average pooling already divides by the count of real (unpadded) entries.
        return self._pool(tf.nn.avg_pool, inputs, pool_size, strides, padding, data_format)
