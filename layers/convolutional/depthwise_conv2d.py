"""The 2D depthwise convolution layer."""

from .base_depthwise_conv import BaseDepthwiseConv


class DepthwiseConv2D(BaseDepthwiseConv):
    """2D depthwise convolution layer (``keras.layers.DepthwiseConv2D``).

    Each input channel is convolved with its own ``depth_multiplier`` filters (no mixing across channels);
    the output has ``input_channels * depth_multiplier`` channels. The kernel (weight ``kernel``) has shape
    ``kernel_size + (input_channels, depth_multiplier)``.

    Args:
        kernel_size: int or tuple of 2 ints, the window size.
        strides: int or tuple of 2 ints (default 1);
            ``strides > 1`` excludes ``dilation_rate > 1``.
        padding: ``"valid"`` or ``"same"``.
        depth_multiplier: positive int, the number of filters per input channel (default 1).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        dilation_rate: int or tuple of 2 ints (default 1).
        activation: activation name or callable; None is linear.
        use_bias: whether to add a bias of shape ``(input_channels * depth_multiplier,)``.
        depthwise_initializer: kernel initializer (default ``"glorot_uniform"``).
        bias_initializer: bias initializer (default ``"zeros"``).
        depthwise_regularizer: optional regularizer of the depthwise kernel (default None).
        bias_regularizer: optional regularizer of the bias (default None).
        activity_regularizer: optional regularizer of the layer's output (default None).
        depthwise_constraint: optional constraint applied to the depthwise kernel after each update (default None).
        bias_constraint: optional constraint applied to the bias after each update (default None).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, rows, cols, channels)`` (channels_last) or
        ``(batch, channels, rows, cols)`` (channels_first).

    Output shape:
        ``(batch, new_rows, new_cols, channels * depth_multiplier)`` (channels_last) or
        ``(batch, channels * depth_multiplier, new_rows, new_cols)`` (channels_first).

    >>> import highlevel as hl
    >>> layer = hl.layers.DepthwiseConv2D(3, depth_multiplier=2)
    >>> hl.ops.shape(layer(hl.ops.ones((2, 5, 5, 3))))
    (2, 3, 3, 6)
    >>> tuple(layer.kernel.shape)
    (3, 3, 3, 2)
    """

    def __init__(
        self,
        kernel_size,
        strides=1,
        padding="valid",
        depth_multiplier=1,
        data_format=None,
        dilation_rate=1,
        activation=None,
        use_bias=True,
        depthwise_initializer="glorot_uniform",
        bias_initializer="zeros",
        depthwise_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        depthwise_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(
            2,
            depth_multiplier,
            kernel_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            dilation_rate=dilation_rate,
            activation=activation,
            use_bias=use_bias,
            depthwise_initializer=depthwise_initializer,
            bias_initializer=bias_initializer,
            depthwise_regularizer=depthwise_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            depthwise_constraint=depthwise_constraint,
            bias_constraint=bias_constraint,
            **kwargs,
        )
