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
    """Functional form of :class:`Average`: ``average([x1, x2])``."""
    return Average(**kwargs)(inputs)
