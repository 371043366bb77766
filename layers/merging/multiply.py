"""Element-wise product of a list of inputs."""

from highlevel import ops

from .base_merge import Merge


class Multiply(Merge):
    """Multiplies a list of inputs element-wise (``keras.layers.Multiply``).

    With masks on every input, masked entries count as 1 in the product and the positions masked in all
    inputs come out as 0 (Keras' rule).

    Args:
        **kwargs: base layer arguments (``name``, ``dtype``...).

    >>> import highlevel as hl
    >>> x1, x2 = hl.ops.full((2, 3), 2.0), hl.ops.full((2, 3), 3.0)
    >>> hl.ops.convert_to_numpy(hl.layers.Multiply()([x1, x2]))[0].tolist()
    [6.0, 6.0, 6.0]
    """

    def _merge_function(self, inputs, masks):
        all_masked = masks is not None and all(m is not None for m in masks)
        output, output_mask = None, None
        for i, x in enumerate(inputs):
            m = None if masks is None or masks[i] is None else self._expanded_mask(masks[i], x)
            if m is not None:
                x = ops.where(m, x, ops.ones_like(x))
                if all_masked:
                    output_mask = m if output_mask is None else ops.logical_or(output_mask, m)
            output = x if output is None else ops.multiply(output, x)
        if all_masked:
            output = ops.where(output_mask, output, ops.zeros_like(output))
        return output


def multiply(inputs, **kwargs):
    """Multiplies a list of tensors element-wise (the functional form of :class:`Multiply`).

    Builds a ``Multiply`` layer and calls it on ``inputs``: ``inputs[0] * inputs[1] * ...``.

    Args:
        inputs: a list of at least two tensors of the same shape (or shapes that broadcast), batch axis first.
        **kwargs: arguments of the layer (``name``, ``dtype``...).

    Returns:
        A tensor of the inputs' broadcast shape and dtype.

    >>> import highlevel as hl
    >>> x1 = hl.ops.convert_to_tensor([[1.0, 2.0]])
    >>> x2 = hl.ops.convert_to_tensor([[3.0, 5.0]])
    >>> hl.ops.convert_to_numpy(hl.layers.multiply([x1, x2])).tolist()
    [[3.0, 10.0]]
    """
    return Multiply(**kwargs)(inputs)
