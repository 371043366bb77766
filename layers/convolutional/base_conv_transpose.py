"""The N-D transposed convolution layer that Conv1DTranspose, Conv2DTranspose and Conv3DTranspose specialise."""

from highlevel import activations, constraints, initializers, ops, regularizers
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer

from .base_conv import add_channel_bias, check_positive_int, check_strides_and_dilation, input_channels
from .conv_utils import (
    deconv_output_length,
    spatial_axes,
    standardize_data_format,
    standardize_padding,
    standardize_tuple,
)
from .static_output_spec import StaticOutputSpec


class BaseConvTranspose(StaticOutputSpec, Layer):
    """Abstract N-D transposed convolution layer; use Conv1DTranspose, Conv2DTranspose or Conv3DTranspose.

    The transposed convolution is the gradient of a convolution with respect to its input: it maps a
    ``conv`` output shape back to a ``conv`` input shape. The kernel has shape
    ``kernel_size + (filters, input_channels)``.

    Args:
        rank: the number of spatial dimensions (1, 2 or 3).
        filters: positive int, the number of output channels.
        kernel_size: int or tuple of ``rank`` ints.
        strides: int or tuple of ``rank`` ints (default 1).
        padding: ``"valid"`` or ``"same"``.
        output_padding: None, or an int or tuple of ``rank`` ints, each smaller than its stride: the extra size
            added on one side of the output (None: inferred as Keras does).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        dilation_rate: int or tuple of ``rank`` ints (default 1); ``> 1`` excludes ``strides > 1``.
        activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
            activity_regularizer, kernel_constraint, bias_constraint: as in :class:`BaseConv`.
        **kwargs: base layer arguments (``name``, ``dtype``...).
    """

    def __init__(
        self,
        rank,
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
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        check_positive_int(filters, "filters")
        self.rank = rank
        self.filters = filters
        self.kernel_size = standardize_tuple(kernel_size, rank, "kernel_size")
        self.strides = standardize_tuple(strides, rank, "strides")
        self.dilation_rate = standardize_tuple(dilation_rate, rank, "dilation_rate")
        check_strides_and_dilation(self.strides, self.dilation_rate)
        self.padding = standardize_padding(padding)
        if output_padding is None:
            self.output_padding = None
        else:
            self.output_padding = standardize_tuple(output_padding, rank, "output_padding", allow_zero=True)
            for i, (pad, stride) in enumerate(zip(self.output_padding, self.strides)):
                if pad >= stride:
                    raise ValueError(
                        "Each value of `output_padding` must be strictly smaller than the stride along the "
                        f"same axis; at index {i}, output_padding is {pad} and the stride is {stride}. "
                        f"Received: output_padding={output_padding}, strides={strides}"
                    )
        self.data_format = standardize_data_format(data_format)
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(ndim=rank + 2)

    def build(self, input_shape):
        channels = input_channels(self, input_shape)
        self.kernel = self.add_weight(
            shape=self.kernel_size + (self.filters, channels),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint,
            name="kernel",
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
        outputs = ops.conv_transpose(
            inputs,
            self.kernel,
            strides=self.strides,
            padding=self.padding,
            output_padding=self.output_padding,
            data_format=self.data_format,
            dilation_rate=self.dilation_rate,
        )
        if self.bias is not None:
            outputs = add_channel_bias(outputs, self.bias, self.rank, self.data_format)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        axes, channel_axis = spatial_axes(self.rank, self.data_format)
        out = list(input_shape)
        for i, axis in enumerate(axes):
            pad = None if self.output_padding is None else self.output_padding[i]
            out[axis] = deconv_output_length(
                input_shape[axis], self.kernel_size[i], self.padding, self.strides[i], self.dilation_rate[i], pad
            )
        out[channel_axis] = self.filters
        return tuple(out)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "filters": self.filters,
                "kernel_size": self.kernel_size,
                "strides": self.strides,
                "padding": self.padding,
                "output_padding": self.output_padding,
                "data_format": self.data_format,
                "dilation_rate": self.dilation_rate,
                "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint),
            }
        )
        return config
