"""What the built-in recurrent cells share: argument checks, dropout masks drawn once per call, zero states.

A cell's dropout masks must be the same at every time step and must be drawn *outside* the compiled time
loop (a random draw inside ``jax.lax.scan`` or ``tf.while_loop`` would need the seed state threaded through
the loop). :class:`DropoutRNNCell` caches one mask per call: the RNN layer draws it before its loop with
:meth:`DropoutRNNCell.prepare_dropout_masks` and clears it afterwards; a cell called on its own draws a
fresh mask on each call.
"""

from highlevel import activations, constraints, initializers, ops, random, regularizers

_WEIGHTS = ("kernel", "recurrent", "bias")


def check_units(units, cls_name):
    if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
        raise ValueError(
            f"Received an invalid value for argument `units`, expected a positive integer, got {units!r} "
            f"(in {cls_name})."
        )
    return units


def check_dropout_rate(rate, arg, cls_name):
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0.0 <= rate <= 1.0:
        raise ValueError(
            f"Received an invalid value for argument `{arg}`, expected a float in [0, 1], got {rate!r} (in {cls_name})."
        )
    return min(float(rate), 1.0)


class DropoutRNNCell:
    """Mixin of the built-in cells: ``dropout`` / ``recurrent_dropout`` masks shared by every time step.

    The mixing class sets ``dropout``, ``recurrent_dropout`` and ``seed_generator`` (a
    ``highlevel.random.SeedGenerator``).
    """

    _dropout_mask = None
    _recurrent_dropout_mask = None

    def _set_cell_arguments(self, units, activation, use_bias, dropout, recurrent_dropout, seed, **weights):
        """Stores the arguments every built-in cell takes; ``weights`` holds the ``kernel_`` / ``recurrent_`` /
        ``bias_`` ``initializer`` / ``regularizer`` / ``constraint`` arguments."""
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        for part in _WEIGHTS:
            setattr(self, f"{part}_initializer", initializers.get(weights[f"{part}_initializer"]))
            setattr(self, f"{part}_regularizer", regularizers.get(weights[f"{part}_regularizer"]))
            setattr(self, f"{part}_constraint", constraints.get(weights[f"{part}_constraint"]))
        name = type(self).__name__
        self.dropout = check_dropout_rate(dropout, "dropout", name)
        self.recurrent_dropout = check_dropout_rate(recurrent_dropout, "recurrent_dropout", name)
        self.seed = seed
        # Not made without dropout: its state would be one more (needless) variable of the training step.
        self.seed_generator = random.SeedGenerator(seed) if (self.dropout or self.recurrent_dropout) else None

    def _cell_config(self):
        """The config entries of :meth:`_set_cell_arguments`'s arguments."""
        config = {"units": self.units, "activation": activations.serialize(self.activation), "use_bias": self.use_bias}
        for part in _WEIGHTS:
            config[f"{part}_initializer"] = initializers.serialize(getattr(self, f"{part}_initializer"))
            config[f"{part}_regularizer"] = regularizers.serialize(getattr(self, f"{part}_regularizer"))
            config[f"{part}_constraint"] = constraints.serialize(getattr(self, f"{part}_constraint"))
        config.update(dropout=self.dropout, recurrent_dropout=self.recurrent_dropout, seed=self.seed)
        return config

    def _draw_mask(self, shape, dtype, rate):
        return random.dropout(ops.ones(shape, dtype=dtype), rate=rate, seed=self.seed_generator)

    def get_dropout_mask(self, step_input):
        """The input dropout mask of this call (drawn now when the RNN did not prepare one)."""
        if self._dropout_mask is None:
            return self._draw_mask(ops.shape(step_input), ops.dtype(step_input), self.dropout)
        return self._dropout_mask

    def get_recurrent_dropout_mask(self, state):
        """The recurrent dropout mask of this call (drawn now when the RNN did not prepare one)."""
        if self._recurrent_dropout_mask is None:
            return self._draw_mask(ops.shape(state), ops.dtype(state), self.recurrent_dropout)
        return self._recurrent_dropout_mask

    def prepare_dropout_masks(self, batch_size, input_dim, dtype):
        """Draws this call's masks once, before the time loop (only the non-zero rates draw)."""
        # Keras applies dropout only for rates strictly between 0 and 1
        if 0 < self.dropout < 1:
            self._dropout_mask = self._draw_mask((batch_size, input_dim), dtype, self.dropout)
        if 0 < self.recurrent_dropout < 1:
            self._recurrent_dropout_mask = self._draw_mask((batch_size, self.units), dtype, self.recurrent_dropout)

    def reset_dropout_mask(self):
        self._dropout_mask = None

    def reset_recurrent_dropout_mask(self):
        self._recurrent_dropout_mask = None


def zero_states(state_size, batch_size, dtype):
    """Zero initial states for a cell's ``state_size`` (an int or a nest of ints): one (batch, n) per int."""
    if isinstance(state_size, int):
        return [ops.zeros((batch_size, state_size), dtype=dtype)]
    return [
        zero_states(s, batch_size, dtype)[0] if isinstance(s, int) else zero_states(s, batch_size, dtype)
        for s in state_size
    ]


def last_axis_size(input_shape, layer_name):
    """The feature size of one time step's input, with a clear error when it is unknown."""
    dim = input_shape[-1] if input_shape else None
    if dim is None:
        raise ValueError(
            f"Layer '{layer_name}' needs the size of the last axis of its input to create its weights, but "
            f"received input_shape={tuple(input_shape) if input_shape is not None else None}. Give the input a "
            "known last dimension."
        )
    return dim


#: the cell constructor arguments that SimpleRNN / LSTM / GRU configs repeat (Keras flattens them)
_BASE_KEYS = ("name", "trainable", "dtype", "input_shape", "activity_regularizer")


def rnn_layer_config(layer, rnn_config):
    """The config of a SimpleRNN / LSTM / GRU layer: its RNN arguments plus its cell's arguments."""
    config = {k: v for k, v in rnn_config.items() if k != "cell"}
    cell_config = layer.cell.get_config()
    config.update({k: v for k, v in cell_config.items() if k not in _BASE_KEYS})
    return config


def cell_property(name):
    """A read-only property of a SimpleRNN / LSTM / GRU layer that reads attribute ``name`` of its cell."""

    def read(self):
        return getattr(self.cell, name)

    read.__name__ = name
    read.__doc__ = f"The cell's ``{name}`` (read-only)."
    return property(read)


#: the cell attributes SimpleRNN exposes read-only (LSTM and GRU add theirs)
SIMPLE_RNN_CELL_PROPERTIES = (
    "activation",
    "use_bias",
    "kernel_initializer",
    "recurrent_initializer",
    "bias_initializer",
    "kernel_regularizer",
    "recurrent_regularizer",
    "bias_regularizer",
    "kernel_constraint",
    "recurrent_constraint",
    "bias_constraint",
    "dropout",
    "recurrent_dropout",
)


def expose_cell_properties(cls, names):
    """Adds a :func:`cell_property` named after each of ``names`` to the layer class ``cls``; returns ``cls``."""
    for name in names:
        setattr(cls, name, cell_property(name))
    return cls
