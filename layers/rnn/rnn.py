"""RNN: runs a recurrent cell over the time axis of a sequence with one compiled loop (``ops.scan``)."""

from highlevel import ops
from highlevel.backends.contract import StatelessScope, tree
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._cell_utils import DropoutRNNCell, zero_states
from .stacked_rnn_cells import StackedRNNCells


def _is_nested(x):
    return isinstance(x, (list, tuple))


def _time_major(x):
    return ops.transpose(x, (1, 0) + tuple(range(2, ops.ndim(x))))


def _flat_sizes(state_size):
    return tree.flatten(state_size if _is_nested(state_size) else [state_size])[0]


def _per_sample(m, x):
    """The (batch,) step mask ``m`` shaped to broadcast against ``x`` (batch, ...)."""
    return ops.reshape(m, (-1,) + (1,) * (ops.ndim(x) - 1))


class RNN(Layer):
    """Base class for recurrent layers (``keras.layers.RNN``): applies ``cell`` at every time step.

    The time loop is ``highlevel.ops.scan``: one ``jax.lax.scan`` on JAX, one ``tf.while_loop`` on
    TensorFlow, a Python loop recorded by autograd on the native and PyTorch engines. The cell's weights are
    read once before the loop and its dropout masks are drawn once per call, outside the loop.

    Args:
        cell: an RNN cell: a layer (or object) with ``call(inputs, states)`` returning ``(output,
            new_states)`` and a ``state_size`` attribute (an int, or a list of ints, one per state), optionally
            ``output_size`` and ``get_initial_state(batch_size)``. A list of cells is stacked with
            :class:`StackedRNNCells`.
        return_sequences: return the output of every step ``(batch, timesteps, units)`` instead of the last
            one ``(batch, units)``.
        return_state: also return the final states (after the output, as separate values).
        go_backwards: process the sequence from the last step to the first; with ``return_sequences`` the
            outputs stay in processing (reversed) order, as in Keras.
        stateful: keep the final states of a batch as the initial states of the next one (needs a fixed
            batch size; :meth:`reset_state` zeros them).
        unroll: unroll the loop into the graph (``scan(..., unroll=True)``); faster for short sequences.
        zero_output_for_mask: output zeros at masked steps (instead of repeating the previous output).
        **kwargs: base layer arguments.

    Call arguments:
        sequences: ``(batch, timesteps, features)``; or a list ``[sequences, *initial_states]``.
        initial_state: a tensor or list of tensors, the cell's initial states (default zeros).
        mask: bool ``(batch, timesteps)``; a masked step keeps the previous states and outputs (set by
            ``Embedding(mask_zero=True)`` or ``Masking`` in a model).
        training: passed to the cell (dropout).

    Raises:
        ValueError: if ``cell`` has no ``call`` method or no ``state_size`` attribute (an int or a list of ints).

    >>> import highlevel as hl
    >>> layer = hl.layers.RNN(hl.layers.SimpleRNNCell(4), return_sequences=True, return_state=True)
    >>> seq, state = layer(hl.ops.ones((2, 5, 3)))
    >>> hl.ops.shape(seq), hl.ops.shape(state)
    ((2, 5, 4), (2, 4))
    """

    def __init__(
        self,
        cell,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        unroll=False,
        zero_output_for_mask=False,
        **kwargs,
    ):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if not callable(getattr(cell, "call", None)):
            raise ValueError(f"Argument `cell` should have a `call` method. Received: cell={cell!r}")
        state_size = getattr(cell, "state_size", None)
        if state_size is None or not isinstance(state_size, (int, list, tuple)):
            raise ValueError(
                "The RNN cell should have a `state_size` attribute (an int, or a list of ints, one per state). "
                f"Received: cell={cell!r} with state_size={state_size!r}"
            )
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = bool(return_sequences)
        self.return_state = bool(return_state)
        self.go_backwards = bool(go_backwards)
        self.stateful = bool(stateful)
        self.unroll = bool(unroll)
        self.zero_output_for_mask = bool(zero_output_for_mask)
        self.supports_masking = True
        self.state_size = [state_size] if isinstance(state_size, int) else list(state_size)
        self.single_state = isinstance(state_size, int)
        self.states = None

    # ------------------------------------------------------------------ shapes
    @property
    def _output_size(self):
        size = getattr(self.cell, "output_size", None)
        return size if size is not None else _flat_sizes(self.state_size)[0]

    def _split_inputs(self, sequences, initial_state):
        # Keras also accepts ``layer([sequences, h0, c0])``.
        if _is_nested(sequences) and initial_state is None:
            sequences, initial_state = sequences[0], (list(sequences[1:]) or None)
        return sequences, initial_state

    def build(self, sequences_shape, initial_state_shape=None):
        if _is_nested(sequences_shape) and sequences_shape and _is_nested(sequences_shape[0]):
            sequences_shape = sequences_shape[0]  # the [sequences, *states] form
        sequences_shape = tuple(sequences_shape)
        if len(sequences_shape) < 3:
            raise ValueError(
                f"Layer '{self.name}' expects sequences of shape (batch, timesteps, features); received input "
                f"shape {sequences_shape} (rank {len(sequences_shape)})."
            )
        step_shape = (sequences_shape[0],) + sequences_shape[2:]
        if isinstance(self.cell, Layer) and not self.cell.built:
            self.cell.build(step_shape)
            self.cell.built = True
        if self.stateful:
            if sequences_shape[0] is None:
                raise ValueError(
                    f"Layer '{self.name}': a stateful RNN needs a static batch size; received input shape "
                    f"{sequences_shape}. Give the Input a batch_size (or batch_shape)."
                )
            self._create_state_variables(sequences_shape[0])
        self.built = True

    def _create_state_variables(self, batch_size):
        from highlevel import Variable

        # Tracked as non-trainable variables (unlike Keras, they show in `weights`): that is what makes a
        # compiled JAX step carry them in and out instead of leaking the assignment.
        self.states = tree.map_structure(
            lambda s: Variable(ops.convert_to_numpy(s), trainable=False, name="rnn_state"),
            self.get_initial_state(batch_size),
        )

    def reset_state(self):
        """Zeros the states of a stateful RNN."""
        if self.states is not None:
            for v in tree.flatten(self.states)[0]:
                v.assign(ops.zeros(v.shape, dtype=v.dtype))

    reset_states = reset_state  # Keras' compatibility alias

    def get_initial_state(self, batch_size):
        """The cell's initial states for ``batch_size`` sequences, as a list (zeros by default)."""
        fn = getattr(self.cell, "get_initial_state", None)
        dtype = getattr(self.cell, "compute_dtype", None) or self.compute_dtype
        states = fn(batch_size=batch_size) if fn is not None else zero_states(self.state_size, batch_size, dtype)
        return list(states) if _is_nested(states) else [states]

    def compute_output_spec(self, sequences, initial_state=None, mask=None, training=None):
        sequences, _ = self._split_inputs(sequences, initial_state)
        batch, steps = sequences.shape[0], sequences.shape[1]
        dtype = self.compute_dtype
        units = self._output_size
        out = KerasTensor((batch, steps, units) if self.return_sequences else (batch, units), dtype)
        if not self.return_state:
            return out
        states = tree.map_structure(lambda n: KerasTensor((batch, n), dtype), self.state_size)
        return [out, *states]

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        if _is_nested(sequences_shape) and sequences_shape and _is_nested(sequences_shape[0]):
            sequences_shape = sequences_shape[0]
        spec = self.compute_output_spec(KerasTensor(tuple(sequences_shape), self.compute_dtype))
        return tree.map_structure(lambda t: t.shape, spec)

    def compute_mask(self, inputs, mask=None):
        if _is_nested(mask):
            mask = mask[0] if mask else None
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None for _ in tree.flatten(self.state_size)[0]]
        return output_mask

    # -------------------------------------------------------------------- call
    def call(self, sequences, initial_state=None, mask=None, training=False):
        sequences, initial_state = self._split_inputs(sequences, initial_state)
        if _is_nested(mask):
            mask = mask[0] if mask else None
        batch = ops.shape(sequences)[0]
        follow = False
        if initial_state is None:
            if self.stateful and self.states is not None:
                initial_state = tree.map_structure(lambda v: v.value, self.states)
            else:
                # Inside a traced program (a TensorFlow graph, torch.onnx) the batch size is a tensor, or a number
                # the trace would keep as a constant: the states are made for one row and take the batch size
                # from the sequences (_follow_batch).
                follow = True
                initial_state = self.get_initial_state(batch if isinstance(batch, int) else 1)
        initial_state = list(initial_state) if _is_nested(initial_state) else [initial_state]
        dtype = self.compute_dtype
        initial_state = tree.map_structure(lambda s: ops.cast(ops.convert_to_tensor(s), dtype), initial_state)
        if follow:
            initial_state = tree.map_structure(lambda s: _follow_batch(s, sequences), initial_state)
        self._check_initial_state(initial_state)

        self._prepare_dropout_masks(self.cell, batch, ops.shape(sequences)[-1], dtype, training)
        try:
            # The cell reads its weights once here, not once per step: inside the scan they are constants of
            # the loop (a JAX step substitutes variable values, and they must not be re-read under lax.scan).
            cell_vars = list(getattr(self.cell, "weights", []))
            with StatelessScope({v: v.value for v in cell_vars}):
                last, outputs, states = self._loop(sequences, initial_state, mask, training)
        finally:
            self._reset_dropout_masks(self.cell)

        if self.stateful and self.states is not None:
            for var, s in zip(tree.flatten(self.states)[0], tree.flatten(states)[0]):
                var.assign(ops.stop_gradient(s))
        output = outputs if self.return_sequences else last
        if self.return_state:
            return [output, *states]
        return output

    def _check_initial_state(self, initial_state):
        want = len(_flat_sizes(self.state_size))
        got = len(tree.flatten(initial_state)[0])
        if got != want:
            raise ValueError(
                f"Layer '{self.name}' expects {want} initial state tensor(s) (cell state_size={self.state_size}), "
                f"but received {got}. Pass one (batch, size) tensor per state."
            )

    def _cell_step(self, training):
        cell = self.cell
        kwargs = {}
        if isinstance(cell, Layer) and getattr(cell, "_call_has_training", False):
            kwargs["training"] = training

        def step(x, states):
            # The cell's call runs here, not through cell.__call__: under a mixed dtype policy its weights
            # must still be read in its compute dtype (each step casts them afresh: a cast cached across
            # steps of a traced loop would escape the loop's trace).
            if isinstance(cell, Layer):
                with cell._autocast_scope():
                    return cell.call(x, states, **kwargs)
            return cell.call(x, states, **kwargs)

        return step

    def _loop(self, sequences, initial_state, mask, training):
        cell_step = self._cell_step(training)
        state_def = tree.flatten(initial_state)[1]
        state_dtypes = [ops.dtype(s) for s in tree.flatten(initial_state)[0]]

        def restructure(new_states):
            leaves = tree.flatten(new_states if _is_nested(new_states) else [new_states])[0]
            leaves = [l if ops.dtype(l) == d else ops.cast(l, d) for l, d in zip(leaves, state_dtypes)]
            return tree.unflatten(state_def, leaves)

        xs = _time_major(sequences)
        if mask is not None:
            mask = _time_major(ops.cast(mask, "bool"))
        if self.go_backwards:
            xs = ops.flip(xs, axis=0)
            mask = None if mask is None else ops.flip(mask, axis=0)
        unroll = True if self.unroll else 1

        if mask is None:

            def step(states, x):
                out, new_states = cell_step(x, states)
                return restructure(new_states), out

            states, ys = ops.scan(step, initial_state, xs, unroll=unroll)
            last = ys[-1]
        else:
            zero_out = _follow_batch(self._zero_output(1), sequences)
            zero_output = self.zero_output_for_mask

            def step(carry, inputs):
                states, prev_out = carry
                x, m = inputs
                out, new_states = cell_step(x, states)
                new_states = restructure(new_states)
                new_states = tree.unflatten(
                    state_def,
                    [
                        ops.where(_per_sample(m, n), n, o)
                        for n, o in zip(tree.flatten(new_states)[0], tree.flatten(states)[0])
                    ],
                )
                out = ops.where(_per_sample(m, out), out, ops.zeros_like(out) if zero_output else prev_out)
                return (new_states, out), out

            (states, last), ys = ops.scan(step, (initial_state, zero_out), (xs, mask), unroll=unroll)
        outputs = _time_major(ys) if self.return_sequences else None
        return last, outputs, states

    def _zero_output(self, batch):
        """The output before the first step (kept by masked leading steps)."""
        return ops.zeros((batch, self._output_size), dtype=self.compute_dtype)

    # ---------------------------------------------------------- dropout masks
    def _prepare_dropout_masks(self, cell, batch, input_dim, dtype, training):
        if not training:
            return
        if isinstance(cell, DropoutRNNCell):
            cell.prepare_dropout_masks(batch, input_dim, dtype)
        elif isinstance(cell, StackedRNNCells):
            for c in cell.cells:
                self._prepare_dropout_masks(c, batch, input_dim, dtype, training)
                input_dim = getattr(c, "output_size", None) or _flat_sizes(c.state_size)[0]

    def _reset_dropout_masks(self, cell):
        if isinstance(cell, DropoutRNNCell):
            cell.reset_dropout_mask()
            cell.reset_recurrent_dropout_mask()
        elif isinstance(cell, StackedRNNCells):
            for c in cell.cells:
                self._reset_dropout_masks(c)

    # ------------------------------------------------------------------ config
    def get_config(self):
        from highlevel.layers import serialize

        config = super().get_config()
        config.update(
            {
                "return_sequences": self.return_sequences,
                "return_state": self.return_state,
                "go_backwards": self.go_backwards,
                "stateful": self.stateful,
                "unroll": self.unroll,
                "zero_output_for_mask": self.zero_output_for_mask,
                "cell": serialize(self.cell),
            }
        )
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from highlevel.layers import deserialize
        from highlevel.saving.object_registry import allowed_objects

        # nested layers may be user classes: registered ones, those of a custom_object_scope, or passed here
        custom_objects = allowed_objects(custom_objects)
        config = dict(config)
        cell = deserialize(config.pop("cell"), custom_objects=custom_objects)
        return cls(cell, **config)


def _follow_batch(state, sequences):
    """``state``'s first row repeated once per row of ``sequences`` (an initial state's rows are all alike), the
    count taken from the tensor, not read as a number: a traced program keeps its batch size open."""
    rows = ops.zeros_like(sequences[:, 0])
    if len(rows.shape) > 1:
        rows = ops.sum(rows, axis=tuple(range(1, len(rows.shape))))
    rows = ops.reshape(ops.cast(rows, state.dtype), (-1,) + (1,) * (len(state.shape) - 1))
    return state[:1] + rows
