"""Element-wise mean of a list of inputs."""

from highlevel import ops

from .base_merge import Merge


class Average(Merge):
    """Averages a list of inputs element-wise (``keras.layers.Average``).

    Args:
        **kwargs: base layer arguments (``name``, ``dtype``...).

    >>> import highlevel as hl
    >>> x1, x2 = hl.ops.ones((2, 3)), hl.ops.full((2, 3), 2.0)
    >>> hl.ops.convert_to_numpy(hl.layers.Average()([x1, x2]))[0].tolist()
    [1.5, 1.5, 1.5]
    """

    def _merge_function(self, inputs, masks):
        output = inputs[0]
        for x in inputs[1:]:
            output = ops.add(output, x)
        return ops.divide(output, len(inputs))


def average(inputs, **kwargs):
    """Averages a list of tensors element-wise (the functional form of :class:`Average`).

    Builds an ``Average`` layer and calls it on ``inputs``: ``(inputs[0] + ... + inputs[n-1]) / n``.

    Args:
        inputs: a list of at least two tensors of the same shape (or shapes that broadcast), batch axis first.
        **kwargs: arguments of the layer (``name``, ``dtype``...).

    Returns:
        A tensor of the inputs' broadcast shape and dtype.

    >>> import highlevel as hl
    >>> x1 = hl.ops.convert_to_tensor([[1.0, 2.0]])
    >>> x2 = hl.ops.convert_to_tensor([[3.0, 5.0]])
    >>> hl.ops.convert_to_numpy(hl.layers.average([x1, x2])).tolist()
    [[2.0, 3.5]]
    """
    return Average(**kwargs)(inputs)
