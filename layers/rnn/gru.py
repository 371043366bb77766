"""GRU: the gated recurrent unit layer (Cho et al., 2014)."""

from ._cell_utils import SIMPLE_RNN_CELL_PROPERTIES, expose_cell_properties, rnn_layer_config
from .gru_cell import GRUCell
from .rnn import RNN


class GRU(RNN):
    """Gated recurrent unit layer (``keras.layers.GRU``): an :class:`RNN` over a :class:`GRUCell`.

    Args:
        units: positive int, the size of the output and of the state.
        activation: activation of the candidate state (default ``"tanh"``).
        recurrent_activation: activation of the update and reset gates (default ``"sigmoid"``).
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
        reset_after: if True (default, the cuDNN-compatible variant), the reset gate applies after the recurrent matrix
            product, with separate input and recurrent biases.
        use_cudnn: accepted for Keras compatibility; every engine runs the same generic loop.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: ``(batch, timesteps, features)``. Output shape: ``(batch, units)``, or
    ``(batch, timesteps, units)`` with ``return_sequences``; plus the final state with ``return_state``.

    >>> import highlevel as hl
    >>> layer = hl.layers.GRU(4, return_sequences=True)
    >>> hl.ops.shape(layer(hl.ops.ones((2, 10, 3))))
    (2, 10, 4)
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
        reset_after=True,
        use_cudnn="auto",
        **kwargs,
    ):
        cell = GRUCell(
            units,
            activation=activation,
            recurrent_activation=recurrent_activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer,
            reset_after=reset_after,
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
            name="gru_cell",
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
expose_cell_properties(GRU, SIMPLE_RNN_CELL_PROPERTIES + ("recurrent_activation", "reset_after"))
