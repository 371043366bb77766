"""The 2D transposed convolution layer."""

from .base_conv_transpose import BaseConvTranspose


class Conv2DTranspose(BaseConvTranspose):
    """2D transposed convolution layer (``keras.layers.Conv2DTranspose``).

    The transpose of a Conv2D: it maps an output-shaped tensor back to the input shape (used to upsample,
    e.g. in decoders). The kernel has shape ``kernel_size + (filters, input_channels)``.

    Args:
        filters: positive int, the number of output channels.
        kernel_size: int or tuple of 2 ints, the window size.
        strides: int or tuple of 2 ints (default 1);
            ``strides > 1`` excludes ``dilation_rate > 1``.
        padding: ``"valid"`` or ``"same"`` (output ``size * stride``).
        output_padding: None, or an int or tuple of 2 ints, each smaller than its stride: extra output size on one side
            (None: ``size * stride + max(kernel - stride, 0)`` for ``"valid"``).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        dilation_rate: int or tuple of 2 ints (default 1).
        activation: activation name or callable; None is linear.
        use_bias: whether to add a bias of shape ``(filters,)``.
        kernel_initializer: kernel initializer (default ``"glorot_uniform"``).
        bias_initializer: bias initializer (default ``"zeros"``).
        kernel_regularizer: optional regularizer of the kernel (default None).
        bias_regularizer: optional regularizer of the bias (default None).
        activity_regularizer: optional regularizer of the layer's output (default None).
        kernel_constraint: optional constraint applied to the kernel after each update (default None).
        bias_constraint: optional constraint applied to the bias after each update (default None).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, rows, cols, channels)`` (channels_last) or
        ``(batch, channels, rows, cols)`` (channels_first).

    Output shape:
        ``(batch, new_rows, new_cols, filters)`` (channels_last) or
        ``(batch, filters, new_rows, new_cols)`` (channels_first).

    >>> import highlevel as hl
    >>> layer = hl.layers.Conv2DTranspose(4, 3, strides=2, padding="same")
    >>> hl.ops.shape(layer(hl.ops.ones((2, 3, 3, 2))))
    (2, 6, 6, 4)
    >>> tuple(layer.kernel.shape)
    (3, 3, 4, 2)
    """

    def __init__(
        self,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        output_padding=None,
        data_format=None,
        dilation_rate=1,
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(
            2,
            filters,
            kernel_size,
            strides=strides,
            padding=padding,
            output_padding=output_padding,
            data_format=data_format,
            dilation_rate=dilation_rate,
            activation=activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            kernel_constraint=kernel_constraint,
            bias_constraint=bias_constraint,
            **kwargs,
        )
