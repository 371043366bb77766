"""The 1D depthwise-separable convolution layer."""

from .base_separable_conv import BaseSeparableConv


class SeparableConv1D(BaseSeparableConv):
    """1D depthwise-separable convolution layer (``keras.layers.SeparableConv1D``).

    A depthwise convolution (each input channel with its own ``depth_multiplier`` filters) followed by a
    pointwise convolution mixing the channels into ``filters`` outputs. Weights: ``depthwise_kernel``
    ``kernel_size + (input_channels, depth_multiplier)``, ``pointwise_kernel``
    ``(1,) + (input_channels * depth_multiplier, filters)`` and ``bias`` ``(filters,)``.

    Args:
        filters: positive int, the number of output channels.
        kernel_size: int or 1-tuple, the depthwise window size.
        strides: int or 1-tuple (default 1);
            ``strides > 1`` excludes ``dilation_rate > 1``.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        dilation_rate: int or 1-tuple (default 1).
        depth_multiplier: positive int, depthwise filters per input channel (default 1).
        activation: activation name or callable; None is linear.
        use_bias: whether to add a bias of shape ``(filters,)``.
        depthwise_initializer: initializer of the depthwise kernel (default ``"glorot_uniform"``).
        pointwise_initializer: initializer of the pointwise kernel (default ``"glorot_uniform"``).
        bias_initializer: bias initializer (default ``"zeros"``).
        depthwise_regularizer: optional regularizer of the depthwise kernel (default None).
        pointwise_regularizer: optional regularizer of the pointwise kernel (default None).
        bias_regularizer: optional regularizer of the bias (default None).
        activity_regularizer: optional regularizer of the layer's output (default None).
        depthwise_constraint: optional constraint applied to the depthwise kernel after each update (default None).
        pointwise_constraint: optional constraint applied to the pointwise kernel after each update (default None).
        bias_constraint: optional constraint applied to the bias after each update (default None).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, steps, channels)`` (channels_last) or
        ``(batch, channels, steps)`` (channels_first).

    Output shape:
        ``(batch, new_steps, filters)`` (channels_last) or
        ``(batch, filters, new_steps)`` (channels_first).

    >>> import highlevel as hl
    >>> layer = hl.layers.SeparableConv1D(4, 3, padding="same")
    >>> hl.ops.shape(layer(hl.ops.ones((2, 5, 3))))
    (2, 5, 4)
    >>> [w.path.split("/")[-1] for w in layer.weights]
    ['depthwise_kernel', 'pointwise_kernel', 'bias']
    """

    def __init__(
        self,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        data_format=None,
        dilation_rate=1,
        depth_multiplier=1,
        activation=None,
        use_bias=True,
        depthwise_initializer="glorot_uniform",
        pointwise_initializer="glorot_uniform",
        bias_initializer="zeros",
        depthwise_regularizer=None,
        pointwise_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        depthwise_constraint=None,
        pointwise_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(
            1,
            depth_multiplier,
            filters,
            kernel_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            dilation_rate=dilation_rate,
            activation=activation,
            use_bias=use_bias,
            depthwise_initializer=depthwise_initializer,
            pointwise_initializer=pointwise_initializer,
            bias_initializer=bias_initializer,
            depthwise_regularizer=depthwise_regularizer,
            pointwise_regularizer=pointwise_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            depthwise_constraint=depthwise_constraint,
            pointwise_constraint=pointwise_constraint,
            bias_constraint=bias_constraint,
            **kwargs,
        )
