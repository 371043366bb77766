"""Element-wise sum of a list of inputs."""

from highlevel import ops

from .base_merge import Merge


class Add(Merge):
    """Adds a list of inputs element-wise (``keras.layers.Add``).

    Takes a list of tensors with the same batch size and broadcast-compatible other axes; returns one
    tensor of the broadcast shape.

    Args:
        **kwargs: base layer arguments (``name``, ``dtype``...).

    >>> import highlevel as hl
    >>> x1, x2 = hl.ops.ones((2, 3)), hl.ops.full((2, 3), 2.0)
    >>> hl.ops.convert_to_numpy(hl.layers.Add()([x1, x2]))[0].tolist()
    [3.0, 3.0, 3.0]
    """

    def _merge_function(self, inputs, masks):
        output = inputs[0]
        for x in inputs[1:]:
            output = ops.add(output, x)
        return output


def add(inputs, **kwargs):
    """Adds a list of tensors element-wise (the functional form of :class:`Add`).

    Builds an ``Add`` layer and calls it on ``inputs``: ``inputs[0] + inputs[1] + ...``.

    Args:
        inputs: a list of at least two tensors of the same shape (or shapes that broadcast), batch axis first.
        **kwargs: arguments of the layer (``name``, ``dtype``...).

    Returns:
        A tensor of the inputs' broadcast shape and dtype.

    >>> import highlevel as hl
    >>> x1 = hl.ops.convert_to_tensor([[1.0, 2.0]])
    >>> x2 = hl.ops.convert_to_tensor([[3.0, 5.0]])
    >>> hl.ops.convert_to_numpy(hl.layers.add([x1, x2])).tolist()
    [[4.0, 7.0]]
    """
    return Add(**kwargs)(inputs)
