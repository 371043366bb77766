"""LSTM: the long short-term memory recurrent layer (Hochreiter & Schmidhuber, 1997)."""

from highlevel import activations, ops
from highlevel.backends.contract.interop import front_class
from highlevel.config import current_backend

from ._cell_utils import SIMPLE_RNN_CELL_PROPERTIES, expose_cell_properties, rnn_layer_config
from .lstm_cell import LSTMCell
from .rnn import RNN


class LSTM(RNN):
    """Long short-term memory layer (``keras.layers.LSTM``): an :class:`RNN` over an :class:`LSTMCell`.

    Args:
        units: positive int, the output size.
        activation, recurrent_activation, use_bias, kernel_initializer, recurrent_initializer,
        bias_initializer, unit_forget_bias, kernel_regularizer, recurrent_regularizer, bias_regularizer,
        kernel_constraint, recurrent_constraint, bias_constraint, dropout, recurrent_dropout, seed: as in
        :class:`LSTMCell`.
        activity_regularizer: regularizer of the layer's output.
        return_sequences, return_state, go_backwards, stateful, unroll: as in :class:`RNN`.
        **kwargs: base layer arguments.

    Input shape: ``(batch, timesteps, features)``. Output shape: ``(batch, units)``, or
    ``(batch, timesteps, units)`` with ``return_sequences``; plus the final ``h`` and ``c`` with
    ``return_state``.
    use_cudnn: accepted for Keras compatibility; every engine runs the same generic loop.

    >>> import highlevel as hl
    >>> layer = hl.layers.LSTM(4, return_state=True)
    >>> out, h, c = layer(hl.ops.ones((2, 10, 3)))
    >>> hl.ops.shape(out), hl.ops.shape(c)
    ((2, 4), (2, 4))
    """

    def __init__(
        self,
        units,
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
        unroll=False,
        use_cudnn="auto",
        **kwargs,
    ):
        cell = LSTMCell(
            units,
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
            name="lstm_cell",
            implementation=kwargs.pop("implementation", 2),
        )
        super().__init__(
            cell,
            return_sequences=return_sequences,
            return_state=return_state,
            go_backwards=go_backwards,
            stateful=stateful,
            unroll=unroll,
            activity_regularizer=activity_regularizer,
            **kwargs,
        )
        self.use_cudnn = use_cudnn

    def _loop(self, sequences, initial_state, mask, training):
        cell = self.cell
        if not self._fusable(mask, training):
            return super()._loop(sequences, initial_state, mask, training)
        # the whole time loop as one op (on engines whose kernel for it is faster than the op-by-op loop)
        xs = ops.flip(sequences, axis=1) if self.go_backwards else sequences
        with cell._autocast_scope():
            seq, h, c = ops.lstm_sequence(xs, *initial_state, cell.kernel, cell.recurrent_kernel, cell.bias)
        return h, (seq if self.return_sequences else None), [h, c]

    def _fusable(self, mask, training):
        """Whether the loop can run as ``ops.lstm_sequence``: the standard cell, no mask, no dropout in use."""
        cell = self.cell
        return (
            current_backend().capabilities.fused_recurrence
            and mask is None
            and not self.unroll
            and front_class(type(cell)) is LSTMCell
            and cell.activation is activations.tanh
            and cell.recurrent_activation is activations.sigmoid
            and not (training and (0 < cell.dropout < 1 or 0 < cell.recurrent_dropout < 1))
        )

    @property
    def units(self):
        return self.cell.units

    def get_config(self):
        config = rnn_layer_config(self, super().get_config())
        config["use_cudnn"] = self.use_cudnn
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)


# Keras exposes the cell's arguments as read-only properties of the layer.
expose_cell_properties(LSTM, SIMPLE_RNN_CELL_PROPERTIES + ("recurrent_activation", "unit_forget_bias"))
