"""ConvLSTMCell: one step of a convolutional LSTM, whose input and recurrent transforms are convolutions."""

from highlevel import activations, initializers, ops
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer
from highlevel.layers.convolutional.base_conv import add_channel_bias, check_positive_int, check_strides_and_dilation
from highlevel.layers.convolutional.conv_utils import (
    conv_output_shape,
    standardize_data_format,
    standardize_padding,
    standardize_tuple,
)

from ._cell_utils import DropoutRNNCell


class ConvLSTMCell(DropoutRNNCell, Layer):
    """The cell of :class:`ConvLSTM1D` / ``2D`` / ``3D``: one time step of a convolutional LSTM.

    With ``z = conv(x, kernel) + bias + conv_same(h_prev, recurrent_kernel)`` split along the channels into
    four blocks of ``filters`` (input, forget, candidate, output): ``c = f * c_prev + i * activation(z_c)``
    and ``h = o * activation(c)``, where ``i, f, o`` go through ``recurrent_activation``. The input
    convolution uses ``strides``, ``padding`` and ``dilation_rate``; the recurrent one is a stride-1
    ``"same"`` convolution, so both states have the input convolution's output shape.

    Args:
        rank: 1, 2 or 3, the number of spatial dimensions of one step.
        filters: positive int, the channels of the output and of both states.
        kernel_size, strides, padding, data_format, dilation_rate: as in ``Conv2D``.
        activation, recurrent_activation, use_bias, kernel_initializer, recurrent_initializer,
        bias_initializer, unit_forget_bias, kernel_regularizer, recurrent_regularizer, bias_regularizer,
        kernel_constraint, recurrent_constraint, bias_constraint, dropout, recurrent_dropout, seed: as in
        :class:`LSTMCell` (dropout masks have the full shape of a step's input and of ``h``).
        **kwargs: base layer arguments.

    >>> import highlevel as hl
    >>> from highlevel.layers.rnn.conv_lstm_cell import ConvLSTMCell
    >>> cell = ConvLSTMCell(2, 3, 3, padding="same")
    >>> cell.build((1, 5, 5, 2))
    >>> h, (h2, c) = cell(hl.ops.ones((1, 5, 5, 2)), cell.get_initial_state(1))
    >>> hl.ops.shape(h)
    (1, 5, 5, 3)
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
        activation="tanh",
        recurrent_activation="sigmoid",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        unit_forget_bias=True,
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        **kwargs,
    ):
        if rank not in (1, 2, 3):
            raise ValueError(f"ConvLSTM supports rank 1, 2 or 3 convolutions; received rank={rank!r}.")
        check_positive_int(filters, "filters")
        super().__init__(**kwargs)
        self._set_cell_arguments(
            filters,
            activation,
            use_bias,
            dropout,
            recurrent_dropout,
            seed,
            kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint,
        )
        self.rank = rank
        self.filters = filters
        self.kernel_size = standardize_tuple(kernel_size, rank, "kernel_size")
        self.strides = standardize_tuple(strides, rank, "strides")
        self.padding = standardize_padding(padding)
        self.data_format = standardize_data_format(data_format)
        self.dilation_rate = standardize_tuple(dilation_rate, rank, "dilation_rate")
        check_strides_and_dilation(self.strides, self.dilation_rate)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = bool(unit_forget_bias)
        self.input_spec = InputSpec(ndim=rank + 2)
        self.state_size = [filters, filters]  # each state is a feature map of `filters` channels
        self.output_size = filters
        self.step_input_shape = None

    def build(self, input_shape):
        input_shape = tuple(input_shape)
        if len(input_shape) != self.rank + 2:
            raise ValueError(
                f"Layer '{self.name}' expects one step of rank {self.rank + 2} (batch, spatial..., channels); "
                f"received input_shape={input_shape}."
            )
        channel_axis = -1 if self.data_format == "channels_last" else 1
        spatial = input_shape[1:-1] if self.data_format == "channels_last" else input_shape[2:]
        if None in spatial or input_shape[channel_axis] is None:
            raise ValueError(
                f"ConvLSTM layers need static spatial and channel sizes; received input_shape={input_shape} "
                f"(data_format={self.data_format!r}). Give the Input a fully known shape (except batch and time)."
            )
        self.step_input_shape = (None,) + input_shape[1:]
        self.state_shape = conv_output_shape(self, self.step_input_shape, self.filters)
        input_dim = input_shape[channel_axis]
        f = self.filters
        self.kernel = self.add_weight(
            shape=self.kernel_size + (input_dim, 4 * f),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint,
            name="kernel",
        )
        self.recurrent_kernel = self.add_weight(
            shape=self.kernel_size + (f, 4 * f),
            initializer=self.recurrent_initializer,
            regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint,
            name="recurrent_kernel",
        )
        self.bias = None
        if self.use_bias:
            if self.unit_forget_bias:
                base, ones = self.bias_initializer, initializers.get("ones")

                def bias_initializer(shape, dtype=None):
                    return ops.concatenate(
                        [base((f,), dtype=dtype), ones((f,), dtype=dtype), base((2 * f,), dtype=dtype)]
                    )
            else:
                bias_initializer = self.bias_initializer
            self.bias = self.add_weight(
                shape=(4 * f,),
                initializer=bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
                name="bias",
            )
        self.built = True

    def call(self, inputs, states, training=False):
        h_prev, c_prev = states[0], states[1]
        if training and 0 < self.dropout < 1:
            inputs = inputs * self.get_dropout_mask(inputs)
        if training and 0 < self.recurrent_dropout < 1:
            h_prev = h_prev * self.get_recurrent_dropout_mask(h_prev)
        z = ops.conv(
            inputs,
            self.kernel,
            strides=self.strides,
            padding=self.padding,
            data_format=self.data_format,
            dilation_rate=self.dilation_rate,
        )
        if self.bias is not None:
            z = add_channel_bias(z, self.bias, self.rank, self.data_format)
        z = z + ops.conv(h_prev, self.recurrent_kernel, strides=1, padding="same", data_format=self.data_format)
        channel_axis = -1 if self.data_format == "channels_last" else 1
        z_i, z_f, z_c, z_o = ops.split(z, 4, axis=channel_axis)
        i = self.recurrent_activation(z_i)
        f = self.recurrent_activation(z_f)
        c = f * c_prev + i * self.activation(z_c)
        o = self.recurrent_activation(z_o)
        h = o * self.activation(c)
        return h, [h, c]

    def get_initial_state(self, batch_size=None):
        """Zero states ``[h, c]``, each of the input convolution's output shape for ``batch_size`` steps."""
        shape = (batch_size,) + tuple(self.state_shape[1:])
        return [ops.zeros(shape, dtype=self.compute_dtype), ops.zeros(shape, dtype=self.compute_dtype)]

    def prepare_dropout_masks(self, batch_size, input_dim, dtype):
        """Draws this call's masks once, before the time loop, in the full shape of a step and of ``h``."""
        if 0 < self.dropout < 1:
            shape = (batch_size,) + tuple(self.step_input_shape[1:])
            self._dropout_mask = self._draw_mask(shape, dtype, self.dropout)
        if 0 < self.recurrent_dropout < 1:
            shape = (batch_size,) + tuple(self.state_shape[1:])
            self._recurrent_dropout_mask = self._draw_mask(shape, dtype, self.recurrent_dropout)

    def get_config(self):
        config = super().get_config()
        config.update(self._cell_config())
        del config["units"]
        config.update(
            {
                "rank": self.rank,
                "filters": self.filters,
                "kernel_size": self.kernel_size,
                "strides": self.strides,
                "padding": self.padding,
                "data_format": self.data_format,
                "dilation_rate": self.dilation_rate,
                "recurrent_activation": activations.serialize(self.recurrent_activation),
                "unit_forget_bias": self.unit_forget_bias,
            }
        )
        return config
