"""LSTMCell: one step of a long short-term memory recurrence (input, forget, cell and output gates)."""

from highlevel import activations, initializers, ops
from highlevel.layer import Layer

from ._cell_utils import DropoutRNNCell, check_units, last_axis_size, zero_states


class LSTMCell(DropoutRNNCell, Layer):
    """The cell of :class:`LSTM` (``keras.layers.LSTMCell``): processes one time step.

    With ``z = x kernel + h_prev recurrent_kernel + bias`` split into four blocks of ``units`` (input,
    forget, candidate, output): ``c = f * c_prev + i * activation(z_c)`` and ``h = o * activation(c)``,
    where ``i, f, o`` go through ``recurrent_activation``.

    Args:
        units: positive int, the size of the output and of both states.
        activation: the activation of the candidate and of the cell state (default ``"tanh"``).
        recurrent_activation: the gates' activation (default ``"sigmoid"``).
        use_bias: whether to add a bias vector.
        kernel_initializer: initializer of the kernel (default ``"glorot_uniform"``).
        recurrent_initializer: initializer of the recurrent kernel (default ``"orthogonal"``).
        bias_initializer: initializer of the bias (default ``"zeros"``).
        unit_forget_bias: add 1 to the forget gate's bias at initialization (and use zeros for the rest).
        kernel_regularizer: optional regularizer of the kernel (default None).
        recurrent_regularizer: optional regularizer of the recurrent kernel (default None).
        bias_regularizer: optional regularizer of the bias (default None).
        kernel_constraint: optional constraint applied to the kernel after each update (default None).
        recurrent_constraint: optional constraint applied to the recurrent kernel after each update (default None).
        bias_constraint: optional constraint applied to the bias after each update (default None).
        dropout: float in [0, 1], the fraction of the inputs dropped (same mask at every step).
        recurrent_dropout: float in [0, 1], the fraction of the previous output dropped.
        seed: int, the seed of the dropout masks.
        **kwargs: base layer arguments.

    Call arguments:
        inputs: ``(batch, features)``, one time step.
        states: ``[h_prev, c_prev]``, each ``(batch, units)``.
        training: whether dropout applies.

    Returns ``(h, [h, c])``.

    >>> import highlevel as hl
    >>> cell = hl.layers.LSTMCell(4)
    >>> h, (h2, c) = cell(hl.ops.ones((2, 3)), [hl.ops.zeros((2, 4)), hl.ops.zeros((2, 4))])
    >>> hl.ops.shape(h), hl.ops.shape(c)
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
        # Keras' other implementation (1) computes the same values gate by gate; accepted for configs.
        self.implementation = kwargs.pop("implementation", 2)
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
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = bool(unit_forget_bias)
        self.state_size = [self.units, self.units]
        self.output_size = self.units

    def build(self, input_shape):
        input_dim = last_axis_size(input_shape, self.name)
        u = self.units
        self.kernel = self.add_weight(
            shape=(input_dim, 4 * u),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint,
            name="kernel",
        )
        self.recurrent_kernel = self.add_weight(
            shape=(u, 4 * u),
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
                        [base((u,), dtype=dtype), ones((u,), dtype=dtype), base((2 * u,), dtype=dtype)]
                    )
            else:
                bias_initializer = self.bias_initializer
            self.bias = self.add_weight(
                shape=(4 * u,),
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
        z = ops.matmul(inputs, self.kernel) + ops.matmul(h_prev, self.recurrent_kernel)
        if self.bias is not None:
            z = ops.add(z, self.bias)  # a Variable on the right of `+` would turn into a constant on TF
        z_i, z_f, z_c, z_o = ops.split(z, 4, axis=-1)
        i = self.recurrent_activation(z_i)
        f = self.recurrent_activation(z_f)
        c = f * c_prev + i * self.activation(z_c)
        o = self.recurrent_activation(z_o)
        h = o * self.activation(c)
        return h, [h, c]

    def get_initial_state(self, batch_size=None):
        """Zero states: ``[h, c]``, each ``zeros((batch_size, units))``."""
        return zero_states(self.state_size, batch_size, self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update(self._cell_config())
        config.update(
            {
                "recurrent_activation": activations.serialize(self.recurrent_activation),
                "unit_forget_bias": self.unit_forget_bias,
            }
        )
        return config
