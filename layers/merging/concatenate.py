"""Concatenation of a list of inputs along one axis."""

from highlevel import ops

from .base_merge import Merge


class Concatenate(Merge):
    """Concatenates a list of inputs along ``axis`` (``keras.layers.Concatenate``).

    All inputs must have the same rank and the same sizes on every axis but ``axis``.

    Args:
        axis: the concatenation axis (default -1, the last).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Raises:
        TypeError: if ``axis`` is not an int.

    >>> import highlevel as hl
    >>> x1, x2 = hl.ops.ones((2, 3)), hl.ops.zeros((2, 4))
    >>> hl.ops.shape(hl.layers.Concatenate()([x1, x2]))
    (2, 7)
    >>> hl.layers.Concatenate(axis=1).compute_output_shape([(None, 2, 5), (None, 3, 5)])
    (None, 5, 5)
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"Concatenate's `axis` must be an int; received axis={axis!r}.")
        self.axis = axis

    def _checked_axis(self, input_shape):
        # The batch axis is checked below like any other axis, so concatenating along it works.
        self._check_shapes(input_shape, check_batch=False)
        ranks = {len(s) for s in input_shape}
        if len(ranks) != 1:
            raise ValueError(
                "A `Concatenate` layer requires inputs with matching shapes except for the concatenation axis, "
                f"but the inputs have different ranks. Received: input_shape={list(input_shape)}"
            )
        rank = ranks.pop()
        if not -rank <= self.axis < rank:
            raise ValueError(
                f"Concatenate axis={self.axis} is out of range for inputs of rank {rank}. "
                f"Received: input_shape={list(input_shape)}"
            )
        axis = self.axis % rank
        for i in range(rank):
            if i == axis:
                continue
            sizes = {s[i] for s in input_shape} - {None}
            if len(sizes) > 1:
                raise ValueError(
                    "A `Concatenate` layer requires inputs with matching shapes except for the concatenation "
                    f"axis {self.axis}, but axis {i} has sizes {sorted(sizes)}. Received: "
                    f"input_shape={list(input_shape)}"
                )
        return axis

    def build(self, input_shape):
        self._checked_axis(input_shape)
        self.built = True

    def _merge_function(self, inputs, masks):
        return ops.concatenate(inputs, axis=self.axis)

    def call(self, inputs, mask=None):
        self._check_input_list(inputs)
        return self._merge_function(list(inputs), None)

    def compute_output_shape(self, input_shape):
        axis = self._checked_axis(input_shape)
        output = []
        for i in range(len(input_shape[0])):
            sizes = [s[i] for s in input_shape]
            if i == axis:
                output.append(None if None in sizes else sum(sizes))
            else:
                known = [d for d in sizes if d is not None]
                output.append(known[0] if known else None)
        return tuple(output)

    def compute_mask(self, inputs, mask=None):
        if mask is None:
            return None
        if not isinstance(mask, (list, tuple)) or not isinstance(inputs, (list, tuple)) or len(mask) != len(inputs):
            raise ValueError(
                f"Layer '{self.name}': `inputs` and `mask` should be lists of the same length. Received mask={mask!r}"
            )
        if all(m is None for m in mask):
            return None
        # Each mask is widened to its input's full shape, concatenated like the inputs, then reduced over
        # the last axis: a timestep is valid when any concatenated feature is.
        full = []
        for x, m in zip(inputs, mask):
            if m is None:
                full.append(ops.ones_like(x, dtype="bool"))
            elif len(ops.shape(m)) < len(ops.shape(x)):
                full.append(self._expanded_mask(m, x))
            else:
                full.append(m)
        return ops.any(ops.concatenate(full, axis=self.axis), axis=-1)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


def concatenate(inputs, axis=-1, **kwargs):
    """Concatenates a list of tensors along one axis (the functional form of :class:`Concatenate`).

    Args:
        inputs: a list of tensors whose shapes agree on every axis except ``axis``.
        axis: int, the axis to join along (default -1, the last).
        **kwargs: arguments of the layer (``name``, ``dtype``...).

    Returns:
        A tensor whose ``axis`` has the sum of the inputs' sizes on that axis.

    >>> import highlevel as hl
    >>> x1, x2 = hl.ops.ones((2, 3)), hl.ops.zeros((2, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.concatenate([x1, x2])).tolist()
    [[1.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 0.0]]
    """
    return Concatenate(axis=axis, **kwargs)(inputs)
