"""``hl.ops.nn``: activations, softmax, convolution, pooling and the other ``keras.ops.nn`` ops.

Images are channels_last unless ``data_format="channels_first"``; convolution kernels are laid out as in
Keras (see :class:`highlevel.backends.contract.NNContract`).

>>> import highlevel as hl
>>> hl.ops.convert_to_numpy(hl.ops.nn.relu(hl.ops.convert_to_tensor([-1.0, 2.0]))).tolist()
[0.0, 2.0]
"""

from . import _args, _door


def one_hot(x, num_classes, axis=-1, dtype=None):
    """One-hot encoding of integer ``x`` (floatx by default); out-of-range labels give all zeros."""
    if axis != -1:
        axis = _args.axis(axis, _args.ndim_of(x), "one_hot", extra=1)
    return _door.call("one_hot", x, _args.positive_int(num_classes, "num_classes", "one_hot"), axis=axis,
                      dtype=_args.dtype(dtype, "one_hot"))


def relu(x):
    """max(x, 0); gradient 0 at 0."""
    return _door.call('relu', x)


def relu6(x):
    """min(max(x, 0), 6)."""
    return _door.call('relu6', x)


def sigmoid(x):
    """1 / (1 + exp(-x)), stable for large |x|."""
    return _door.call('sigmoid', x)


def softplus(x):
    """log(1 + exp(x)), stable for large |x|."""
    return _door.call('softplus', x)


def softsign(x):
    """x / (1 + |x|)."""
    return _door.call('softsign', x)


def silu(x):
    """x * sigmoid(x) (swish)."""
    return _door.call('silu', x)


def gelu(x, approximate=True):
    """Gaussian error linear unit; the tanh approximation when ``approximate``."""
    return _door.call('gelu', x, approximate=approximate)


def elu(x, alpha=1.0):
    """x if x > 0 else alpha * (exp(x) - 1)."""
    return _door.call('elu', x, alpha=alpha)


def selu(x):
    """scale * elu(x, alpha) with the self-normalising constants."""
    return _door.call('selu', x)


def leaky_relu(x, negative_slope=0.2):
    """x if x >= 0 else negative_slope * x."""
    return _door.call('leaky_relu', x, negative_slope=negative_slope)


def hard_sigmoid(x):
    """clip(x / 6 + 0.5, 0, 1) (Keras 3's definition)."""
    return _door.call('hard_sigmoid', x)


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along ``axis``, finite for inputs of +-1e4."""
    return _door.call("softmax", x, axis=_args.axis(axis, _args.ndim_of(x), "softmax"))


def log_softmax(x, axis=-1):
    """x - logsumexp(x) along ``axis``, finite for inputs of +-1e4."""
    return _door.call("log_softmax", x, axis=_args.axis(axis, _args.ndim_of(x), "log_softmax"))


def conv(inputs, kernel, strides=1, padding='valid', data_format=None, dilation_rate=1):
    """N-D convolution (1, 2 or 3 spatial dims); groups = in_channels // kernel.shape[-2]."""
    n = _args.spatial_rank(inputs, "conv")
    return _door.call("conv", inputs, kernel, strides=_args.int_tuple(strides, n, "strides", "conv"),
                      padding=_args.padding(padding, "conv"), data_format=_args.data_format(data_format, "conv"),
                      dilation_rate=_args.int_tuple(dilation_rate, n, "dilation_rate", "conv"))


def depthwise_conv(inputs, kernel, strides=1, padding='valid', data_format=None, dilation_rate=1):
    """Depthwise convolution: each input channel convolved with its own ``multiplier`` filters."""
    n = _args.spatial_rank(inputs, "depthwise_conv")
    return _door.call("depthwise_conv", inputs, kernel,
                      strides=_args.int_tuple(strides, n, "strides", "depthwise_conv"),
                      padding=_args.padding(padding, "depthwise_conv"),
                      data_format=_args.data_format(data_format, "depthwise_conv"),
                      dilation_rate=_args.int_tuple(dilation_rate, n, "dilation_rate", "depthwise_conv"))


def conv_transpose(inputs, kernel, strides, padding='valid', output_padding=None, data_format=None, dilation_rate=1):
    """Transposed convolution (the gradient of ``conv`` with respect to its input), output sized as Keras does."""
    n = _args.spatial_rank(inputs, "conv_transpose")
    if output_padding is not None:
        output_padding = _args.int_tuple(output_padding, n, "output_padding", "conv_transpose", minimum=0)
    return _door.call("conv_transpose", inputs, kernel, _args.int_tuple(strides, n, "strides", "conv_transpose"),
                      padding=_args.padding(padding, "conv_transpose"), output_padding=output_padding,
                      data_format=_args.data_format(data_format, "conv_transpose"),
                      dilation_rate=_args.int_tuple(dilation_rate, n, "dilation_rate", "conv_transpose"))


def max_pool(inputs, pool_size, strides=None, padding='valid', data_format=None):
    """Max pooling over 1, 2 or 3 spatial dims; ``strides`` defaults to ``pool_size``."""
    n = _args.spatial_rank(inputs, "max_pool")
    pool_size = _args.int_tuple(pool_size, n, "pool_size", "max_pool")
    strides = pool_size if strides is None else _args.int_tuple(strides, n, "strides", "max_pool")
    return _door.call("max_pool", inputs, pool_size, strides=strides, padding=_args.padding(padding, "max_pool"),
                      data_format=_args.data_format(data_format, "max_pool"))


def average_pool(inputs, pool_size, strides=None, padding='valid', data_format=None):
    """Average pooling; ``"same"`` padding averages over real entries only."""
    n = _args.spatial_rank(inputs, "average_pool")
    pool_size = _args.int_tuple(pool_size, n, "pool_size", "average_pool")
    strides = pool_size if strides is None else _args.int_tuple(strides, n, "strides", "average_pool")
    return _door.call("average_pool", inputs, pool_size, strides=strides,
                      padding=_args.padding(padding, "average_pool"),
                      data_format=_args.data_format(data_format, "average_pool"))


def moments(x, axes, keepdims=False):
    """``(mean, variance)`` over ``axes``."""
    return _door.call("moments", x, _args.axes(axes, _args.ndim_of(x), "moments", name="axes"),
                      keepdims=bool(keepdims))


swish = silu


def polar(abs_, angle):
    """Complex numbers from their modulus and argument: ``abs_ * (cos(angle) + 1j * sin(angle))``.

    Args:
        abs_: the moduli, a real tensor.
        angle: the arguments in radians, a real tensor broadcasting against ``abs_``.

    Returns:
        A complex tensor: complex128 when the inputs promote to float64, complex64 otherwise.

    >>> import highlevel as hl
    >>> z = hl.ops.polar(hl.ops.convert_to_tensor([2.0]), hl.ops.convert_to_tensor([0.0]))
    >>> hl.ops.convert_to_numpy(z).tolist()
    [(2+0j)]
    """
    return _door.call("polar", abs_, angle)


__all__ = ['one_hot', 'relu', 'relu6', 'sigmoid', 'softplus', 'softsign', 'silu', 'gelu', 'elu', 'selu', 'leaky_relu', 'hard_sigmoid', 'softmax', 'log_softmax', 'conv', 'depthwise_conv', 'conv_transpose', 'max_pool', 'average_pool', 'moments', 'swish']
__all__ += ["polar"]
