"""Element-wise difference of exactly two inputs."""

from highlevel import ops

from .base_merge import Merge


class Subtract(Merge):
    """Subtracts the second of two inputs from the first, element-wise (``keras.layers.Subtract``).

    Args:
        **kwargs: base layer arguments (``name``, ``dtype``...).

    >>> import highlevel as hl
    >>> x1, x2 = hl.ops.full((2, 3), 5.0), hl.ops.ones((2, 3))
    >>> hl.ops.convert_to_numpy(hl.layers.Subtract()([x1, x2]))[0].tolist()
    [4.0, 4.0, 4.0]
    """

    num_inputs = 2

    def _merge_function(self, inputs, masks):
        return ops.subtract(inputs[0], inputs[1])


def subtract(inputs, **kwargs):
    """Subtracts the second of two tensors from the first (the functional form of :class:`Subtract`).

    Builds a ``Subtract`` layer and calls it on ``inputs``: ``inputs[0] - inputs[1]``.

    Args:
        inputs: a list of exactly two tensors of the same shape (or shapes that broadcast), batch axis first.
        **kwargs: arguments of the layer (``name``, ``dtype``...).

    Returns:
        A tensor of the inputs' broadcast shape and dtype.

    >>> import highlevel as hl
    >>> x1 = hl.ops.convert_to_tensor([[1.0, 2.0]])
    >>> x2 = hl.ops.convert_to_tensor([[3.0, 5.0]])
    >>> hl.ops.convert_to_numpy(hl.layers.subtract([x1, x2])).tolist()
    [[-2.0, -3.0]]
    """
    return Subtract(**kwargs)(inputs)
