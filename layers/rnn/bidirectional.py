"""Bidirectional: runs a recurrent layer forwards and a copy of it backwards, and merges the two."""

from highlevel import ops
from highlevel.backends.contract import tree
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

_MERGE_MODES = ("sum", "mul", "concat", "ave", None)


def _copy_layer(layer, **overrides):
    config = layer.get_config()
    config.update(overrides)
    return type(layer).from_config(config)


class Bidirectional(Layer):
    """Bidirectional wrapper for RNNs (``keras.layers.Bidirectional``).

    The wrapped layer reads the sequence forwards; a copy with the opposite ``go_backwards`` (or
    ``backward_layer``) reads it backwards. With ``return_sequences`` the backward outputs are flipped back
    to the input's time order before merging.

    Args:
        layer: an :class:`RNN` instance (e.g. ``LSTM``, ``GRU``) to run forwards.
        merge_mode: how to combine the two outputs: ``"concat"`` (default), ``"sum"``, ``"mul"``, ``"ave"``,
            or None (return both, as a list).
        weights: optional initial weights (a list: the forward layer's, then the backward layer's).
        backward_layer: optional recurrent layer for the backward direction; by default a copy of ``layer``
            with ``go_backwards`` flipped. Must have the opposite ``go_backwards`` and the same
            ``return_sequences`` / ``return_state``.
        **kwargs: base layer arguments.

    Call arguments:
        inputs: ``(batch, timesteps, features)``.
        initial_state: a list of states: the forward layer's, then the backward layer's.
        mask: bool ``(batch, timesteps)``.
        training: passed to both layers.

    With ``return_state`` the output is ``[merged, *forward_states, *backward_states]``.

    Raises:
        ValueError: if ``layer`` is not a recurrent layer (one with ``go_backwards``, ``return_sequences`` and
            ``return_state``), ``merge_mode`` is not one of the listed modes, ``backward_layer`` is not a Layer, or the
            backward layer's ``go_backwards`` equals the forward one's or its ``return_sequences``/``return_state``
            differ.

    >>> import highlevel as hl
    >>> layer = hl.layers.Bidirectional(hl.layers.LSTM(4, return_sequences=True))
    >>> hl.ops.shape(layer(hl.ops.ones((2, 5, 3))))
    (2, 5, 8)
    """

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        from .rnn import RNN

        if not isinstance(layer, Layer) or not all(
            hasattr(layer, a) for a in ("go_backwards", "return_sequences", "return_state")
        ):
            raise ValueError(
                "Please initialize `Bidirectional` layer with a recurrent `Layer` instance (with `go_backwards`, "
                f"`return_sequences` and `return_state`). Received: {layer!r}"
            )
        if merge_mode not in _MERGE_MODES:
            raise ValueError(
                f"Invalid merge mode. Received: {merge_mode!r}. Merge mode should be one of "
                '{"sum", "mul", "ave", "concat", None}'
            )
        if backward_layer is not None and not isinstance(backward_layer, Layer):
            raise ValueError(f"`backward_layer` must be a `Layer` instance. Received: {backward_layer!r}")
        super().__init__(**kwargs)
        # a config saved from a Bidirectional already holds the prefixed name
        name = layer.name if layer.name.startswith("forward_") else "forward_" + layer.name
        self.forward_layer = _copy_layer(layer, name=name)
        if backward_layer is None:
            base = name[len("forward_") :]
            self.backward_layer = _copy_layer(layer, name="backward_" + base, go_backwards=not layer.go_backwards)
        else:
            self.backward_layer = backward_layer
        if self.forward_layer.go_backwards == self.backward_layer.go_backwards:
            raise ValueError(
                "Forward layer and backward layer should have different `go_backwards` value. Received: "
                f"forward_layer.go_backwards={self.forward_layer.go_backwards}, "
                f"backward_layer.go_backwards={self.backward_layer.go_backwards}"
            )
        for attr in ("stateful", "return_state", "return_sequences"):
            f, b = getattr(self.forward_layer, attr, None), getattr(self.backward_layer, attr, None)
            if f != b:
                raise ValueError(
                    "Forward layer and backward layer are expected to have the same value for attribute "
                    f"`{attr}`, got `{f}` for forward layer and `{b}` for backward layer"
                )
        # Keras zeros the outputs of masked steps when returning sequences, so the flipped backward
        # sequence lines up with the forward one.
        for l in (self.forward_layer, self.backward_layer):
            if isinstance(l, RNN):
                l.zero_output_for_mask = l.return_sequences
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.stateful = getattr(layer, "stateful", False)
        self.supports_masking = True
        self._initial_weights = weights

    def build(self, sequences_shape, initial_state_shape=None):
        if not self.forward_layer.built:
            self.forward_layer._maybe_build(KerasTensor(tuple(sequences_shape), self.compute_dtype))
        if not self.backward_layer.built:
            self.backward_layer._maybe_build(KerasTensor(tuple(sequences_shape), self.compute_dtype))
        self.built = True
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)
            self._initial_weights = None

    def _merge(self, y, y_rev):
        if self.merge_mode == "concat":
            return ops.concatenate([y, y_rev], axis=-1)
        if self.merge_mode == "sum":
            return y + y_rev
        if self.merge_mode == "ave":
            return (y + y_rev) / 2
        if self.merge_mode == "mul":
            return y * y_rev
        return [y, y_rev]

    def call(self, sequences, initial_state=None, mask=None, training=None):
        kwargs = {}
        if training is not None:
            kwargs["training"] = training
        if mask is not None:
            kwargs["mask"] = mask
        forward_state = backward_state = None
        if initial_state is not None:
            initial_state = list(initial_state) if isinstance(initial_state, (list, tuple)) else [initial_state]
            if len(initial_state) % 2:
                raise ValueError(
                    f"Layer '{self.name}': `initial_state` must hold the forward layer's states followed by the "
                    f"backward layer's (an even count); received {len(initial_state)} tensors."
                )
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        y = self.forward_layer(sequences, initial_state=forward_state, **kwargs)
        y_rev = self.backward_layer(sequences, initial_state=backward_state, **kwargs)
        if self.return_state:
            states = list(y[1:]) + list(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = ops.flip(y_rev, axis=1)
        output = self._merge(y, y_rev)
        if self.return_state:
            return ([output] if self.merge_mode is not None else list(output)) + states
        return output

    def compute_output_spec(self, sequences, initial_state=None, mask=None, training=None):
        f = self.forward_layer.compute_output_spec(sequences)
        b = self.backward_layer.compute_output_spec(sequences)
        if self.return_state:
            states = list(f[1:]) + list(b[1:])
            f, b = f[0], b[0]
        if self.merge_mode == "concat":
            out = KerasTensor(
                f.shape[:-1] + (None if f.shape[-1] is None or b.shape[-1] is None else f.shape[-1] + b.shape[-1],),
                f.dtype,
            )
            outs = [out]
        elif self.merge_mode is None:
            outs = [f, KerasTensor(b.shape, b.dtype)]
        else:
            outs = [KerasTensor(f.shape, f.dtype)]
        if self.return_state:
            return outs + states
        return outs[0] if self.merge_mode is not None else outs

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        # The merge changes the last axis (concat) or doubles the outputs (None); states follow the merge.
        # Several outputs come as a tuple of shapes, as in Keras.
        spec = self.compute_output_spec(KerasTensor(tuple(sequences_shape), self.compute_dtype))
        if isinstance(spec, (list, tuple)):
            return tuple(tuple(t.shape) for t in spec)
        return tuple(spec.shape)

    def compute_mask(self, inputs, mask=None):
        if isinstance(mask, (list, tuple)):
            mask = mask[0] if mask else None
        output_mask = mask if self.return_sequences else None
        if self.merge_mode is None:
            output_mask = [output_mask, output_mask]
        else:
            output_mask = [output_mask]
        if self.return_state:
            n = len(tree.flatten(self.forward_layer.state_size)[0]) * 2
            return output_mask + [None] * n
        return output_mask if self.merge_mode is None else output_mask[0]

    def reset_state(self):
        for l in (self.forward_layer, self.backward_layer):
            if hasattr(l, "reset_state"):
                l.reset_state()

    reset_states = reset_state

    def get_config(self):
        from highlevel.layers import serialize

        config = super().get_config()
        config["merge_mode"] = self.merge_mode
        config["layer"] = serialize(self.forward_layer)
        config["backward_layer"] = serialize(self.backward_layer)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from highlevel.layers import deserialize
        from highlevel.saving.object_registry import allowed_objects

        # nested layers may be user classes: registered ones, those of a custom_object_scope, or passed here
        custom_objects = allowed_objects(custom_objects)
        config = dict(config)
        config["layer"] = deserialize(config["layer"], custom_objects=custom_objects)
        if config.get("backward_layer") is not None:
            config["backward_layer"] = deserialize(config["backward_layer"], custom_objects=custom_objects)
        return cls(**config)
