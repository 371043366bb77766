"""Reshapes every axis but the batch axis to a target shape."""

import math

from highlevel import ops
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer


def _resolve(input_rest, target_shape):
    """The target shape with its -1 filled in from the input's non-batch sizes (None when unknown)."""
    if any(d is None for d in input_rest):
        return tuple(None if d == -1 else d for d in target_shape)
    total = math.prod(input_rest)
    known = math.prod(d for d in target_shape if d != -1)
    if -1 in target_shape:
        if known == 0 or total % known:
            raise ValueError(
                f"The total size of the tensor must be unchanged. Received: input_shape={tuple(input_rest)} "
                f"(without the batch axis), target_shape={target_shape}"
            )
        return tuple(total // known if d == -1 else d for d in target_shape)
    if known != total:
        raise ValueError(
            f"The total size of the tensor must be unchanged. Received: input_shape={tuple(input_rest)} "
            f"(without the batch axis, {total} elements), target_shape={target_shape} ({known} elements)"
        )
    return tuple(target_shape)


class Reshape(Layer):
    """Reshapes an input to ``(batch,) + target_shape`` (``keras.layers.Reshape``).

    Args:
        target_shape: the output shape without the batch axis, a tuple of positive ints; at most one entry
            may be -1, which is inferred from the input's size.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Raises:
        ValueError: if ``target_shape`` holds anything but positive ints and at most one ``-1``.

    >>> import highlevel as hl
    >>> hl.ops.shape(hl.layers.Reshape((3, -1))(hl.ops.ones((2, 12))))
    (2, 3, 4)
    >>> hl.layers.Reshape((-1, 2)).compute_output_shape((None, 3, 4))
    (None, 6, 2)
    """

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        if isinstance(target_shape, int) and not isinstance(target_shape, bool):
            target_shape = (target_shape,)
        if not isinstance(target_shape, (list, tuple)) or not all(
            isinstance(d, int) and not isinstance(d, bool) and (d > 0 or d == -1) for d in target_shape
        ):
            raise ValueError(
                "`target_shape` must be a tuple of positive ints, with at most one -1 for a size to infer. "
                f"Received: target_shape={target_shape!r}"
            )
        target_shape = tuple(target_shape)
        if target_shape.count(-1) > 1:
            raise ValueError(
                "There must be at most one unknown dimension (-1) in `target_shape`. "
                f"Received: target_shape={target_shape}"
            )
        self.target_shape = target_shape
        self.built = True

    def call(self, inputs):
        shape = tuple(ops.shape(inputs))
        resolved = _resolve(shape[1:], self.target_shape)
        resolved = tuple(-1 if d is None else d for d in resolved)
        if -1 not in resolved and math.prod(resolved):
            # The batch size follows from the rest: -1 keeps it open in a traced or exported program (a size read
            # from the shape would be a constant there).
            return ops.reshape(inputs, (-1,) + resolved)
        batch = shape[0] if shape[0] is not None else -1
        if batch == -1 and -1 in resolved:
            raise ValueError(
                f"Layer '{self.name}' cannot reshape an input of shape {shape}: the batch size and a target "
                "size are both unknown."
            )
        return ops.reshape(inputs, (batch,) + resolved)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        return (input_shape[0],) + _resolve(input_shape[1:], self.target_shape)

    def compute_output_spec(self, inputs):
        return KerasTensor(self.compute_output_shape(inputs.shape), inputs.dtype)

    def get_config(self):
        config = super().get_config()
        config["target_shape"] = self.target_shape
        return config
