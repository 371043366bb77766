"""Element-wise minimum of a list of inputs."""

from highlevel import ops

from .base_merge import Merge


class Minimum(Merge):
    """The element-wise minimum of a list of inputs (``keras.layers.Minimum``).

    With masks (in a model whose inputs carry them), a masked entry of one input is ignored in favour of
    the others.

    Args:
        **kwargs: base layer arguments (``name``, ``dtype``...).

    >>> import highlevel as hl
    >>> x1 = hl.ops.convert_to_tensor([[1.0, 5.0]])
    >>> x2 = hl.ops.convert_to_tensor([[3.0, 2.0]])
    >>> hl.ops.convert_to_numpy(hl.layers.Minimum()([x1, x2])).tolist()
    [[1.0, 2.0]]
    """

    def _merge_function(self, inputs, masks):
        return self._merge_or_masked(ops.minimum, inputs, masks)


def minimum(inputs, **kwargs):
    """Takes the element-wise minimum of a list of tensors (the functional form of :class:`Minimum`).

    Builds a ``Minimum`` layer and calls it on ``inputs``: ``min(inputs[0], inputs[1], ...)``.

    Args:
        inputs: a list of at least two tensors of the same shape (or shapes that broadcast), batch axis first.
        **kwargs: arguments of the layer (``name``, ``dtype``...).

    Returns:
        A tensor of the inputs' broadcast shape and dtype.

    >>> import highlevel as hl
    >>> x1 = hl.ops.convert_to_tensor([[1.0, 2.0]])
    >>> x2 = hl.ops.convert_to_tensor([[3.0, 0.0]])
    >>> hl.ops.convert_to_numpy(hl.layers.minimum([x1, x2])).tolist()
    [[1.0, 0.0]]
    """
    return Minimum(**kwargs)(inputs)
