"""``hl.ops.nn``: activations, softmax, convolution, pooling and the other ``keras.ops.nn`` ops.

Images are channels_last unless ``data_format="channels_first"``; convolution kernels are laid out as in
Keras (see :class:`highlevel.backends.contract.NNContract`).

>>> import highlevel as hl
>>> hl.ops.convert_to_numpy(hl.ops.nn.relu(hl.ops.convert_to_tensor([-1.0, 2.0]))).tolist()
[0.0, 2.0]
"""

from . import _args, _door


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """Returns the one-hot encoding of the integer labels ``x``: a new axis of ``num_classes`` entries, 1 at the
    label and 0 elsewhere (a label outside ``[0, num_classes)`` gives all zeros).

    Args:
        x: integer labels, a tensor of any shape.
        num_classes: the length of the new axis, a positive int.
        axis: where the new axis goes (-1, the default: last).
        dtype: the dtype of the result (default: floatx).
        sparse: False: the result is dense (sparse tensors are not supported; True is an error).

    Returns:
        A tensor of the shape of ``x`` with the new axis.

    Raises:
        ValueError: for ``sparse=True``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.one_hot(hl.ops.convert_to_tensor([1, 0]), 3)).tolist()
    [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    """
    from .core import _dense_only

    _dense_only(sparse, "sparse", "one_hot")
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


def moments(x, axes, keepdims=False, synchronized=False):
    """Returns the mean and the (population) variance of ``x`` over ``axes``.

    Args:
        x: a tensor; integer inputs compute in floatx.
        axes: an int or a sequence of ints, the axes to reduce.
        keepdims: keep the reduced axes with size 1.
        synchronized: accepted for Keras compatibility; it changes nothing. highlevel computes the statistics of
            the tensor the op receives. Without a distribution that is the batch. Under a data-parallel distribution
            it depends on what a replica's step sees: the JAX engine runs the step on the global (sharded) batch,
            so the statistics are the whole batch's; on TensorFlow and PyTorch each replica (or process) runs the
            step on its own share of the batch, so they are that replica's local statistics, and no cross-replica
            reduction is added for them.

    Returns:
        ``(mean, variance)``, two tensors of the reduced shape.

    >>> import highlevel as hl
    >>> mean, variance = hl.ops.moments(hl.ops.convert_to_tensor([0.0, 1.0, 2.0, 3.0]), axes=[0])
    >>> hl.ops.convert_to_numpy(mean).tolist(), hl.ops.convert_to_numpy(variance).tolist()
    (1.5, 1.25)
    """
    del synchronized  # see the docstring: the statistics are always the local batch's
    return _door.call("moments", x, _args.axes(axes, _args.ndim_of(x), "moments", name="axes"),
                      keepdims=bool(keepdims))


swish = silu


__all__ = ['one_hot', 'relu', 'relu6', 'sigmoid', 'softplus', 'softsign', 'silu', 'gelu', 'elu', 'selu', 'leaky_relu', 'hard_sigmoid', 'softmax', 'log_softmax', 'conv', 'depthwise_conv', 'conv_transpose', 'max_pool', 'average_pool', 'moments', 'swish']
