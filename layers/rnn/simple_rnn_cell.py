"""SimpleRNNCell: one step of a fully connected recurrence ``h = activation(x W + h_prev U + b)``."""

from highlevel import ops
from highlevel.layer import Layer

from ._cell_utils import DropoutRNNCell, check_units, last_axis_size, zero_states


class SimpleRNNCell(DropoutRNNCell, Layer):
    """The cell of :class:`SimpleRNN` (``keras.layers.SimpleRNNCell``): processes one time step.

    Args:
        units: positive int, the size of the output (and of the state).
        activation: the activation (default ``"tanh"``; None means linear).
        use_bias: whether to add a bias vector.
        kernel_initializer: initializer of ``kernel`` (input projection), default ``"glorot_uniform"``.
        recurrent_initializer: initializer of ``recurrent_kernel``, default ``"orthogonal"``.
        bias_initializer: initializer of ``bias``, default ``"zeros"``.
        kernel_regularizer: optional regularizer of the kernel (default None).
        recurrent_regularizer: optional regularizer of the recurrent kernel (default None).
        bias_regularizer: optional regularizer of the bias (default None).
        kernel_constraint: optional constraint applied to the kernel after each update (default None).
        recurrent_constraint: optional constraint applied to the recurrent kernel after each update (default None).
        bias_constraint: optional constraint applied to the bias after each update (default None).
        dropout: float in [0, 1], the fraction of the inputs dropped (same mask at every step).
        recurrent_dropout: float in [0, 1], the fraction of the previous state dropped.
        seed: int, the seed of the dropout masks.
        **kwargs: base layer arguments.

    Call arguments:
        inputs: ``(batch, features)``, one time step.
        states: a list holding the previous output ``(batch, units)`` (or that tensor itself).
        training: whether dropout applies.

    Returns ``(output, new_states)`` with ``new_states`` a list when ``states`` was one.

    >>> import highlevel as hl
    >>> cell = hl.layers.SimpleRNNCell(4)
    >>> out, states = cell(hl.ops.ones((2, 3)), [hl.ops.zeros((2, 4))])
    >>> hl.ops.shape(out), len(states)
    ((2, 4), 1)
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
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        **kwargs,
    ):
        name = type(self).__name__
        units = check_units(units, name)
        super().__init__(**kwargs)
        self._set_cell_arguments(
            units,
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
        self.state_size = self.units
        self.output_size = self.units

    def build(self, input_shape):
        input_dim = last_axis_size(input_shape, self.name)
        self.kernel = self.add_weight(
            shape=(input_dim, self.units),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint,
            name="kernel",
        )
        self.recurrent_kernel = self.add_weight(
            shape=(self.units, self.units),
            initializer=self.recurrent_initializer,
            regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint,
            name="recurrent_kernel",
        )
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                shape=(self.units,),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
                name="bias",
            )
        self.built = True

    def call(self, inputs, states, training=False):
        nested = isinstance(states, (list, tuple))
        prev = states[0] if nested else states
        if training and 0 < self.dropout < 1:
            inputs = inputs * self.get_dropout_mask(inputs)
        if training and 0 < self.recurrent_dropout < 1:
            prev = prev * self.get_recurrent_dropout_mask(prev)
        h = ops.matmul(inputs, self.kernel)
        if self.bias is not None:
            h = ops.add(h, self.bias)  # a Variable on the right of `+` would turn into a constant on TF
        output = h + ops.matmul(prev, self.recurrent_kernel)
        if self.activation is not None:
            output = self.activation(output)
        return output, ([output] if nested else output)

    def get_initial_state(self, batch_size=None):
        """Zero states: ``[zeros((batch_size, units))]``."""
        return zero_states(self.state_size, batch_size, self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update(self._cell_config())
        return config
