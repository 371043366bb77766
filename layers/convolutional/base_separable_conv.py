"""The N-D depthwise-separable convolution layer that SeparableConv1D and SeparableConv2D specialise."""

from highlevel import activations, constraints, initializers, ops, regularizers
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer

from .base_conv import add_channel_bias, check_positive_int, check_strides_and_dilation, input_channels
from .conv_utils import conv_output_shape, standardize_data_format, standardize_padding, standardize_tuple
from .static_output_spec import StaticOutputSpec


class BaseSeparableConv(StaticOutputSpec, Layer):
    """Abstract depthwise-separable convolution layer; use SeparableConv1D or SeparableConv2D.

    A depthwise convolution (each input channel with its own ``depth_multiplier`` filters; strides, padding and
    dilation apply here) followed by a pointwise (1x1) convolution mixing the channels into ``filters``
    outputs, then the bias and the activation. Weights: ``depthwise_kernel`` of shape
    ``kernel_size + (input_channels, depth_multiplier)``, ``pointwise_kernel`` of shape
    ``(1,) * rank + (input_channels * depth_multiplier, filters)`` and ``bias``.

    Args:
        rank: the number of spatial dimensions (1 or 2).
        depth_multiplier: positive int, the number of depthwise filters per input channel.
        filters: positive int, the number of output channels.
        kernel_size: int or tuple of ``rank`` ints.
        strides: int or tuple of ``rank`` ints (default 1).
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        dilation_rate: int or tuple of ``rank`` ints (default 1).
        activation: activation name or callable; None is linear.
        use_bias: whether to add a bias of shape ``(filters,)``.
        depthwise_initializer, pointwise_initializer, bias_initializer: initializers.
        depthwise_regularizer, pointwise_regularizer, bias_regularizer, activity_regularizer: regularizers.
        depthwise_constraint, pointwise_constraint, bias_constraint: constraints.
        **kwargs: base layer arguments (``name``, ``dtype``...).
    """

    def __init__(
        self,
        rank,
        depth_multiplier,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        data_format=None,
        dilation_rate=1,
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
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        check_positive_int(depth_multiplier, "depth_multiplier")
        check_positive_int(filters, "filters")
        self.rank = rank
        self.depth_multiplier = depth_multiplier
        self.filters = filters
        self.kernel_size = standardize_tuple(kernel_size, rank, "kernel_size")
        self.strides = standardize_tuple(strides, rank, "strides")
        self.dilation_rate = standardize_tuple(dilation_rate, rank, "dilation_rate")
        check_strides_and_dilation(self.strides, self.dilation_rate)
        self.padding = standardize_padding(padding)
        self.data_format = standardize_data_format(data_format)
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.pointwise_constraint = constraints.get(pointwise_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(ndim=rank + 2)

    def build(self, input_shape):
        channels = input_channels(self, input_shape)
        self.compute_output_shape(input_shape)  # a too-small input fails here, before weights exist
        self.depthwise_kernel = self.add_weight(
            shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer,
            regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint,
            name="depthwise_kernel",
        )
        self.pointwise_kernel = self.add_weight(
            shape=(1,) * self.rank + (channels * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer,
            regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint,
            name="pointwise_kernel",
        )
        if self.use_bias:
            self.bias = self.add_weight(
                shape=(self.filters,),
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
        depthwise = ops.depthwise_conv(
            inputs,
            self.depthwise_kernel,
            strides=self.strides,
            padding=self.padding,
            data_format=self.data_format,
            dilation_rate=self.dilation_rate,
        )
        outputs = ops.conv(depthwise, self.pointwise_kernel, strides=1, padding="valid", data_format=self.data_format)
        if self.bias is not None:
            outputs = add_channel_bias(outputs, self.bias, self.rank, self.data_format)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        return conv_output_shape(self, input_shape, self.filters)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "depth_multiplier": self.depth_multiplier,
                "filters": self.filters,
                "kernel_size": self.kernel_size,
                "strides": self.strides,
                "padding": self.padding,
                "data_format": self.data_format,
                "dilation_rate": self.dilation_rate,
                "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias,
                "depthwise_initializer": initializers.serialize(self.depthwise_initializer),
                "pointwise_initializer": initializers.serialize(self.pointwise_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "depthwise_regularizer": regularizers.serialize(self.depthwise_regularizer),
                "pointwise_regularizer": regularizers.serialize(self.pointwise_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "depthwise_constraint": constraints.serialize(self.depthwise_constraint),
                "pointwise_constraint": constraints.serialize(self.pointwise_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint),
            }
        )
        return config
