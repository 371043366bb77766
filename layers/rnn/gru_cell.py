"""GRUCell: one step of a gated recurrent unit (update and reset gates)."""

from highlevel import activations, ops
from highlevel.layer import Layer

from ._cell_utils import DropoutRNNCell, check_units, last_axis_size, zero_states


class GRUCell(DropoutRNNCell, Layer):
    """The cell of :class:`GRU` (``keras.layers.GRUCell``): processes one time step.

    ``z`` (update) and ``r`` (reset) gates go through ``recurrent_activation``; the candidate is
    ``activation(x W_h + r * (h_prev U_h + b_rh))`` with ``reset_after=True`` (Keras 3's default, the cuDNN
    variant, with separate input and recurrent biases: ``bias`` has shape ``(2, 3 * units)``) or
    ``activation(x W_h + (r * h_prev) U_h)`` with ``reset_after=False``; ``h = z * h_prev + (1 - z) * candidate``.

    Args:
        units: positive int, the size of the output and state.
        activation: the candidate's activation (default ``"tanh"``).
        recurrent_activation: the gates' activation (default ``"sigmoid"``).
        use_bias: whether to add biases.
        kernel_initializer: initializer of the kernel (default ``"glorot_uniform"``).
        recurrent_initializer: initializer of the recurrent kernel (default ``"orthogonal"``).
        bias_initializer: initializer of the bias (default ``"zeros"``).
        kernel_regularizer: optional regularizer of the kernel (default None).
        recurrent_regularizer: optional regularizer of the recurrent kernel (default None).
        bias_regularizer: optional regularizer of the bias (default None).
        kernel_constraint: optional constraint applied to the kernel after each update (default None).
        recurrent_constraint: optional constraint applied to the recurrent kernel after each update (default None).
        bias_constraint: optional constraint applied to the bias after each update (default None).
        dropout: float in [0, 1], the fraction of the inputs dropped (same mask at every step).
        recurrent_dropout: float in [0, 1], the fraction of the previous state dropped.
        reset_after: apply the reset gate after the recurrent matrix multiplication (default True).
        seed: int, the seed of the dropout masks.
        **kwargs: base layer arguments.

    Call arguments:
        inputs: ``(batch, features)``, one time step.
        states: a list holding the previous state ``(batch, units)`` (or that tensor itself).
        training: whether dropout applies.

    >>> import highlevel as hl
    >>> cell = hl.layers.GRUCell(4)
    >>> h, states = cell(hl.ops.ones((2, 3)), [hl.ops.zeros((2, 4))])
    >>> hl.ops.shape(h), [tuple(w.shape) for w in cell.weights]
    ((2, 4), [(3, 12), (4, 12), (2, 12)])
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
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        reset_after=True,
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
        self.reset_after = bool(reset_after)
        self.state_size = self.units
        self.output_size = self.units

    def build(self, input_shape):
        input_dim = last_axis_size(input_shape, self.name)
        u = self.units
        self.kernel = self.add_weight(
            shape=(input_dim, 3 * u),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint,
            name="kernel",
        )
        self.recurrent_kernel = self.add_weight(
            shape=(u, 3 * u),
            initializer=self.recurrent_initializer,
            regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint,
            name="recurrent_kernel",
        )
        self.bias = None
        if self.use_bias:
            shape = (2, 3 * u) if self.reset_after else (3 * u,)
            self.bias = self.add_weight(
                shape=shape,
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
                name="bias",
            )
        self.built = True

    def call(self, inputs, states, training=False):
        nested = isinstance(states, (list, tuple))
        h_prev = states[0] if nested else states
        u = self.units
        if training and 0 < self.dropout < 1:
            inputs = inputs * self.get_dropout_mask(inputs)
        h_rec = h_prev
        if training and 0 < self.recurrent_dropout < 1:
            h_rec = h_prev * self.get_recurrent_dropout_mask(h_prev)
        input_bias = recurrent_bias = None
        if self.bias is not None:
            if self.reset_after:
                input_bias, recurrent_bias = self.bias[0], self.bias[1]
            else:
                input_bias = self.bias
        x = ops.matmul(inputs, self.kernel)
        if input_bias is not None:
            x = ops.add(x, input_bias)
        x_z, x_r, x_h = ops.split(x, 3, axis=-1)
        if self.reset_after:
            inner = ops.matmul(h_rec, self.recurrent_kernel)
            if recurrent_bias is not None:
                inner = inner + recurrent_bias
            rec_z, rec_r, rec_h = ops.split(inner, 3, axis=-1)
        else:
            inner = ops.matmul(h_rec, self.recurrent_kernel[:, : 2 * u])
            rec_z, rec_r = ops.split(inner, 2, axis=-1)
        z = self.recurrent_activation(x_z + rec_z)
        r = self.recurrent_activation(x_r + rec_r)
        if self.reset_after:
            rec_h = r * rec_h
        else:
            rec_h = ops.matmul(r * h_rec, self.recurrent_kernel[:, 2 * u :])
        candidate = self.activation(x_h + rec_h)
        h = z * h_prev + (1 - z) * candidate
        return h, ([h] if nested else h)

    def get_initial_state(self, batch_size=None):
        """Zero states: ``[zeros((batch_size, units))]``."""
        return zero_states(self.state_size, batch_size, self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update(self._cell_config())
        config.update(
            {"recurrent_activation": activations.serialize(self.recurrent_activation), "reset_after": self.reset_after}
        )
        return config
