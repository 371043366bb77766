"""The N-D convolution layer that Conv1D, Conv2D and Conv3D specialise."""

from highlevel import activations, constraints, initializers, ops, regularizers
from highlevel.input_spec import InputSpec, assert_input_compatibility
from highlevel.layer import Layer

from ..core.lora import LoRAMixin
from .conv_utils import conv_output_shape, standardize_data_format, standardize_padding, standardize_tuple
from .static_output_spec import StaticOutputSpec


def check_positive_int(value, name):
    """Raises the Keras-style ValueError unless ``value`` is a positive Python int."""
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(
            f"Received an invalid value for `{name}`, expected a positive integer. Received: {name}={value!r}"
        )


def check_strides_and_dilation(strides, dilation_rate):
    """Keras rejects strides > 1 together with dilation_rate > 1."""
    if max(strides) > 1 and max(dilation_rate) > 1:
        raise ValueError(
            "`strides > 1` is not supported together with `dilation_rate > 1`. "
            f"Received: strides={strides} and dilation_rate={dilation_rate}"
        )


def add_channel_bias(outputs, bias, rank, data_format):
    """``outputs + bias`` with the bias broadcast along the channel axis."""
    if data_format == "channels_last":
        return ops.add(outputs, bias)
    return ops.add(outputs, ops.reshape(bias, (1, -1) + (1,) * rank))


def input_channels(layer, input_shape):
    """The input's channel count (known, else a clear error) for ``layer``'s data format; first checks the
    input's rank against ``layer.input_spec`` (the base layer builds before it checks the spec)."""
    assert_input_compatibility([layer.input_spec], [tuple(input_shape)], layer.name)
    channels = input_shape[-1] if layer.data_format == "channels_last" else input_shape[1]
    if channels is None:
        raise ValueError(
            f"Layer '{layer.name}' needs the size of the channel axis of its input to create its "
            f"weights, but received input_shape={tuple(input_shape)} "
            f"(data_format={layer.data_format!r}). Give the input a known channel dimension."
        )
    return channels


class BaseConv(LoRAMixin, StaticOutputSpec, Layer):
    """Abstract N-D convolution (cross-correlation) layer; use Conv1D, Conv2D or Conv3D.

    Computes ``activation(conv(inputs, kernel) + bias)``. The kernel has shape
    ``kernel_size + (input_channels // groups, filters)``.

    Args:
        rank: the number of spatial dimensions (1, 2 or 3).
        filters: positive int, the number of output channels.
        kernel_size: int or tuple of ``rank`` ints, the window size.
        strides: int or tuple of ``rank`` ints (default 1). ``strides > 1`` cannot be combined with
            ``dilation_rate > 1``.
        padding: ``"valid"`` (no padding) or ``"same"`` (pad so that ``output = ceil(input / stride)``,
            the extra row after); Conv1D also accepts ``"causal"`` (pad on the left only).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        dilation_rate: int or tuple of ``rank`` ints (default 1).
        groups: positive int; the input channels and ``filters`` are split in ``groups`` groups convolved
            separately.
        activation: activation name or callable; None is linear.
        use_bias: whether to add a bias of shape ``(filters,)``.
        kernel_initializer, bias_initializer: initializers (``"glorot_uniform"``, ``"zeros"``).
        kernel_regularizer, bias_regularizer, activity_regularizer: regularizers.
        kernel_constraint, bias_constraint: constraints.
        lora_rank: a positive int to enable LoRA when the layer is built (see ``enable_lora``): the kernel
            is frozen and two trainable low-rank factors adjust it; None (default) leaves LoRA off.
        lora_alpha: the LoRA update is scaled by ``lora_alpha / lora_rank``; None means ``lora_rank``.
        **kwargs: base layer arguments (``name``, ``dtype``...).
    """

    def __init__(
        self,
        rank,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        data_format=None,
        dilation_rate=1,
        groups=1,
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        lora_rank=None,
        lora_alpha=None,
        **kwargs,
    ):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self._init_lora(lora_rank, lora_alpha)
        check_positive_int(filters, "filters")
        check_positive_int(groups, "groups")
        if filters % groups:
            raise ValueError(
                "The number of filters must be evenly divisible by the number of groups. "
                f"Received: groups={groups}, filters={filters}."
            )
        self.rank = rank
        self.filters = filters
        self.groups = groups
        self.kernel_size = standardize_tuple(kernel_size, rank, "kernel_size")
        self.strides = standardize_tuple(strides, rank, "strides")
        self.dilation_rate = standardize_tuple(dilation_rate, rank, "dilation_rate")
        check_strides_and_dilation(self.strides, self.dilation_rate)
        self.padding = standardize_padding(padding, allow_causal=rank == 1)
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
        if channels % self.groups:
            raise ValueError(
                "The number of input channels must be evenly divisible by the number of groups. "
                f"Received: groups={self.groups}, but the input has {channels} channels (full "
                f"input shape {tuple(input_shape)})."
            )
        self.compute_output_shape(input_shape)  # a too-small input fails here, before weights exist
        self.kernel = self.add_weight(
            shape=self.kernel_size + (channels // self.groups, self.filters),
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
        self._build_lora()

    def _causal_pad(self, inputs):
        left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
        pads = [[0, 0], [left, 0], [0, 0]] if self.data_format == "channels_last" else [[0, 0], [0, 0], [left, 0]]
        return ops.pad(inputs, pads)

    def convolution_op(self, inputs, kernel):
        """The convolution of ``inputs`` with ``kernel``, before the bias and the activation.

        ``call`` convolves through this method, so a subclass may override it to change the kernel it applies
        (weight standardization, for instance) and keep the rest of the layer.
        """
        padding = self.padding
        if padding == "causal":
            inputs, padding = self._causal_pad(inputs), "valid"
        return ops.conv(
            inputs,
            kernel,
            strides=self.strides,
            padding=padding,
            data_format=self.data_format,
            dilation_rate=self.dilation_rate,
        )

    def call(self, inputs):
        outputs = self.convolution_op(inputs, self._lora_weight())
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
                "filters": self.filters,
                "kernel_size": self.kernel_size,
                "strides": self.strides,
                "padding": self.padding,
                "data_format": self.data_format,
                "dilation_rate": self.dilation_rate,
                "groups": self.groups,
                "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint),
                **self._lora_config(),
            }
        )
        return config
