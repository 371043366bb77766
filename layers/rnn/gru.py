"""GRU: the gated recurrent unit layer (Cho et al., 2014)."""

from ._cell_utils import SIMPLE_RNN_CELL_PROPERTIES, expose_cell_properties, rnn_layer_config
from .gru_cell import GRUCell
from .rnn import RNN


class GRU(RNN):
    """Gated recurrent unit layer (``keras.layers.GRU``): an :class:`RNN` over a :class:`GRUCell`.

    Args:
        units: positive int, the output size.
        activation, recurrent_activation, use_bias, kernel_initializer, recurrent_initializer,
        bias_initializer, kernel_regularizer, recurrent_regularizer, bias_regularizer, kernel_constraint,
        recurrent_constraint, bias_constraint, dropout, recurrent_dropout, reset_after (default True), seed: as
        in :class:`GRUCell`.
        activity_regularizer: regularizer of the layer's output.
        return_sequences, return_state, go_backwards, stateful, unroll: as in :class:`RNN`.
        **kwargs: base layer arguments.

    Input shape: ``(batch, timesteps, features)``. Output shape: ``(batch, units)``, or
    ``(batch, timesteps, units)`` with ``return_sequences``; plus the final state with ``return_state``.
    use_cudnn: accepted for Keras compatibility; every engine runs the same generic loop.

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
