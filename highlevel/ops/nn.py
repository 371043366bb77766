"""``hl.ops.nn``: activations, softmax, convolution, pooling and the other ``keras.ops.nn`` ops.

Images are channels_last unless ``data_format="channels_first"``; convolution kernels are laid out as in
Keras (see :class:`highlevel.backends.contract.NNContract`).

>>> import highlevel as hl
>>> hl.ops.convert_to_numpy(hl.ops.nn.relu(hl.ops.convert_to_tensor([-1.0, 2.0]))).tolist()
[0.0, 2.0]
"""

from highlevel.keras_tensor import any_symbolic

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
    return _door.call(
        "one_hot",
        x,
        _args.positive_int(num_classes, "num_classes", "one_hot"),
        axis=axis,
        dtype=_args.dtype(dtype, "one_hot"),
    )


def relu(x):
    """Applies the rectified linear unit ``max(x, 0)``, elementwise.

    Negative entries become 0 and the others pass unchanged; the gradient is 0 for ``x <= 0`` and 1 above.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.relu([-2.0, -0.5, 0.0, 0.5, 2.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.  0.  0.  0.5 2. ]
    """
    return _door.call("relu", x)


def relu6(x):
    """Applies the rectified linear unit capped at 6: ``min(max(x, 0), 6)``, elementwise.

    The cap keeps activations in a small range, which suits low-precision arithmetic.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.relu6([-1.0, 3.0, 8.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0. 3. 6.]
    """
    return _door.call("relu6", x)


def sigmoid(x):
    """Applies the logistic sigmoid ``1 / (1 + exp(-x))``, elementwise.

    The result lies in ``(0, 1)``; it is computed without overflow for large ``|x|``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.sigmoid([-2.0, -0.5, 0.0, 0.5, 2.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.1192 0.3775 0.5    0.6225 0.8808]
    """
    return _door.call("sigmoid", x)


def softplus(x):
    """Applies the softplus function ``log(1 + exp(x))``, elementwise.

    A smooth approximation of ``relu`` with positive values; computed without overflow for large ``|x|``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.softplus([-2.0, -0.5, 0.0, 0.5, 2.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.1269 0.4741 0.6931 0.9741 2.1269]
    """
    return _door.call("softplus", x)


def softsign(x):
    """Applies the softsign function ``x / (1 + |x|)``, elementwise.

    A smooth function with values in ``(-1, 1)`` that approaches its bounds more slowly than tanh.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.softsign([-2.0, -0.5, 0.0, 0.5, 2.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.6667 -0.3333  0.      0.3333  0.6667]
    """
    return _door.call("softsign", x)


def silu(x):
    """Applies the sigmoid linear unit ``x * sigmoid(x)`` (also called swish), elementwise.

    A smooth, non-monotonic variant of ``relu``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.silu([-2.0, -0.5, 0.0, 0.5, 2.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.2384 -0.1888  0.      0.3112  1.7616]
    """
    return _door.call("silu", x)


def gelu(x, approximate=True):
    """Applies the Gaussian error linear unit, elementwise.

    ``gelu(x) = x * P(X <= x)`` for a standard normal ``X``, that is ``x * (1 + erf(x / sqrt(2))) / 2``. With
    ``approximate=True`` it uses the faster tanh form ``x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x**3))) / 2``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        approximate: whether to use the tanh approximation (default True) or the exact erf form.

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.gelu([-2.0, -0.5, 0.0, 0.5, 2.0], approximate=False)
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.0455 -0.1543  0.      0.3457  1.9545]
    """
    return _door.call("gelu", x, approximate=approximate)


def elu(x, alpha=1.0):
    """Applies the exponential linear unit, elementwise.

    ``elu(x) = x`` for ``x > 0`` and ``alpha * (exp(x) - 1)`` otherwise, so negative inputs saturate at ``-alpha``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        alpha: the scale of the negative part, a float (default 1.0).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.elu([-2.0, -0.5, 0.0, 0.5, 2.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.8647 -0.3935  0.      0.5     2.    ]
    """
    return _door.call("elu", x, alpha=alpha)


def selu(x):
    """Applies the scaled exponential linear unit, elementwise.

    ``selu(x) = scale * elu(x, alpha)`` with ``alpha = 1.67326...`` and ``scale = 1.05070...``: with suitably
    initialised weights (``lecun_normal``), activations keep zero mean and unit variance through the layers.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.selu([-2.0, -0.5, 0.0, 0.5, 2.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-1.5202 -0.6918  0.      0.5254  2.1014]
    """
    return _door.call("selu", x)


def leaky_relu(x, negative_slope=0.2):
    """Applies the leaky rectified linear unit, elementwise.

    ``leaky_relu(x) = x`` for ``x >= 0`` and ``negative_slope * x`` otherwise, so negative inputs keep a small gradient.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        negative_slope: the slope for negative inputs, a float (default 0.2).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.leaky_relu([-2.0, -0.5, 0.0, 0.5, 2.0], negative_slope=0.1)
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.2  -0.05  0.    0.5   2.  ]
    """
    return _door.call("leaky_relu", x, negative_slope=negative_slope)


def hard_sigmoid(x):
    """Applies a piecewise-linear approximation of the sigmoid, elementwise.

    ``hard_sigmoid(x) = clip(x / 6 + 0.5, 0, 1)``: 0 below -3, 1 above 3 and linear in between.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.hard_sigmoid([-4.0, -1.5, 0.0, 1.5, 4.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.   0.25 0.5  0.75 1.  ]
    """
    return _door.call("hard_sigmoid", x)


def softmax(x, axis=-1):
    """Turns the entries of ``x`` along an axis into probabilities that sum to 1.

    ``softmax(x)_i = exp(x_i) / sum_j exp(x_j)``, computed after subtracting the maximum, so that inputs as large as
    +-1e4 stay finite.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis along which the entries are normalized (default -1, the last).

    Returns:
        A tensor of the shape of ``x`` with entries in ``[0, 1]`` that sum to 1 along ``axis``, in the floating-point
        dtype of ``x``.

    Raises:
        ValueError: ``axis`` is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    >>> print(hl.ops.convert_to_numpy(hl.ops.softmax(x)).round(4))
    [[0.09   0.2447 0.6652]
     [0.3333 0.3333 0.3333]]
    """
    return _door.call("softmax", x, axis=_args.axis(axis, _args.ndim_of(x), "softmax"))


