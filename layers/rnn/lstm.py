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
        units: positive int, the size of the output and of the states ``h`` and ``c``.
        activation: activation of the candidate and of the cell state (default ``"tanh"``).
        recurrent_activation: activation of the input, forget and output gates (default ``"sigmoid"``).
        use_bias: whether the cell adds a bias vector (default True).
        kernel_initializer: initializer of the input kernel (default ``"glorot_uniform"``).
        recurrent_initializer: initializer of the recurrent kernel (default ``"orthogonal"``).
        bias_initializer: initializer of the bias (default ``"zeros"``).
        unit_forget_bias: if True (default), the forget gate's bias starts at 1 (the rest of the bias at zeros), so the
            cell remembers at first.
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
        use_cudnn: ``"auto"`` (default) or True: run the time loop through the engine's fused LSTM kernel where it
            has one (native, PyTorch, JAX) and the call allows it (the standard cell, no mask, no dropout in use);
            False: always the generic step-by-step loop.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: ``(batch, timesteps, features)``. Output shape: ``(batch, units)``, or
    ``(batch, timesteps, units)`` with ``return_sequences``; plus the final ``h`` and ``c`` with
    ``return_state``.

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
            and self.use_cudnn is not False
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
