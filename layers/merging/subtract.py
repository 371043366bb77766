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
    """Functional form of :class:`Subtract`: ``subtract([x1, x2])``."""
    return Subtract(**kwargs)(inputs)
