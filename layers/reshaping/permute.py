"""Permutes the non-batch axes of the input."""

from highlevel import ops
from highlevel.input_spec import InputSpec
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer


class Permute(Layer):
    """Permutes the axes of the input after the batch axis (``keras.layers.Permute``).

    Args:
        dims: a permutation of ``1..rank-1`` (1-based: axis 1 is the first non-batch axis); e.g.
            ``(2, 1)`` swaps the two non-batch axes of a rank-3 input.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: rank ``len(dims) + 1``. Output shape: ``(batch, *(input_shape[d] for d in dims))``.

    Raises:
        ValueError: if ``dims`` is not a tuple of ints that permutes ``1..n``.

    >>> import highlevel as hl
    >>> hl.ops.shape(hl.layers.Permute((2, 1))(hl.ops.ones((5, 10, 64))))
    (5, 64, 10)
    """

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(dims, (list, tuple)) or not all(isinstance(d, int) and not isinstance(d, bool) for d in dims):
            raise ValueError(f"`dims` must be a tuple of ints, a permutation of 1..n. Received: dims={dims!r}")
        if sorted(dims) != list(range(1, len(dims) + 1)):
            raise ValueError(
                "Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` must be "
                f"consecutive and start from 1 (axis 0 is the batch axis). Received dims={tuple(dims)}"
            )
        self.dims = tuple(dims)
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)
        self.built = True

    def call(self, inputs):
        return ops.transpose(inputs, (0,) + self.dims)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        return (input_shape[0],) + tuple(input_shape[d] for d in self.dims)

    def compute_output_spec(self, inputs):
        return KerasTensor(self.compute_output_shape(inputs.shape), inputs.dtype)

    def get_config(self):
        config = super().get_config()
        config["dims"] = self.dims
        return config
