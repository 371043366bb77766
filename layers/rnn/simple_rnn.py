"""SimpleRNN: a fully connected recurrent layer whose output is fed back at the next step."""

from ._cell_utils import SIMPLE_RNN_CELL_PROPERTIES, expose_cell_properties, rnn_layer_config
from .rnn import RNN
from .simple_rnn_cell import SimpleRNNCell


class SimpleRNN(RNN):
    """Fully connected RNN: ``h_t = activation(x_t kernel + h_{t-1} recurrent_kernel + bias)``
    (``keras.layers.SimpleRNN``).

    Args:
        units: positive int, the size of the output and of the state.
        activation: activation of the state (default ``"tanh"``).
        use_bias: whether the cell adds a bias vector (default True).
        kernel_initializer: initializer of the input kernel (default ``"glorot_uniform"``).
        recurrent_initializer: initializer of the recurrent kernel (default ``"orthogonal"``).
        bias_initializer: initializer of the bias (default ``"zeros"``).
        kernel_regularizer: optional regularizer of the input kernel.
        recurrent_regularizer: optional regularizer of the recurrent kernel.
        bias_regularizer: optional regularizer of the bias.
        activity_regularizer: optional regularizer of the layer's output.
        kernel_constraint: optional constraint applied to the input kernel after each update.
        recurrent_constraint: optional constraint applied to the recurrent kernel after each update.
        bias_constraint: optional constraint applied to the bias after each update.
        dropout: float in [0, 1], the fraction of the inputs' units dropped during training (one mask for all steps;
            default 0).
        recurrent_dropout: float in [0, 1], the fraction of the previous state's units dropped during training (default
            0).
        seed: optional int, the seed of the dropout masks.
        return_sequences: if True, return the output of every step ``(batch, timesteps, units)``; otherwise only the
            last ``(batch, units)`` (default False).
        return_state: if True, also return the final state(s) after the output (default False).
        go_backwards: if True, read the sequence from its last step to its first (and return the outputs reversed).
        stateful: if True, the final states of a batch are the initial states of the next one (sample ``i`` continues
            sample ``i``); call ``reset_states()`` between independent sequences.
        unroll: if True, unroll the loop in Python instead of a symbolic loop (faster for short sequences, more memory).
        **kwargs: base layer arguments (``name``, ``dtype``...).

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