def log_softmax(x, axis=-1):
    """Computes the logarithm of the softmax of ``x`` along an axis.

    ``log_softmax(x) = x - logsumexp(x)``, more accurate than ``log(softmax(x))`` for very negative results and finite
    for inputs as large as +-1e4.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis along which the entries are normalized (default -1, the last).

    Returns:
        A tensor of the shape of ``x`` with non-positive entries whose exponentials sum to 1 along ``axis``.

    Raises:
        ValueError: ``axis`` is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    >>> print(hl.ops.convert_to_numpy(hl.ops.log_softmax(x)).round(4))
    [[-2.4076 -1.4076 -0.4076]
     [-1.0986 -1.0986 -1.0986]]
    """
    return _door.call("log_softmax", x, axis=_args.axis(axis, _args.ndim_of(x), "log_softmax"))


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """Computes an N-D convolution (1, 2 or 3 spatial dimensions) of ``inputs`` with ``kernel``.

    As in deep-learning libraries, it is a cross-correlation (the kernel is not flipped). When the kernel has fewer
    input channels than ``inputs``, the channels are split into ``in_channels // kernel.shape[-2]`` groups, each
    convolved with its share of the output filters.

    Args:
        inputs: a tensor of rank 3, 4 or 5: ``(batch, *spatial, channels)`` for ``channels_last``.
        kernel: a tensor of shape ``(*kernel_size, in_channels // groups, filters)``.
        strides: the step of the window, an int or one int per spatial dimension (default 1).
        padding: ``"valid"`` (default: no padding, windows stay inside the input) or ``"same"`` (zero padding so
            that the output's spatial size is ``ceil(input / strides)``).
        data_format: ``"channels_last"`` (inputs ``(batch, *spatial, channels)``) or ``"channels_first"``
            (``(batch, channels, *spatial)``); default ``hl.config.image_data_format()``.
        dilation_rate: the spacing between kernel taps, an int or one int per spatial dimension (default 1).

    Returns:
        A tensor of shape ``(batch, *out_spatial, filters)`` (or channels first), in the promoted float dtype.

    Raises:
        ValueError: ``inputs`` is not of rank 3 to 5, or ``strides``, ``padding``, ``data_format`` or
            ``dilation_rate`` is invalid.

    >>> import highlevel as hl
    >>> x = hl.ops.ones((1, 5, 5, 1))
    >>> k = hl.ops.ones((3, 3, 1, 2))
    >>> y = hl.ops.conv(x, k)
    >>> tuple(y.shape), float(hl.ops.convert_to_numpy(y)[0, 0, 0, 0])
    ((1, 3, 3, 2), 9.0)
    >>> tuple(hl.ops.conv(x, k, strides=2, padding="same").shape)
    (1, 3, 3, 2)
    """
    n = _args.spatial_rank(inputs, "conv")
    return _door.call(
        "conv",
        inputs,
        kernel,
        strides=_args.int_tuple(strides, n, "strides", "conv"),
        padding=_args.padding(padding, "conv"),
        data_format=_args.data_format(data_format, "conv"),
        dilation_rate=_args.int_tuple(dilation_rate, n, "dilation_rate", "conv"),
    )


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """Computes a depthwise convolution: each input channel is convolved with its own filters.

    Unlike :func:`conv`, channels are not mixed: input channel ``c`` gives the output channels
    ``c * multiplier`` to ``(c + 1) * multiplier - 1``.

    Args:
        inputs: a tensor of rank 3, 4 or 5: ``(batch, *spatial, channels)`` for ``channels_last``.
        kernel: a tensor of shape ``(*kernel_size, in_channels, multiplier)``.
        strides: the step of the window, an int or one int per spatial dimension (default 1).
        padding: ``"valid"`` (default: no padding, windows stay inside the input) or ``"same"`` (zero padding so
            that the output's spatial size is ``ceil(input / strides)``).
        data_format: ``"channels_last"`` (inputs ``(batch, *spatial, channels)``) or ``"channels_first"``
            (``(batch, channels, *spatial)``); default ``hl.config.image_data_format()``.
        dilation_rate: the spacing between kernel taps, an int or one int per spatial dimension (default 1).

    Returns:
        A tensor of shape ``(batch, *out_spatial, in_channels * multiplier)`` (or channels first).

    Raises:
        ValueError: ``inputs`` is not of rank 3 to 5, or an argument is invalid.

    >>> import highlevel as hl
    >>> y = hl.ops.depthwise_conv(hl.ops.ones((1, 4, 4, 3)), hl.ops.ones((2, 2, 3, 2)))
    >>> tuple(y.shape), float(hl.ops.convert_to_numpy(y)[0, 0, 0, 0])
    ((1, 3, 3, 6), 4.0)
    """
    n = _args.spatial_rank(inputs, "depthwise_conv")
    return _door.call(
        "depthwise_conv",
        inputs,
        kernel,
        strides=_args.int_tuple(strides, n, "strides", "depthwise_conv"),
        padding=_args.padding(padding, "depthwise_conv"),
        data_format=_args.data_format(data_format, "depthwise_conv"),
        dilation_rate=_args.int_tuple(dilation_rate, n, "dilation_rate", "depthwise_conv"),
    )


def conv_transpose(inputs, kernel, strides, padding="valid", output_padding=None, data_format=None, dilation_rate=1):
    """Computes a transposed convolution, the gradient of :func:`conv` with respect to its input.

    Often used to upsample: with ``strides=2`` each spatial dimension roughly doubles. The output size follows
    Keras's rule: ``(in - 1) * stride + kernel`` for ``"valid"`` padding, ``in * stride`` for ``"same"``, adjusted
    by ``output_padding`` and the dilation.

    Args:
        inputs: a tensor of rank 3, 4 or 5: ``(batch, *spatial, in_channels)`` for ``channels_last``.
        kernel: a tensor of shape ``(*kernel_size, filters, in_channels)`` (output channels before input channels).
        strides: the upsampling step, an int or one int per spatial dimension.
        padding: ``"valid"`` (default) or ``"same"``.
        output_padding: extra size added to one side of each output dimension, an int or one per dimension,
            smaller than the stride; default None (the size is inferred).
        data_format: ``"channels_last"`` (inputs ``(batch, *spatial, channels)``) or ``"channels_first"``
            (``(batch, channels, *spatial)``); default ``hl.config.image_data_format()``.
        dilation_rate: the spacing between kernel taps (default 1).

    Returns:
        A tensor of shape ``(batch, *out_spatial, filters)`` (or channels first).

    Raises:
        ValueError: ``inputs`` is not of rank 3 to 5, or an argument is invalid.

    >>> import highlevel as hl
    >>> y = hl.ops.conv_transpose(hl.ops.ones((1, 3, 3, 1)), hl.ops.ones((2, 2, 4, 1)), strides=2)
    >>> tuple(y.shape)
    (1, 6, 6, 4)
    """
    n = _args.spatial_rank(inputs, "conv_transpose")
    if output_padding is not None:
        output_padding = _args.int_tuple(output_padding, n, "output_padding", "conv_transpose", minimum=0)
    return _door.call(
        "conv_transpose",
        inputs,
        kernel,
        _args.int_tuple(strides, n, "strides", "conv_transpose"),
        padding=_args.padding(padding, "conv_transpose"),
        output_padding=output_padding,
        data_format=_args.data_format(data_format, "conv_transpose"),
        dilation_rate=_args.int_tuple(dilation_rate, n, "dilation_rate", "conv_transpose"),
    )


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Applies max pooling over windows of 1, 2 or 3 spatial dimensions.

    Each output entry is the largest entry of its window.

    Args:
        inputs: a tensor of rank 3, 4 or 5: ``(batch, *spatial, channels)`` for ``channels_last``.
        pool_size: the window size, an int or one int per spatial dimension.
        strides: the step between windows, an int or one per dimension; default None: ``pool_size``
            (non-overlapping windows).
        padding: ``"valid"`` (default: no padding, windows stay inside the input) or ``"same"`` (zero padding so
            that the output's spatial size is ``ceil(input / strides)``).
        data_format: ``"channels_last"`` (inputs ``(batch, *spatial, channels)``) or ``"channels_first"``
            (``(batch, channels, *spatial)``); default ``hl.config.image_data_format()``.

    Returns:
        A tensor of shape ``(batch, *out_spatial, channels)`` (or channels first), in the dtype of ``inputs``.

    Raises:
        ValueError: ``inputs`` is not of rank 3 to 5, or an argument is invalid.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(16, dtype="float32"), (1, 4, 4, 1))
    >>> print(hl.ops.convert_to_numpy(hl.ops.max_pool(x, 2))[0, :, :, 0])
    [[ 5.  7.]
     [13. 15.]]
    >>> tuple(hl.ops.max_pool(x, 3, strides=1, padding="same").shape)
    (1, 4, 4, 1)
    """
    n = _args.spatial_rank(inputs, "max_pool")
    pool_size = _args.int_tuple(pool_size, n, "pool_size", "max_pool")
    strides = pool_size if strides is None else _args.int_tuple(strides, n, "strides", "max_pool")
    return _door.call(
        "max_pool",
        inputs,
        pool_size,
        strides=strides,
        padding=_args.padding(padding, "max_pool"),
        data_format=_args.data_format(data_format, "max_pool"),
    )


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Applies average pooling over windows of 1, 2 or 3 spatial dimensions.

    Each output entry is the mean of its window; with ``"same"`` padding, windows that overlap the border average over
    their real entries only (the padding is not counted).

    Args:
        inputs: a tensor of rank 3, 4 or 5: ``(batch, *spatial, channels)`` for ``channels_last``.
        pool_size: the window size, an int or one int per spatial dimension.
        strides: the step between windows, an int or one per dimension; default None: ``pool_size``
            (non-overlapping windows).
        padding: ``"valid"`` (default: no padding, windows stay inside the input) or ``"same"`` (zero padding so
            that the output's spatial size is ``ceil(input / strides)``).
        data_format: ``"channels_last"`` (inputs ``(batch, *spatial, channels)``) or ``"channels_first"``
            (``(batch, channels, *spatial)``); default ``hl.config.image_data_format()``.

    Returns:
        A tensor of shape ``(batch, *out_spatial, channels)`` (or channels first), in the dtype of ``inputs``.

    Raises:
        ValueError: ``inputs`` is not of rank 3 to 5, or an argument is invalid.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(16, dtype="float32"), (1, 4, 4, 1))
    >>> print(hl.ops.convert_to_numpy(hl.ops.average_pool(x, 2))[0, :, :, 0])
    [[ 2.5  4.5]
     [10.5 12.5]]
    >>> tuple(hl.ops.average_pool(x, 3, strides=1, padding="same").shape)
    (1, 4, 4, 1)
    """
    n = _args.spatial_rank(inputs, "average_pool")
    pool_size = _args.int_tuple(pool_size, n, "pool_size", "average_pool")
    strides = pool_size if strides is None else _args.int_tuple(strides, n, "strides", "average_pool")
    return _door.call(
        "average_pool",
        inputs,
        pool_size,
        strides=strides,
        padding=_args.padding(padding, "average_pool"),
        data_format=_args.data_format(data_format, "average_pool"),
    )


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
    return _door.call("moments", x, _args.axes(axes, _args.ndim_of(x), "moments", name="axes"), keepdims=bool(keepdims))


