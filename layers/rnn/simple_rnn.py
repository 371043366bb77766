"""SimpleRNN: a fully connected recurrent layer whose output is fed back at the next step."""

from ._cell_utils import SIMPLE_RNN_CELL_PROPERTIES, expose_cell_properties, rnn_layer_config
from .rnn import RNN
from .simple_rnn_cell import SimpleRNNCell


class SimpleRNN(RNN):
    """Fully connected RNN: ``h_t = activation(x_t kernel + h_{t-1} recurrent_kernel + bias)``
    (``keras.layers.SimpleRNN``).

    Args:
        units: positive int, the output size.
        activation, use_bias, kernel_initializer, recurrent_initializer, bias_initializer,
        kernel_regularizer, recurrent_regularizer, bias_regularizer, kernel_constraint, recurrent_constraint,
        bias_constraint, dropout, recurrent_dropout, seed: as in :class:`SimpleRNNCell`.
        activity_regularizer: regularizer of the layer's output.
        return_sequences, return_state, go_backwards, stateful, unroll: as in :class:`RNN`.
        **kwargs: base layer arguments.

    Input shape: ``(batch, timesteps, features)``. Output shape: ``(batch, units)``, or
    ``(batch, timesteps, units)`` with ``return_sequences``; plus the final state with ``return_state``.

    >>> import highlevel as hl
    >>> layer = hl.layers.SimpleRNN(4)
    >>> hl.ops.shape(layer(hl.ops.ones((2, 10, 3))))
    (2, 4)
    """

    def __init__(
        self,
        units,
        activation="tanh",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        unroll=False,
        seed=None,
        **kwargs,
    ):
        cell = SimpleRNNCell(
            units,
            activation=activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer,
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
            name="simple_rnn_cell",
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

    @property
    def units(self):
        return self.cell.units

    def get_config(self):
        return rnn_layer_config(self, super().get_config())

    @classmethod
    def from_config(cls, config):
        return cls(**config)


# Keras exposes the cell's arguments as read-only properties of the layer.
expose_cell_properties(SimpleRNN, SIMPLE_RNN_CELL_PROPERTIES + ())
