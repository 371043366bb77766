"""ConvLSTM: the N-D convolutional LSTM layer that ConvLSTM1D, ConvLSTM2D and ConvLSTM3D specialise."""

from highlevel import ops
from highlevel.input_spec import InputSpec
from highlevel.keras_tensor import KerasTensor

from .conv_lstm_cell import ConvLSTMCell
from .rnn import RNN

#: the cell arguments a ConvLSTM layer repeats in its config (as Keras flattens them)
_CELL_KEYS = (
    "filters",
    "kernel_size",
    "strides",
    "padding",
    "data_format",
    "dilation_rate",
    "activation",
    "recurrent_activation",
    "use_bias",
    "kernel_initializer",
    "recurrent_initializer",
    "bias_initializer",
    "unit_forget_bias",
    "kernel_regularizer",
    "recurrent_regularizer",
    "bias_regularizer",
    "kernel_constraint",
    "recurrent_constraint",
    "bias_constraint",
    "dropout",
    "recurrent_dropout",
    "seed",
)


class ConvLSTM(RNN):
    """Abstract N-D convolutional LSTM (an :class:`RNN` over a :class:`ConvLSTMCell`); use ConvLSTM1D,
    ConvLSTM2D or ConvLSTM3D.

    Args:
        rank: 1, 2 or 3.
        filters, kernel_size, strides, padding, data_format, dilation_rate, activation,
        recurrent_activation, use_bias, kernel_initializer, recurrent_initializer, bias_initializer,
        unit_forget_bias, kernel_regularizer, recurrent_regularizer, bias_regularizer, kernel_constraint,
        recurrent_constraint, bias_constraint, dropout, recurrent_dropout, seed: as in :class:`ConvLSTMCell`.
        activity_regularizer: regularizer of the layer's output.
        return_sequences, return_state, go_backwards, stateful: as in :class:`RNN`.
        **kwargs: base layer arguments (and :class:`RNN`'s ``unroll`` / ``zero_output_for_mask``).

    Input shape: ``(batch, time, *spatial, channels)`` (``channels_last``) or ``(batch, time, channels,
    *spatial)``. Output: one step's convolution output ``(batch, *new_spatial, filters)``, with ``time`` after
    ``batch`` for ``return_sequences``; plus the final ``h`` and ``c`` with ``return_state``.

    >>> import highlevel as hl
    >>> from highlevel.layers.rnn.conv_lstm import ConvLSTM
    >>> layer = ConvLSTM(1, 2, 3, return_sequences=True)
    >>> hl.ops.shape(layer(hl.ops.ones((2, 4, 6, 1))))
    (2, 4, 4, 2)
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
        activity_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        **kwargs,
    ):
        cell = ConvLSTMCell(
            rank=rank,
            filters=filters,
            kernel_size=kernel_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            dilation_rate=dilation_rate,
            activation=activation,
            recurrent_activation=recurrent_activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer,
            unit_forget_bias=unit_forget_bias,
            kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint,
            dropout=dropout,
            recurrent_dropout=recurrent_dropout,
            seed=seed,
            dtype=kwargs.get("dtype"),
            trainable=kwargs.get("trainable", True),
            name="conv_lstm_cell",
        )
        super().__init__(
            cell,
            return_sequences=return_sequences,
            return_state=return_state,
            go_backwards=go_backwards,
            stateful=stateful,
            activity_regularizer=activity_regularizer,
            **kwargs,
        )
        self.rank = rank
        self.input_spec = InputSpec(ndim=rank + 3)

    def __getattr__(self, name):
        # filters, kernel_size, ... read through to the cell, as Keras exposes them
        if name in _CELL_KEYS or name == "recurrent_activation":
            return getattr(self.__dict__["cell"], name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def build(self, sequences_shape, initial_state_shape=None):
        shape = tuple(sequences_shape[0] if isinstance(sequences_shape[0], (list, tuple)) else sequences_shape)
        if len(shape) != self.rank + 3:
            raise ValueError(
                f"Layer '{self.name}' expects inputs of rank {self.rank + 3} (batch, time, "
                f"{'spatial..., channels' if self.cell.data_format == 'channels_last' else 'channels, spatial...'}"
                f"); received input shape {shape}."
            )
        super().build(sequences_shape, initial_state_shape)

    def _step_output_shape(self, sequences_shape):
        sequences_shape = tuple(sequences_shape)
        step = (sequences_shape[0],) + sequences_shape[2:]
        if self.cell.built:
            return (sequences_shape[0],) + tuple(self.cell.state_shape[1:])
        from highlevel.layers.convolutional.conv_utils import conv_output_shape

        return conv_output_shape(self.cell, step, self.cell.filters)

    def compute_output_spec(self, sequences, initial_state=None, mask=None, training=None):
        sequences, _ = self._split_inputs(sequences, initial_state)
        shape = tuple(sequences.shape)
        state = self._step_output_shape(shape)
        dtype = self.compute_dtype
        out = KerasTensor((state[0], shape[1]) + state[1:] if self.return_sequences else state, dtype)
        if not self.return_state:
            return out
        return [out, KerasTensor(state, dtype), KerasTensor(state, dtype)]

    def _zero_output(self, batch):
        return ops.zeros((batch,) + tuple(self.cell.state_shape[1:]), dtype=self.compute_dtype)

    def get_config(self):
        config = {k: v for k, v in super().get_config().items() if k != "cell"}
        cell_config = self.cell.get_config()
        config.update({k: cell_config[k] for k in _CELL_KEYS})
        config.setdefault("activity_regularizer", None)  # Keras always lists it
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)
