"""StackedRNNCells: several recurrent cells used as one (each step feeds the next cell's input)."""

import contextlib

from highlevel.layer import Layer

from ._cell_utils import zero_states


def _flat_first(size):
    while isinstance(size, (list, tuple)):
        size = size[0]
    return size


class StackedRNNCells(Layer):
    """Wraps a list of RNN cells so they behave as a single cell (``keras.layers.StackedRNNCells``).

    At each step the first cell's output is the second cell's input, and so on; the states are one list per
    cell.

    Args:
        cells: a list of RNN cells.
        **kwargs: base layer arguments.

    Raises:
        ValueError: if ``cells`` is empty or not a list, or a cell lacks ``call`` or ``state_size``.

    >>> import highlevel as hl
    >>> cells = [hl.layers.LSTMCell(4), hl.layers.GRUCell(3)]
    >>> layer = hl.layers.RNN(hl.layers.StackedRNNCells(cells))
    >>> hl.ops.shape(layer(hl.ops.ones((2, 5, 6))))
    (2, 3)
    """

    def __init__(self, cells, **kwargs):
        if not isinstance(cells, (list, tuple)) or not cells:
            raise ValueError(f"StackedRNNCells expects a non-empty list of cells. Received: cells={cells!r}")
        for cell in cells:
            if not callable(getattr(cell, "call", None)) or getattr(cell, "state_size", None) is None:
                raise ValueError(
                    "Every cell of StackedRNNCells must have a `call` method and a `state_size` attribute. "
                    f"Received: cell={cell!r}"
                )
        super().__init__(**kwargs)
        self.cells = list(cells)

    @property
    def state_size(self):
        return [c.state_size for c in self.cells]

    @property
    def output_size(self):
        last = self.cells[-1]
        size = getattr(last, "output_size", None)
        return size if size is not None else _flat_first(last.state_size)

    def get_initial_state(self, batch_size=None):
        """One list of initial states per cell."""
        out = []
        for cell in self.cells:
            fn = getattr(cell, "get_initial_state", None)
            if fn is not None:
                states = fn(batch_size=batch_size)
            else:
                states = zero_states(cell.state_size, batch_size, self.compute_dtype)
            out.append(list(states) if isinstance(states, (list, tuple)) else [states])
        return out

    def build(self, input_shape):
        shape = tuple(input_shape)
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                cell.build(shape)
                cell.built = True
            size = getattr(cell, "output_size", None)
            shape = shape[:-1] + (size if size is not None else _flat_first(cell.state_size),)
        self.built = True

    def call(self, inputs, states, training=False):
        new_states = []
        for cell, state in zip(self.cells, states):
            state = list(state) if isinstance(state, (list, tuple)) else [state]
            kwargs = {"training": training} if getattr(cell, "_call_has_training", False) else {}
            # Its weights in its compute dtype (see RNN._cell_step).
            with getattr(cell, "_autocast_scope", contextlib.nullcontext)():
                inputs, new = cell.call(inputs, state, **kwargs)
            new_states.append(list(new) if isinstance(new, (list, tuple)) else [new])
        return inputs, new_states

    def get_config(self):
        from highlevel.layers import serialize

        config = super().get_config()
        config["cells"] = [serialize(c) for c in self.cells]
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from highlevel.layers import deserialize
        from highlevel.saving.object_registry import allowed_objects

        # nested layers may be user classes: registered ones, those of a custom_object_scope, or passed here
        custom_objects = allowed_objects(custom_objects)
        config = dict(config)
        cells = [deserialize(c, custom_objects=custom_objects) for c in config.pop("cells")]
        return cls(cells, **config)
