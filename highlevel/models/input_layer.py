"""``hl.Input`` and ``InputLayer``: where a functional graph starts.

>>> import highlevel as hl
>>> x = hl.Input(shape=(4,), name="features")
>>> x.shape, x.dtype
((None, 4), 'float32')
"""

from highlevel.backends.contract import dtypes as _dtypes

from ..keras_tensor import KerasTensor
from ..layer import Layer
from ..node import Node


class InputLayer(Layer):
    """The layer behind ``hl.Input``: holds the symbolic input tensor of a model.

    Args:
        shape: the input shape without the batch axis (a tuple; None for unknown sizes).
        batch_size: a fixed batch size, or None.
        dtype: the input dtype (default floatx).
        name: the layer's (and the input's) name.
        batch_shape: the full shape including the batch axis, instead of ``shape`` and ``batch_size``.
        input_tensor: an existing KerasTensor to wrap instead of creating one.
    """

    def __init__(
        self,
        shape=None,
        batch_size=None,
        dtype=None,
        sparse=None,
        batch_shape=None,
        input_tensor=None,
        name=None,
        **kwargs,
    ):
        super().__init__(name=name, dtype=dtype, **kwargs)
        if shape is not None and batch_shape is not None:
            raise ValueError("Pass either `shape` or `batch_shape` to InputLayer, not both.")
        if input_tensor is not None:
            if not isinstance(input_tensor, KerasTensor):
                raise TypeError(f"input_tensor must be a KerasTensor (from hl.Input); received {input_tensor!r}.")
            batch_shape = input_tensor.shape
            dtype = input_tensor.dtype
        elif batch_shape is None:
            if shape is None:
                raise ValueError(
                    "InputLayer needs `shape` (the input shape without the batch axis), e.g. hl.Input(shape=(784,))."
                )
            if isinstance(shape, int):
                shape = (shape,)
            batch_shape = (batch_size,) + tuple(shape)
        for d in batch_shape:
            if d is not None and (not isinstance(d, int) or isinstance(d, bool) or d < 0):
                raise ValueError(f"Input shape entries must be non-negative ints or None; received {batch_shape}.")
        self.batch_shape = tuple(batch_shape)
        self._dtype_name = _dtypes.standardize_dtype(dtype)
        self.built = True
        tensor = (
            input_tensor
            if input_tensor is not None
            else KerasTensor(self.batch_shape, self._dtype_name, name=self.name)
        )
        Node(self, (), {}, tensor)
        self.output_tensor = tensor

    @property
    def dtype(self):
        return self._dtype_name

    def call(self, inputs=None):
        return inputs

    def __call__(self, *args, **kwargs):
        raise TypeError(f"InputLayer '{self.name}' is not called: use hl.Input(...) to get its tensor.")

    def get_config(self):
        return {"batch_shape": self.batch_shape, "dtype": self._dtype_name, "name": self.name}


def Input(shape=None, batch_size=None, dtype=None, sparse=None, batch_shape=None, name=None, tensor=None):
    """A symbolic input of a functional model (``keras.Input``).

    Args:
        shape: the shape without the batch axis, e.g. ``(28, 28, 1)``.
        batch_size: a fixed batch size, or None.
        dtype: the dtype of the data the model will receive (default floatx).
        batch_shape: the full shape including the batch axis, instead of ``shape``.
        name: a name, unique within the model.

    Returns:
        A :class:`KerasTensor`.
    """
    layer = InputLayer(
        shape=shape,
        batch_size=batch_size,
        dtype=dtype,
        sparse=sparse,
        batch_shape=batch_shape,
        input_tensor=tensor,
        name=name,
    )
    return layer.output_tensor
