"""Argument checks and output-length arithmetic shared by the convolution, pooling and spatial reshaping layers.

>>> standardize_tuple(3, 2, "kernel_size")
(3, 3)
>>> conv_output_length(7, 3, "valid", stride=2)
3
>>> deconv_output_length(4, 3, "same", stride=2)
8
"""

__all__ = [
    "standardize_data_format",
    "standardize_tuple",
    "standardize_padding",
    "conv_output_length",
    "deconv_output_length",
    "spatial_axes",
    "conv_output_shape",
    "standardize_pairs",
]

from highlevel.config import standardize_data_format  # noqa: E402  (the one data_format check)


def standardize_tuple(value, n, name, allow_zero=False):
    """``value`` (an int or an iterable of ``n`` ints) as a tuple of ``n`` ints, all positive (or
    non-negative with ``allow_zero``); raises ValueError naming ``name`` otherwise."""
    if isinstance(value, bool):
        raise ValueError(
            f"The `{name}` argument must be an integer or a tuple of {n} integers. Received: {name}={value!r}"
        )
    if isinstance(value, int):
        values = (value,) * n
    else:
        try:
            values = tuple(value)
        except TypeError:
            raise ValueError(
                f"The `{name}` argument must be an integer or a tuple of {n} integers. Received: {name}={value!r}"
            ) from None
        if len(values) != n or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise ValueError(
                f"The `{name}` argument must be an integer or a tuple of {n} integers. Received: {name}={value!r}"
            )
    bad = [v for v in values if (v < 0 if allow_zero else v <= 0)]
    if bad:
        need = ">= 0" if allow_zero else "> 0"
        raise ValueError(
            f"The `{name}` argument must have every value {need}. Received: {name}={value!r}, including {bad[0]}."
        )
    return tuple(int(v) for v in values)


def standardize_padding(value, allow_causal=False):
    """``"valid"`` or ``"same"`` (or ``"causal"`` where allowed), case-insensitive."""
    allowed = ("valid", "same", "causal") if allow_causal else ("valid", "same")
    padding = value.lower() if isinstance(value, str) else value
    if padding not in allowed:
        raise ValueError(f"The `padding` argument must be one of {allowed}. Received: padding={value!r}")
    return padding


def conv_output_length(length, kernel_size, padding, stride=1, dilation=1):
    """The output length of a convolution or pooling along one axis (None stays None)."""
    if length is None:
        return None
    if padding in ("same", "causal"):
        return (length + stride - 1) // stride
    effective = dilation * (kernel_size - 1) + 1
    return (length - effective) // stride + 1


def deconv_output_length(length, kernel_size, padding, stride=1, dilation=1, output_padding=None):
    """The output length of a transposed convolution along one axis, as Keras computes it."""
    if length is None:
        return None
    kernel_size = kernel_size + (kernel_size - 1) * (dilation - 1)
    if output_padding is None:
        if padding == "valid":
            return length * stride + max(kernel_size - stride, 0)
        return length * stride
    pad = 0 if padding == "valid" else kernel_size // 2
    return (length - 1) * stride + kernel_size - 2 * pad + output_padding


def spatial_axes(rank, data_format):
    """The spatial axes (of an input with a batch and a channel axis) and the channel axis."""
    if data_format == "channels_last":
        return tuple(range(1, rank + 1)), rank + 1
    return tuple(range(2, rank + 2)), 1


def conv_output_shape(layer, input_shape, channels_out):
    """The output shape of ``layer`` (a convolution with ``rank``, ``kernel_size``, ``strides``, ``padding``,
    ``dilation_rate`` and ``data_format``) for ``input_shape``, with ``channels_out`` output channels;
    raises a clear ValueError when a spatial size would be zero or negative."""
    input_shape = tuple(input_shape)
    axes, channel_axis = spatial_axes(layer.rank, layer.data_format)
    out = list(input_shape)
    for i, axis in enumerate(axes):
        out[axis] = conv_output_length(
            input_shape[axis], layer.kernel_size[i], layer.padding, layer.strides[i], layer.dilation_rate[i]
        )
        if out[axis] is not None and out[axis] <= 0:
            raise ValueError(
                f"Layer '{layer.name}': the output would have size {out[axis]} along axis {axis}. Received "
                f"input shape {input_shape} with kernel_size={layer.kernel_size}, strides={layer.strides}, "
                f"dilation_rate={layer.dilation_rate}, padding={layer.padding!r}. Use a larger input or "
                "padding='same'."
            )
    out[channel_axis] = channels_out
    return tuple(out)


def standardize_pairs(value, n, name):
    """``value`` as ``n`` ``(before, after)`` pairs of non-negative ints, as ZeroPadding/Cropping take it: an
    int (the same on every side), ``n`` ints (symmetric per axis) or ``n`` pairs."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"`{name}` cannot be negative. Received: {name}={value!r}")
        return ((value, value),) * n
    if not hasattr(value, "__len__") or len(value) != n:
        raise ValueError(
            f"`{name}` should be an int, a tuple of {n} ints (symmetric per axis) or a tuple of {n} tuples of 2 "
            f"ints ((before, after) per axis). Received: {name}={value!r}"
        )
    ordinal = ("1st", "2nd", "3rd")
    return tuple(standardize_tuple(v, 2, f"{ordinal[i]} entry of {name}", allow_zero=True) for i, v in enumerate(value))