swish = silu


# ----------------------------------------------------------------------------------------------------------------
# The rest of keras.ops.nn: each op is a generic definition of the contract (backends/contract/nn_more.py).


def _number(value, name, op):
    """A Python float from an int/float/numpy scalar, with a clear error otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
        raise TypeError(f"{op}: `{name}` must be a number; received {name}={value!r} of type {type(value).__name__}.")
    return float(value)


def _epsilon(value, op):
    """``epsilon`` as a non-negative float; None gives ``hl.config.epsilon()``."""
    if value is None:
        from highlevel.config import epsilon

        return epsilon()
    value = _number(value, "epsilon", op)
    if value < 0:
        raise ValueError(f"{op}: `epsilon` must be >= 0; received epsilon={value!r}.")
    return value


def _call_with_epsilon(op, args, kwargs):
    """``_door.call`` for the cross-entropies, whose clipping epsilon (``hl.config.epsilon()``) is not an argument
    of the public op: a symbolic call records the public arguments only, so a replay reads the epsilon then."""
    if any_symbolic(args, kwargs):
        return _door.symbolic_call(op, args, kwargs)
    return _door.call(op, *args, epsilon=_epsilon(None, op), **kwargs)


def celu(x, alpha=1.0):
    """Continuously differentiable exponential linear unit.

    Args:
        x: a tensor; integer inputs compute in floatx.
        alpha: the scale of the negative part (default 1.0); must be nonzero.

    Returns:
        ``x`` where ``x > 0``, else ``alpha * (exp(x / alpha) - 1)``; the slope is 1 on both sides of 0.

    Raises:
        ValueError: ``alpha`` is 0.

    >>> import highlevel as hl
    >>> [round(v, 4) for v in hl.ops.convert_to_numpy(hl.ops.celu(hl.ops.convert_to_tensor([-1.0, 2.0]))).tolist()]
    [-0.6321, 2.0]
    """
    alpha = _number(alpha, "alpha", "celu")
    if alpha == 0:
        raise ValueError("celu: `alpha` must be nonzero (the negative part divides by it); received alpha=0.")
    return _door.call("celu", x, alpha=alpha)


def glu(x, axis=-1):
    """Gated linear unit: the first half of ``x`` along ``axis`` gated by the sigmoid of the second half.

    Args:
        x: a tensor whose size along ``axis`` is even.
        axis: the axis split in two halves (default -1).

    Returns:
        ``a * sigmoid(b)`` for ``a, b = split(x, 2, axis)``: ``x``'s shape with ``axis`` halved.

    Raises:
        ValueError: if the size of ``axis`` is odd.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.glu(hl.ops.convert_to_tensor([[2.0, 0.0]]))).tolist()
    [[1.0]]
    """
    axis = _args.axis(axis, _args.ndim_of(x), "glu")
    size = _args.shape_of(x)[axis]
    if size is not None and size % 2:
        raise ValueError(
            f"glu: the size of axis {axis} must be even (it is split into two halves); received a "
            f"tensor of shape {_args.shape_of(x)}."
        )
    return _door.call("glu", x, axis=axis)


def hard_shrink(x, threshold=0.5):
    """Hard shrinkage: ``x`` where ``|x| > threshold``, else 0.

    Args:
        x: a tensor; integer inputs compute in floatx.
        threshold: the half-width of the band set to 0 (default 0.5).

    Returns:
        A tensor like ``x``; the gradient is 0 inside the band and at its edges.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.hard_shrink(hl.ops.convert_to_tensor([-1.0, 0.25, 0.75]))).tolist()
    [-1.0, 0.0, 0.75]
    """
    return _door.call("hard_shrink", x, threshold=_number(threshold, "threshold", "hard_shrink"))


def hard_silu(x):
    """Hard SiLU (hard swish): ``x * hard_sigmoid(x)`` = 0 below -3, ``x`` above 3, ``x * (x + 3) / 6`` between.

    Args:
        x: a tensor; integer inputs compute in floatx.

    Returns:
        A tensor like ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.hard_silu(hl.ops.convert_to_tensor([-4.0, 0.0, 3.0, 4.0]))).tolist()
    [-0.0, 0.0, 3.0, 4.0]
    """
    return _door.call("hard_silu", x)


hard_swish = hard_silu


def hard_tanh(x):
    """Hard tanh: ``x`` clipped to ``[-1, 1]``.

    Args:
        x: a tensor; integer inputs compute in floatx.

    Returns:
        A tensor like ``x``; the gradient is 1 on ``[-1, 1]`` (bounds included) and 0 outside.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.hard_tanh(hl.ops.convert_to_tensor([-2.0, 0.5, 3.0]))).tolist()
    [-1.0, 0.5, 1.0]
    """
    return _door.call("hard_tanh", x)


def log_sigmoid(x):
    """The log of the sigmoid, ``-softplus(-x)``, finite for inputs of +-1e4.

    Args:
        x: a tensor; integer inputs compute in floatx.

    Returns:
        ``log(1 / (1 + exp(-x)))``, a tensor like ``x``.

    >>> import highlevel as hl
    >>> y = hl.ops.log_sigmoid(hl.ops.convert_to_tensor([0.0, -1e4]))
    >>> [round(v, 4) for v in hl.ops.convert_to_numpy(y).tolist()]
    [-0.6931, -10000.0]
    """
    return _door.call("log_sigmoid", x)


def soft_shrink(x, threshold=0.5):
    """Soft shrinkage: ``x`` moved ``threshold`` towards 0, and 0 within ``threshold`` of 0.

    Args:
        x: a tensor; integer inputs compute in floatx.
        threshold: the shrinkage (default 0.5).

    Returns:
        ``x - threshold`` above ``threshold``, ``x + threshold`` below ``-threshold``, else 0.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.soft_shrink(hl.ops.convert_to_tensor([-1.0, 0.25, 1.0]))).tolist()
    [-0.5, 0.0, 0.5]
    """
    return _door.call("soft_shrink", x, threshold=_number(threshold, "threshold", "soft_shrink"))


def sparse_plus(x):
    """SparsePlus: 0 for ``x <= -1``, ``(x + 1)**2 / 4`` for ``-1 < x < 1``, ``x`` for ``x >= 1``.

    A softplus-like curve that is exactly 0 on the left and linear on the right, with a continuous slope.

    Args:
        x: a tensor; integer inputs compute in floatx.

    Returns:
        A tensor like ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.sparse_plus(hl.ops.convert_to_tensor([-2.0, 0.0, 2.0]))).tolist()
    [0.0, 0.25, 2.0]
    """
    return _door.call("sparse_plus", x)


def sparse_sigmoid(x):
    """Sparse sigmoid: 0 for ``x <= -1``, 1 for ``x >= 1``, ``(x + 1) / 2`` between (the slope of sparse_plus).

    Args:
        x: a tensor; integer inputs compute in floatx.

    Returns:
        A tensor like ``x``; the gradient is 0 at -1 and 1 (the ``where`` form of Keras's TensorFlow and PyTorch
        backends; JAX's ``clip`` form gives 0.25 there).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.sparse_sigmoid(hl.ops.convert_to_tensor([-2.0, 0.0, 2.0]))).tolist()
    [0.0, 0.5, 1.0]
    """
    return _door.call("sparse_sigmoid", x)


def squareplus(x, b=4):
    """Squareplus: ``(x + sqrt(x**2 + b)) / 2``, a smooth rectifier (So & Valiant, 2021).

    Args:
        x: a tensor; integer inputs compute in floatx.
        b: the smoothness near 0 (default 4); must be >= 0.

    Returns:
        A tensor like ``x``.

    Raises:
        ValueError: ``b`` is a negative number.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.squareplus(hl.ops.convert_to_tensor([0.0, 1.5]))).tolist()
    [1.0, 2.0]
    """
    if isinstance(b, (int, float)) and not isinstance(b, bool) and b < 0:
        raise ValueError(f"squareplus: `b` must be >= 0 (it is added to x**2 under a square root); received b={b}.")
    return _door.call("squareplus", x, b=b)


def tanh_shrink(x):
    """Tanh shrinkage: ``x - tanh(x)``.

    Args:
        x: a tensor; integer inputs compute in floatx.

    Returns:
        A tensor like ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.tanh_shrink(hl.ops.convert_to_tensor([0.0]))).tolist()
    [0.0]
    """
    return _door.call("tanh_shrink", x)


def threshold(x, threshold, default_value):
    """``x`` where ``x > threshold``, else ``default_value``.

    Args:
        x: a tensor; integer inputs compute in floatx.
        threshold: the value to exceed.
        default_value: the value below (and at) the threshold.

    Returns:
        A tensor like ``x``; the gradient is 0 at and below the threshold.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.threshold(hl.ops.convert_to_tensor([-1.0, 2.0]), 0.0, -5.0)).tolist()
    [-5.0, 2.0]
    """
    return _door.call(
        "threshold",
        x,
        _number(threshold, "threshold", "threshold"),
        _number(default_value, "default_value", "threshold"),
    )


def sparsemax(x, axis=-1):
    """Sparsemax: the Euclidean projection of ``x`` onto the probability simplex along ``axis``.

    Like softmax it gives non-negative values summing to 1, but low scores get exactly 0
    (Martins & Astudillo, 2016).

    Args:
        x: a tensor of scores; integer inputs compute in floatx.
        axis: the axis of the distribution (default -1).

    Returns:
        A tensor like ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.sparsemax(hl.ops.convert_to_tensor([0.0, 3.0, 0.5, 2.5]))).tolist()
    [0.0, 0.75, 0.0, 0.25]
    """
    return _door.call("sparsemax", x, axis=_args.axis(axis, _args.ndim_of(x), "sparsemax"))


def _check_vector(v, name, length, op):
    shape = _args.shape_of(v)
    if len(shape) != 1 or (length is not None and shape[0] is not None and shape[0] != length):
        raise ValueError(
            f"{op}: `{name}` must be a vector of x.shape[axis] = {length} values; received "
            f"{name} of shape {tuple(shape)}."
        )


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    """Normalizes ``x`` by given statistics: ``(x - mean) / sqrt(variance + epsilon) * scale + offset``.

    Args:
        x: a float tensor.
        mean: a vector of ``x.shape[axis]`` means (e.g. a layer's moving mean).
        variance: a vector of ``x.shape[axis]`` variances (e.g. a layer's moving variance).
        axis: the axis the vectors run along (an int; negative counts from the end).
        offset: None, or a vector added after normalizing.
        scale: None, or a vector multiplying the normalized values.
        epsilon: added to the variance (default 1e-3).

    Returns:
        A tensor of ``x``'s shape, in the promoted dtype of the inputs.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, 10.0], [3.0, 30.0]])
    >>> y = hl.ops.batch_normalization(x, [2.0, 20.0], [1.0, 100.0], axis=-1, epsilon=0.0)
    >>> hl.ops.convert_to_numpy(y).tolist()
    [[-1.0, -1.0], [1.0, 1.0]]
    """
    op = "batch_normalization"
    axis = _args.axis(axis, _args.ndim_of(x), op)
    length = _args.shape_of(x)[axis]
    for name, v in (("mean", mean), ("variance", variance), ("offset", offset), ("scale", scale)):
        if v is not None:
            _check_vector(v, name, length, op)
    return _door.call(op, x, mean, variance, axis, offset=offset, scale=scale, epsilon=_number(epsilon, "epsilon", op))


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """Layer normalization (Ba et al., 2016): each example normalized over ``axis`` by its own mean and variance.

    Args:
        x: a tensor; float16/bfloat16 compute in float32, integers in floatx.
        gamma: None, or the scale, of the shape of the normalized axes (or broadcastable to ``x``).
        beta: None, or the offset, of the same shape.
        axis: an axis or a tuple of axes to normalize over (default -1).
        epsilon: added to the variance; None (default) gives ``hl.config.epsilon()``.
        **kwargs: ``rms_scaling=True`` (deprecated in Keras, kept for its users) divides ``x`` by
            ``sqrt(variance + epsilon)`` without centring it and ignores ``beta``; use :func:`rms_normalization`.

    Returns:
        ``(x - mean) / sqrt(variance + epsilon) * gamma + beta``, of ``x``'s shape and dtype.

    Raises:
        TypeError: an unknown keyword argument is given.

    >>> import highlevel as hl
    >>> y = hl.ops.layer_normalization(hl.ops.convert_to_tensor([1.0, 2.0, 3.0]), epsilon=0.0)
    >>> [round(v, 4) for v in hl.ops.convert_to_numpy(y).tolist()]
    [-1.2247, 0.0, 1.2247]
    """
    op = "layer_normalization"
    rms_scaling = bool(kwargs.pop("rms_scaling", False))
    if kwargs:
        raise TypeError(
            f"{op}: unexpected keyword argument(s) {sorted(kwargs)}; accepted: gamma, beta, axis, "
            "epsilon (and the deprecated rms_scaling)."
        )
    if rms_scaling:
        import warnings

        warnings.warn(
            "layer_normalization: rms_scaling=True is deprecated: it divides by the standard deviation, "
            "not by the root mean square. Use hl.ops.rms_normalization for RMS normalization.",
            stacklevel=2,
        )
    axis = _args.axes(axis, _args.ndim_of(x), op)
    return _door.call(op, x, gamma=gamma, beta=beta, axis=axis, epsilon=_epsilon(epsilon, op), rms_scaling=rms_scaling)


def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """Root-mean-square normalization (Zhang & Sennrich, 2019): ``x / sqrt(mean(x**2) + epsilon) * scale``.

    Args:
        x: a tensor; float16/bfloat16 compute in float32, integers in floatx.
        scale: None, or a tensor broadcastable to ``x`` (usually of the normalized axes' shape).
        axis: an axis or a tuple of axes the mean runs over (default -1).
        epsilon: added to the mean square; None (default) gives ``hl.config.epsilon()``.

    Returns:
        A tensor of ``x``'s shape and dtype.

    >>> import highlevel as hl
    >>> y = hl.ops.rms_normalization(hl.ops.convert_to_tensor([3.0, 4.0]), epsilon=0.0)
    >>> [round(v, 4) for v in hl.ops.convert_to_numpy(y).tolist()]
    [0.8485, 1.1314]
    """
    op = "rms_normalization"
    return _door.call(op, x, scale=scale, axis=_args.axes(axis, _args.ndim_of(x), op), epsilon=_epsilon(epsilon, op))


def normalize(x, axis=-1, order=2, epsilon=None):
    """Scales ``x`` to unit norm over ``axis``: ``x / max(norm(x, order), epsilon)``.

    Args:
        x: a tensor; integer inputs compute in floatx. A scalar is treated as a vector of one value.
        axis: an axis, a tuple of axes, or None for all (default -1).
        order: the norm's exponent, an int >= 1 (default 2). Over several axes the norm is the entrywise
            ``sum(|x|**order) ** (1 / order)`` of the block (Keras's backends take a matrix norm there: the same
            for order 2, the largest column sum for order 1, an error for higher orders).
        epsilon: the smallest norm divided by; None (default) gives ``hl.config.epsilon()``.

    Returns:
        A tensor of ``x``'s shape; a zero vector stays zero, with a zero gradient.

    Raises:
        ValueError: ``order`` is not an int >= 1.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.normalize(hl.ops.convert_to_tensor([3.0, 4.0]))).tolist()
    [0.6000000238418579, 0.800000011920929]
    """
    op = "normalize"
    if not _args.is_int(order) or order < 1:
        raise ValueError(f"{op}: `order` must be an int >= 1; received order={order!r}.")
    ndim = max(_args.ndim_of(x), 1)
    return _door.call(op, x, axis=_args.axes(axis, ndim, op), order=int(order), epsilon=_epsilon(epsilon, op))


def _check_same_shape(target, output, op):
    st, so = _args.shape_of(target), _args.shape_of(output)
    if len(st) != len(so) or any(a is not None and b is not None and a != b for a, b in zip(st, so)):
        raise ValueError(
            f"{op}: `target` and `output` must have the same shape; received target.shape={tuple(st)}, "
            f"output.shape={tuple(so)}."
        )


def binary_crossentropy(target, output, from_logits=False):
    """Elementwise binary cross-entropy between 0/1 (or soft) targets and predicted probabilities or logits.

    Args:
        target: labels in [0, 1], of ``output``'s shape.
        output: probabilities (clipped to ``[epsilon, 1 - epsilon]``, ``epsilon = hl.config.epsilon()``), or
            logits when ``from_logits``.
        from_logits: whether ``output`` holds logits (then the computation is finite for logits of +-1e4).

    Returns:
        ``-(target * log(p) + (1 - target) * log(1 - p))``, of ``output``'s shape and float dtype (not reduced).

    Raises:
        ValueError: if the shapes differ.

    >>> import highlevel as hl
    >>> y = hl.ops.binary_crossentropy(hl.ops.convert_to_tensor([0.0, 1.0]), hl.ops.convert_to_tensor([0.1, 0.9]))
    >>> [round(v, 4) for v in hl.ops.convert_to_numpy(y).tolist()]
    [0.1054, 0.1054]
    """
    op = "binary_crossentropy"
    _check_same_shape(target, output, op)
    return _call_with_epsilon(op, (target, output), {"from_logits": bool(from_logits)})


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy between one-hot (or soft) targets and predicted class probabilities or logits along ``axis``.

    Args:
        target: one-hot labels, of ``output``'s shape.
        output: probabilities (renormalized to sum to 1, then clipped to ``[epsilon, 1 - epsilon]``), or logits
            when ``from_logits``.
        from_logits: whether ``output`` holds logits.
        axis: the class axis (default -1).

    Returns:
        ``-sum(target * log(p), axis)``: ``output``'s shape without ``axis``.

    Raises:
        ValueError: if the shapes differ or ``output`` is a scalar.

    >>> import highlevel as hl
    >>> y = hl.ops.categorical_crossentropy(hl.ops.convert_to_tensor([[0.0, 1.0]]),
    ...                                     hl.ops.convert_to_tensor([[0.2, 0.8]]))
    >>> [round(v, 4) for v in hl.ops.convert_to_numpy(y).tolist()]
    [0.2231]
    """
    op = "categorical_crossentropy"
    _check_same_shape(target, output, op)
    if _args.ndim_of(output) < 1:
        raise ValueError(f"{op}: `target` and `output` must have a class axis (rank >= 1); received scalars.")
    return _call_with_epsilon(
        op, (target, output), {"from_logits": bool(from_logits), "axis": _args.axis(axis, _args.ndim_of(output), op)}
    )


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy between integer class labels and predicted class probabilities or logits along ``axis``.

    Args:
        target: integer labels in ``[0, num_classes)``, of ``output``'s shape without ``axis`` (a trailing axis of
            size 1 is dropped).
        output: probabilities (clipped to ``[epsilon, 1 - epsilon]`` and renormalized), or logits when
            ``from_logits``.
        from_logits: whether ``output`` holds logits.
        axis: the class axis (default -1).

    Returns:
        ``-log p[target]``: ``output``'s shape without ``axis``.

    Raises:
        ValueError: if the shapes do not match.

    >>> import highlevel as hl
    >>> y = hl.ops.sparse_categorical_crossentropy(hl.ops.convert_to_tensor([1]),
    ...                                            hl.ops.convert_to_tensor([[0.2, 0.8]]))
    >>> [round(v, 4) for v in hl.ops.convert_to_numpy(y).tolist()]
    [0.2231]
    """
    op = "sparse_categorical_crossentropy"
    rank = _args.ndim_of(output)
    if rank < 1:
        raise ValueError(f"{op}: `output` must have a class axis (rank >= 1); received a scalar.")
    axis = _args.axis(axis, rank, op)
    st, so = _args.shape_of(target), _args.shape_of(output)
    if len(st) == rank and st and st[-1] == 1:
        from .numpy import squeeze

        target, st = squeeze(target, axis=-1), st[:-1]
    want = so[:axis] + so[axis + 1 :]
    if len(st) != len(want) or any(a is not None and b is not None and a != b for a, b in zip(st, want)):
        raise ValueError(
            f"{op}: `target` must have the shape of `output` without the class axis {axis}, "
            f"{tuple(want)}; received target.shape={tuple(_args.shape_of(target))}, "
            f"output.shape={tuple(so)}. Integer labels go in `target`; for one-hot labels use "
            "categorical_crossentropy."
        )
    return _call_with_epsilon(op, (target, output), {"from_logits": bool(from_logits), "axis": axis})


def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """Multi-hot encoding: each row of integer labels becomes one vector with 1 at every label present.

    The labels are one-hot encoded along ``axis`` and reduced with ``max`` over axis 1 (axis 0 for a vector of
    labels), as Keras does.

    Args:
        inputs: integer labels; labels outside ``[0, num_classes)`` are ignored.
        num_classes: the number of classes (Keras's older name ``num_tokens`` is accepted too).
        axis: where the class axis goes in the one-hot encoding (default -1).
        dtype: the result's dtype (default floatx).
        sparse: must be False: highlevel has no sparse tensors.

    Returns:
        A tensor with a class axis of size ``num_classes`` instead of the reduced axis.

    Raises:
        TypeError: an unknown keyword argument is given.
        ValueError: ``num_classes`` is None, or ``sparse=True`` (sparse tensors are not supported).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.multi_hot(hl.ops.convert_to_tensor([[0, 2], [1, 1]]), 4)).tolist()
    [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
    """
    op = "multi_hot"
    if num_classes is None and "num_tokens" in kwargs:
        num_classes = kwargs.pop("num_tokens")
    if kwargs:
        raise TypeError(f"{op}: unexpected keyword argument(s) {sorted(kwargs)}.")
    if num_classes is None:
        raise ValueError(f"{op}: `num_classes` must be given (the size of the encoding); received None.")
    if sparse:
        raise ValueError(
            f"{op}: sparse=True asks for a sparse tensor, which highlevel does not have; pass "
            "sparse=False (the default) for a dense result."
        )
    ndim = _args.ndim_of(inputs)
    if axis != -1:
        axis = _args.axis(axis, ndim, op, extra=1)
    return _door.call(
        op, inputs, _args.positive_int(num_classes, "num_classes", op), axis=axis, dtype=_args.dtype(dtype, op)
    )


def psnr(x1, x2, max_val):
    """Peak signal-to-noise ratio of ``x2`` against ``x1``, in decibels.

    Args:
        x1: the reference signal (e.g. a batch of images).
        x2: the reconstruction, of ``x1``'s shape.
        max_val: the largest possible value of the signal (1.0 for images in [0, 1], 255 for bytes).

    Returns:
        ``20 * log10(max_val) - 10 * log10(mean((x1 - x2)**2))``, a float scalar (``inf`` for identical inputs).

    Raises:
        ValueError: if the shapes differ.

    >>> import highlevel as hl
    >>> p = hl.ops.psnr(hl.ops.convert_to_tensor([0.0, 0.0]), hl.ops.convert_to_tensor([0.1, 0.1]), 1.0)
    >>> round(float(hl.ops.convert_to_numpy(p)), 4)
    20.0
    """
    s1, s2 = _args.shape_of(x1), _args.shape_of(x2)
    if len(s1) != len(s2) or any(a is not None and b is not None and a != b for a, b in zip(s1, s2)):
        raise ValueError(f"psnr: `x1` and `x2` must have the same shape; received {tuple(s1)} and {tuple(s2)}.")
    return _door.call("psnr", x1, x2, max_val)


def _adaptive_args(inputs, output_size, data_format, op):
    n = _args.spatial_rank(inputs, op)
    return _args.int_tuple(output_size, n, "output_size", op), _args.data_format(data_format, op)


def adaptive_average_pool(inputs, output_size, data_format=None):
    """Average pooling to a fixed spatial size, whatever the input's size.

    Output ``i`` of a spatial axis of length ``L`` pooled to ``O`` averages the inputs
    ``[floor(i * L / O), ceil((i + 1) * L / O))`` (PyTorch's windows; ``O > L`` repeats inputs).

    Args:
        inputs: a tensor of rank 3, 4 or 5 (batch, 1 to 3 spatial axes, channels); integers average in floatx.
        output_size: an int (every spatial axis) or one int per spatial axis.
        data_format: ``"channels_last"`` or ``"channels_first"``; None gives ``hl.config.image_data_format()``.

    Returns:
        A tensor with the spatial axes of size ``output_size``.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(6, dtype="float32"), (1, 6, 1))
    >>> hl.ops.convert_to_numpy(hl.ops.adaptive_average_pool(x, 2)).ravel().tolist()
    [1.0, 4.0]
    """
    op = "adaptive_average_pool"
    size, data_format = _adaptive_args(inputs, output_size, data_format, op)
    return _door.call(op, inputs, size, data_format=data_format)


def adaptive_max_pool(inputs, output_size, data_format=None):
    """Max pooling to a fixed spatial size, with the windows of :func:`adaptive_average_pool`.

    Args:
        inputs: a tensor of rank 3, 4 or 5 (batch, 1 to 3 spatial axes, channels).
        output_size: an int (every spatial axis) or one int per spatial axis.
        data_format: ``"channels_last"`` or ``"channels_first"``; None gives ``hl.config.image_data_format()``.

    Returns:
        A tensor of ``inputs``' dtype with the spatial axes of size ``output_size``.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(6, dtype="float32"), (1, 6, 1))
    >>> hl.ops.convert_to_numpy(hl.ops.adaptive_max_pool(x, 4)).ravel().tolist()
    [1.0, 2.0, 4.0, 5.0]
    """
    op = "adaptive_max_pool"
    size, data_format = _adaptive_args(inputs, output_size, data_format, op)
    return _door.call(op, inputs, size, data_format=data_format)


def separable_conv(
    inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid", data_format=None, dilation_rate=1
):
    """Separable convolution: a depthwise convolution, then a pointwise (1x1) one that mixes the channels.

    Args:
        inputs: a tensor of rank 3, 4 or 5 (batch, spatial axes, channels; channels first with
            ``data_format="channels_first"``).
        depthwise_kernel: ``(*kernel_size, in_channels, depth_multiplier)``.
        pointwise_kernel: ``(*ones, in_channels * depth_multiplier, out_channels)``.
        strides: the step of the depthwise convolution's window, an int or one per spatial dimension.
        padding: ``"valid"`` (default) or ``"same"``, for the depthwise convolution.
        dilation_rate: the spacing between the depthwise kernel's taps (default 1).
        data_format: ``"channels_last"`` or ``"channels_first"``; None gives ``hl.config.image_data_format()``.

    Returns:
        The convolved tensor, with ``out_channels`` channels.

    Raises:
        ValueError: a kernel's rank does not match the rank of ``inputs``.

    >>> import highlevel as hl
    >>> x = hl.ops.ones((1, 4, 4, 2))
    >>> y = hl.ops.separable_conv(x, hl.ops.ones((3, 3, 2, 1)), hl.ops.ones((1, 1, 2, 5)))
    >>> hl.ops.shape(y), float(hl.ops.convert_to_numpy(y)[0, 0, 0, 0])
    ((1, 2, 2, 5), 18.0)
    """
    op = "separable_conv"
    n = _args.spatial_rank(inputs, op)
    for name, kernel in (("depthwise_kernel", depthwise_kernel), ("pointwise_kernel", pointwise_kernel)):
        if _args.ndim_of(kernel) != n + 2:
            raise ValueError(
                f"{op}: `{name}` must have rank {n + 2} for inputs of rank {n + 2}; received shape "
                f"{tuple(_args.shape_of(kernel))}."
            )
    return _door.call(
        op,
        inputs,
        depthwise_kernel,
        pointwise_kernel,
        strides=_args.int_tuple(strides, n, "strides", op),
        padding=_args.padding(padding, op),
        data_format=_args.data_format(data_format, op),
        dilation_rate=_args.int_tuple(dilation_rate, n, "dilation_rate", op),
    )


def _blocks(h, w, kernel_size, dilation, padding, stride, op):
    k = _args.int_tuple(kernel_size, 2, "kernel_size", op)
    d = _args.int_tuple(dilation, 2, "dilation", op)
    p = _args.int_tuple(padding, 2, "padding", op, minimum=0)
    s = _args.int_tuple(stride, 2, "stride", op)
    counts = []
    for size, ki, di, pi, si in zip((h, w), k, d, p, s):
        if size is None:
            counts.append(None)
            continue
        extent = di * (ki - 1) + 1
        if size + 2 * pi < extent:
            raise ValueError(
                f"{op}: a kernel of size {ki} with dilation {di} spans {extent} entries, more than "
                f"the padded input's {size + 2 * pi}; use a smaller kernel or more padding."
            )
        counts.append((size + 2 * pi - extent) // si + 1)
    return k, d, p, s, counts


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Extracts sliding blocks of a batch of channels-first images as columns (im2col, as ``torch.nn.Unfold``).

    Args:
        x: a tensor ``(N, C, H, W)``.
        kernel_size: the block size, an int or ``(kH, kW)``.
        dilation: the spacing of the block's entries (default 1).
        padding: zeros added on both sides of H and W first (default 0).
        stride: the step between blocks (default 1).

    Returns:
        ``(N, C * kH * kW, L)``: one column per block (``L`` blocks, row-major), its rows ordered by channel,
        then kernel row, then kernel column.

    Raises:
        ValueError: ``x`` is not a 4-D tensor.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(16, dtype="float32"), (1, 1, 4, 4))
    >>> cols = hl.ops.unfold(x, 2, stride=2)
    >>> hl.ops.shape(cols), hl.ops.convert_to_numpy(cols)[0, :, 0].tolist()
    ((1, 4, 4), [0.0, 1.0, 4.0, 5.0])
    """
    op = "unfold"
    shape = _args.shape_of(x)
    if len(shape) != 4:
        raise ValueError(f"{op}: `x` must be a 4-D tensor (N, C, H, W); received shape {tuple(shape)}.")
    k, d, p, s, _ = _blocks(shape[2], shape[3], kernel_size, dilation, padding, stride, op)
    return _door.call(op, x, k, dilation=d, padding=p, stride=s)


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sums columns of sliding blocks back into a batch of images (col2im): the adjoint of :func:`unfold`.

    Args:
        x: a tensor ``(N, C * kH * kW, L)`` with ``L`` the number of blocks that fit in ``output_size``.
        output_size: the image size ``(oH, oW)`` (or an int for both).
        kernel_size: the block size ``(kH, kW)`` (or an int for both), as for :func:`unfold`.
        dilation: the spacing between a block's entries (default 1), as for :func:`unfold`.
        padding: the zero padding that :func:`unfold` added on each side (default 0); it is cut off again.
        stride: the step between blocks (default 1), as for :func:`unfold`.

    Returns:
        ``(N, C, oH, oW)``; entries covered by several blocks get the sum of their values.

    Raises:
        ValueError: if ``x``'s shape does not match the blocks of ``output_size``.

    >>> import highlevel as hl
    >>> cols = hl.ops.ones((1, 4, 9))
    >>> hl.ops.convert_to_numpy(hl.ops.fold(cols, 4, 2))[0, 0].tolist()[1]
    [2.0, 4.0, 4.0, 2.0]
    """
    op = "fold"
    shape = _args.shape_of(x)
    if len(shape) != 3:
        raise ValueError(f"{op}: `x` must be a 3-D tensor (N, C * kH * kW, L); received shape {tuple(shape)}.")
    out = _args.int_tuple(output_size, 2, "output_size", op)
    k, d, p, s, (nh, nw) = _blocks(out[0], out[1], kernel_size, dilation, padding, stride, op)
    if shape[1] is not None and shape[1] % (k[0] * k[1]):
        raise ValueError(
            f"{op}: the second axis of `x` ({shape[1]}) must be C * kH * kW, a multiple of "
            f"{k[0] * k[1]}; received shape {tuple(shape)}."
        )
    if shape[2] is not None and shape[2] != nh * nw:
        raise ValueError(
            f"{op}: an output of size {out} has {nh} x {nw} = {nh * nw} blocks, but `x` has "
            f"{shape[2]} columns (shape {tuple(shape)})."
        )
    return _door.call(op, x, out, k, dilation=d, padding=p, stride=s)


def _block_args(x, block_size, data_format, op):
    shape = _args.shape_of(x)
    if len(shape) != 4:
        raise ValueError(f"{op}: `x` must be a 4-D tensor; received shape {tuple(shape)}.")
    block_size = _args.positive_int(block_size, "block_size", op, minimum=2)
    return shape, block_size, _args.data_format(data_format, op)


def depth_to_space(x, block_size, data_format="channels_last"):
    """Rearranges channels into spatial blocks ("pixel shuffle"): ``(N, H, W, C * r * r)`` to
    ``(N, H * r, W * r, C)`` for ``r = block_size``.

    With channels last, channel ``(i * r + j) * C + c`` goes to the pixel ``(i, j)`` of its block in channel
    ``c`` (TensorFlow's order); with channels first, channel ``c * r * r + i * r + j`` does (PyTorch's
    ``pixel_shuffle``, as Keras's JAX, PyTorch and NumPy backends; its TensorFlow backend uses the channels-last
    order there too).

    Args:
        x: a 4-D tensor, its channels a multiple of ``block_size**2``.
        block_size: the block's side, an int >= 2.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.

    Returns:
        The rearranged tensor, of ``x``'s dtype.

    Raises:
        ValueError: the number of channels is not a multiple of ``block_size ** 2``.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(4), (1, 1, 1, 4))
    >>> hl.ops.convert_to_numpy(hl.ops.depth_to_space(x, 2))[0, :, :, 0].tolist()
    [[0, 1], [2, 3]]
    """
    op = "depth_to_space"
    shape, block_size, data_format = _block_args(x, block_size, data_format, op)
    c = shape[3] if data_format == "channels_last" else shape[1]
    if c is not None and c % (block_size * block_size):
        raise ValueError(
            f"{op}: the number of channels ({c}) must be a multiple of block_size**2 = "
            f"{block_size * block_size}; received shape {tuple(shape)}."
        )
    return _door.call(op, x, block_size, data_format=data_format)


def space_to_depth(x, block_size, data_format="channels_last"):
    """Rearranges spatial blocks into channels, the inverse of :func:`depth_to_space`: ``(N, H * r, W * r, C)``
    to ``(N, H, W, C * r * r)`` for ``r = block_size``.

    Args:
        x: a 4-D tensor whose height and width are multiples of ``block_size``.
        block_size: the block's side, an int >= 2.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.

    Returns:
        The rearranged tensor, of ``x``'s dtype.

    Raises:
        ValueError: the height or width is not a multiple of ``block_size``.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(4), (1, 2, 2, 1))
    >>> hl.ops.convert_to_numpy(hl.ops.space_to_depth(x, 2)).ravel().tolist()
    [0, 1, 2, 3]
    """
    op = "space_to_depth"
    shape, block_size, data_format = _block_args(x, block_size, data_format, op)
    spatial = shape[1:3] if data_format == "channels_last" else shape[2:4]
    if any(d is not None and d % block_size for d in spatial):
        raise ValueError(
            f"{op}: height and width must be multiples of block_size={block_size}; received shape {tuple(shape)}."
        )
    return _door.call(op, x, block_size, data_format=data_format)


def dot_product_attention(
    query,
    key,
    value,
    bias=None,
    mask=None,
    scale=None,
    is_causal=False,
    flash_attention=None,
    attn_logits_soft_cap=None,
):
    """Scaled dot-product attention: ``softmax(scale * Q K^T + bias) V``, per head.

    Args:
        query: ``(B, T, N, H)``: batch, query length, heads, head size.
        key: ``(B, S, K, H)``; ``N`` must be a multiple of ``K`` (``K < N``: grouped-query attention, ``K == 1``:
            multi-query attention).
        value: ``(B, S, K, H_v)``.
        bias: None, or logits added before the softmax, broadcastable to ``(B, N, T, S)``.
        mask: None, or a boolean tensor broadcastable to ``(B, N, T, S)``: True where a query may attend a key.
        scale: the logits' scale; None gives ``1 / sqrt(H)``.
        is_causal: whether query ``t`` attends only keys ``s <= t``.
        flash_attention: a performance hint (None, True or False) that does not change the result.
        attn_logits_soft_cap: None, or a positive cap: the logits become ``cap * tanh(logits / cap)``.

    Returns:
        ``(B, T, N, H_v)`` in the promoted dtype of the inputs. The logits and the softmax compute in at least
        float32; a query with every key masked averages all values.

    Raises:
        ValueError: ``query``, ``key`` or ``value`` is not 4-D; the head sizes of ``query`` and ``key``
            differ; ``key`` and ``value`` differ in length or heads; the query heads are not a multiple of the
            key/value heads; ``attn_logits_soft_cap`` is not positive; or ``flash_attention`` is not None or a
            bool.

    >>> import highlevel as hl
    >>> q = hl.ops.ones((1, 2, 1, 4))
    >>> v = hl.ops.reshape(hl.ops.arange(3, dtype="float32"), (1, 3, 1, 1))
    >>> out = hl.ops.dot_product_attention(q, hl.ops.ones((1, 3, 1, 4)), v, is_causal=True)
    >>> hl.ops.convert_to_numpy(out).ravel().tolist()
    [0.0, 0.5]
    """
    op = "dot_product_attention"
    shapes = {"query": _args.shape_of(query), "key": _args.shape_of(key), "value": _args.shape_of(value)}
    for name, shape in shapes.items():
        if len(shape) != 4:
            raise ValueError(
                f"{op}: `{name}` must be a 4-D tensor (batch, length, heads, head size); received shape {tuple(shape)}."
            )
    (_, _, heads, depth), (_, s_k, kv_heads, depth_k), (_, s_v, v_heads, _) = shapes.values()
    if None not in (depth, depth_k) and depth != depth_k:
        raise ValueError(f"{op}: `query` and `key` must have the same head size; received {depth} and {depth_k}.")
    if None not in (s_k, s_v, kv_heads, v_heads) and (s_k, kv_heads) != (s_v, v_heads):
        raise ValueError(
            f"{op}: `key` and `value` must have the same length and heads; received shapes "
            f"{tuple(shapes['key'])} and {tuple(shapes['value'])}."
        )
    if None not in (heads, kv_heads) and heads % kv_heads:
        raise ValueError(f"{op}: the query heads ({heads}) must be a multiple of the key/value heads ({kv_heads}).")
    if scale is not None:
        scale = _number(scale, "scale", op)
    if attn_logits_soft_cap is not None:
        attn_logits_soft_cap = _number(attn_logits_soft_cap, "attn_logits_soft_cap", op)
        if attn_logits_soft_cap <= 0:
            raise ValueError(f"{op}: `attn_logits_soft_cap` must be positive; received {attn_logits_soft_cap}.")
    if flash_attention not in (None, True, False):
        raise ValueError(f"{op}: `flash_attention` must be None, True or False; received {flash_attention!r}.")
    return _door.call(
        op,
        query,
        key,
        value,
        bias=bias,
        mask=mask,
        scale=scale,
        is_causal=bool(is_causal),
        flash_attention=flash_attention,
        attn_logits_soft_cap=attn_logits_soft_cap,
    )


def _class_index(value, classes, name, op):
    """A class index (the CTC blank) in ``[0, classes)``; negative counts from the end, None is the last class."""
    if value is None:
        if classes is None:
            raise ValueError(f"{op}: `{name}=None` (the last class) needs a known number of classes.")
        return classes - 1
    value = _args.integer(value, name, op)
    if classes is not None:
        if not -classes <= value < classes:
            raise ValueError(f"{op}: {name}={value} is not a class of the {classes} classes.")
        value %= classes
    elif value < 0:
        raise ValueError(f"{op}: a negative {name} needs a known number of classes; received {name}={value}.")
    return value


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """Connectionist temporal classification loss (Graves et al., 2006) of each sequence of a batch.

    Args:
        target: ``(B, L)`` integer labels; the first ``target_length[b]`` of row ``b`` count.
        output: ``(B, T, C)`` logits (not normalized: a log-softmax is taken over the classes).
        target_length: ``(B,)`` label counts.
        output_length: ``(B,)`` numbers of valid steps of ``output``.
        mask_index: the class of the CTC blank (default 0).

    Returns:
        ``(B,)``: the negative log-likelihood of each target, in ``output``'s dtype promoted with float32;
        ``inf`` where no alignment exists (a target too long for its output). Differentiable in ``output``.

    Raises:
        ValueError: ``target`` is not 2-D or ``output`` not 3-D, a length vector does not have one entry per
            sequence, or the batch sizes differ.

    >>> import highlevel as hl
    >>> logits = hl.ops.zeros((1, 2, 2))   # two steps, blank and one label, uniform
    >>> loss = hl.ops.ctc_loss([[1]], logits, [1], [2])
    >>> round(float(hl.ops.convert_to_numpy(loss)[0]), 4)   # -log(3 / 4): "1-", "-1" or "11"
    0.2877
    """
    op = "ctc_loss"
    st, so = _args.shape_of(target), _args.shape_of(output)
    if len(st) != 2 or len(so) != 3:
        raise ValueError(
            f"{op}: `target` must be (batch, max_label_length) and `output` (batch, steps, classes); "
            f"received shapes {tuple(st)} and {tuple(so)}."
        )
    for name, v in (("target_length", target_length), ("output_length", output_length)):
        shape = _args.shape_of(v)
        if len(shape) != 1 or None not in (shape[0], so[0]) and shape[0] != so[0]:
            raise ValueError(
                f"{op}: `{name}` must be a vector of one length per sequence ({so[0]}); received shape {tuple(shape)}."
            )
    if None not in (st[0], so[0]) and st[0] != so[0]:
        raise ValueError(
            f"{op}: `target` and `output` must have the same batch size; received shapes {tuple(st)} and {tuple(so)}."
        )
    mask_index = _class_index(mask_index, so[2], "mask_index", op)
    return _door.call(op, target, output, target_length, output_length, mask_index=mask_index)


def ctc_decode(
    inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1, merge_repeated=True, mask_index=0
):
    """Decodes the logits of a CTC model into label sequences (not differentiable).

    Args:
        inputs: ``(B, T, C)`` logits (not normalized).
        sequence_lengths: ``(B,)`` numbers of valid steps.
        strategy: ``"greedy"`` (the best class of each step) or ``"beam_search"`` (CTC prefix beam search).
        beam_width: the prefixes kept by beam search (default 100).
        top_paths: how many of the best sequences beam search returns (default 1, at most ``beam_width``).
        merge_repeated: greedy only: merge repeated classes of consecutive steps (default True).
        mask_index: the class of the blank (default 0; None: the last class).

    Returns:
        ``(paths, scores)``. ``paths``: int32 ``(P, B, T)`` with ``P = 1`` for greedy and ``top_paths`` for beam
        search, each sequence's labels first and ``-1`` after them. ``scores``: greedy, ``(B, 1)``, the negated
        sum of the best logit of each valid step; beam search, ``(B, top_paths)``, the log-probabilities of the
        sequences, best first.

    Raises:
        ValueError: ``inputs`` is not 3-D, ``sequence_lengths`` is not a vector, or ``top_paths`` exceeds
            ``beam_width`` in beam search.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> logits = np.log(np.array([[[0.1, 0.9], [0.1, 0.9], [0.9, 0.1], [0.1, 0.9]]], np.float32))
    >>> paths, scores = hl.ops.ctc_decode(logits, [4])
    >>> hl.ops.convert_to_numpy(paths).tolist()
    [[[1, 1, -1, -1]]]
    """
    op = "ctc_decode"
    shape = _args.shape_of(inputs)
    if len(shape) != 3:
        raise ValueError(f"{op}: `inputs` must be (batch, steps, classes) logits; received shape {tuple(shape)}.")
    lengths = _args.shape_of(sequence_lengths)
    if len(lengths) != 1:
        raise ValueError(
            f"{op}: `sequence_lengths` must be a vector of one length per sequence; received shape {tuple(lengths)}."
        )
    strategy = _args.one_of(strategy, ("greedy", "beam_search"), "strategy", op)
    mask_index = _class_index(mask_index, shape[2], "mask_index", op)
    beam_width = _args.positive_int(beam_width, "beam_width", op)
    top_paths = _args.positive_int(top_paths, "top_paths", op)
    if strategy == "beam_search" and top_paths > beam_width:
        raise ValueError(
            f"{op}: top_paths={top_paths} cannot exceed beam_width={beam_width} (beam search keeps "
            "only beam_width sequences)."
        )
    return _door.call(
        op,
        inputs,
        sequence_lengths,
        strategy=strategy,
        beam_width=beam_width,
        top_paths=top_paths,
        merge_repeated=bool(merge_repeated),
        mask_index=mask_index,
    )


__all__ = [
    "one_hot",
    "relu",
    "relu6",
    "sigmoid",
    "softplus",
    "softsign",
    "silu",
    "gelu",
    "elu",
    "selu",
    "leaky_relu",
    "hard_sigmoid",
    "softmax",
    "log_softmax",
    "conv",
    "depthwise_conv",
    "conv_transpose",
    "max_pool",
    "average_pool",
    "moments",
    "swish",
]
__all__ += [
    "adaptive_average_pool",
    "adaptive_max_pool",
    "batch_normalization",
    "binary_crossentropy",
    "categorical_crossentropy",
    "celu",
    "ctc_decode",
    "ctc_loss",
    "depth_to_space",
    "dot_product_attention",
    "fold",
    "glu",
    "hard_shrink",
    "hard_silu",
    "hard_swish",
    "hard_tanh",
    "layer_normalization",
    "log_sigmoid",
    "multi_hot",
    "normalize",
    "psnr",
    "rms_normalization",
    "separable_conv",
    "soft_shrink",
    "space_to_depth",
    "sparse_categorical_crossentropy",
    "sparse_plus",
    "sparse_sigmoid",
    "sparsemax",
    "squareplus",
    "tanh_shrink",
    "threshold",
    "unfold",
]


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


__all__ += ["polar"]
