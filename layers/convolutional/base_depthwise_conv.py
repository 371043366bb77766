"""The N-D depthwise convolution layer that DepthwiseConv1D and DepthwiseConv2D specialise."""

from highlevel import activations, constraints, initializers, ops, regularizers
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer

from .base_conv import add_channel_bias, check_positive_int, check_strides_and_dilation, input_channels
from .conv_utils import conv_output_shape, standardize_data_format, standardize_padding, standardize_tuple
from .static_output_spec import StaticOutputSpec


class BaseDepthwiseConv(StaticOutputSpec, Layer):
    """Abstract depthwise convolution layer; use DepthwiseConv1D or DepthwiseConv2D.

    Each input channel is convolved with its own ``depth_multiplier`` filters; the outputs are concatenated,
    giving ``input_channels * depth_multiplier`` channels. The kernel (weight name ``kernel``, as in Keras)
    has shape ``kernel_size + (input_channels, depth_multiplier)``.

    Args:
        rank: the number of spatial dimensions (1 or 2).
        depth_multiplier: positive int, the number of filters per input channel.
        kernel_size: int or tuple of ``rank`` ints.
        strides: int or tuple of ``rank`` ints (default 1).
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        dilation_rate: int or tuple of ``rank`` ints (default 1).
        activation: activation name or callable; None is linear.
        use_bias: whether to add a bias of shape ``(input_channels * depth_multiplier,)``.
        depthwise_initializer, bias_initializer: initializers (``"glorot_uniform"``, ``"zeros"``).
        depthwise_regularizer, bias_regularizer, activity_regularizer: regularizers.
        depthwise_constraint, bias_constraint: constraints.
        **kwargs: base layer arguments (``name``, ``dtype``...).
    """

    def __init__(
        self,
        rank,
        depth_multiplier,
        kernel_size,
        strides=1,
        padding="valid",
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
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        check_positive_int(depth_multiplier, "depth_multiplier")
        self.rank = rank
        self.depth_multiplier = depth_multiplier
        self.kernel_size = standardize_tuple(kernel_size, rank, "kernel_size")
        self.strides = standardize_tuple(strides, rank, "strides")
        self.dilation_rate = standardize_tuple(dilation_rate, rank, "dilation_rate")
        check_strides_and_dilation(self.strides, self.dilation_rate)
        self.padding = standardize_padding(padding)
        self.data_format = standardize_data_format(data_format)
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(ndim=rank + 2)

    def build(self, input_shape):
        channels = input_channels(self, input_shape)
        self.compute_output_shape(input_shape)  # a too-small input fails here, before weights exist
        self.kernel = self.add_weight(
            shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer,
            regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint,
            name="kernel",
        )
        if self.use_bias:
            self.bias = self.add_weight(
                shape=(channels * self.depth_multiplier,),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
                name="bias",
            )
        else:
            self.bias = None
        channel_axis = -1 if self.data_format == "channels_last" else 1
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={channel_axis: channels})
        self.built = True

    def call(self, inputs):
        outputs = ops.depthwise_conv(
            inputs,
            self.kernel,
            strides=self.strides,
            padding=self.padding,
            data_format=self.data_format,
            dilation_rate=self.dilation_rate,
        )
        if self.bias is not None:
            outputs = add_channel_bias(outputs, self.bias, self.rank, self.data_format)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        channels = input_shape[-1] if self.data_format == "channels_last" else input_shape[1]
        return conv_output_shape(self, input_shape, None if channels is None else channels * self.depth_multiplier)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "depth_multiplier": self.depth_multiplier,
                "kernel_size": self.kernel_size,
                "strides": self.strides,
                "padding": self.padding,
                "data_format": self.data_format,
                "dilation_rate": self.dilation_rate,
                "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias,
                "depthwise_initializer": initializers.serialize(self.depthwise_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "depthwise_regularizer": regularizers.serialize(self.depthwise_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "depthwise_constraint": constraints.serialize(self.depthwise_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint),
            }
        )
        return config
