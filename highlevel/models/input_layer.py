"""``hl.Input`` and ``InputLayer``: where a functional graph starts.

>>> import highlevel as hl
>>> x = hl.Input(shape=(4,), name="features")
>>> x.shape, x.dtype
((None, 4), 'float32')
"""

from highlevel.backends.contract import dtypes as _dtypes

from .. import sparse_outputs
from ..host_text import is_string_dtype
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
        sparse: whether the input is a sparse tensor (only on engines that have them; default None: dense).
        ragged: accepted for Keras compatibility; True is refused (highlevel has no ragged tensors: pad and mask
            instead).
        optional: accepted for Keras compatibility; True is refused (a functional model takes every input).

    Raises:
        ValueError: if both ``shape`` and ``batch_shape`` are given, neither is (without ``input_tensor``), a size is
            not a non-negative int or None, or ``ragged``/``optional`` is True.
        TypeError: if ``input_tensor`` is not a KerasTensor.

    >>> import highlevel as hl
    >>> layer = hl.layers.InputLayer(shape=(3,), name="features")
    >>> layer.batch_shape, layer.output.shape
    ((None, 3), (None, 3))
    """

    def __init__(
        self,
        shape=None,
        batch_size=None,
        dtype=None,
        sparse=None,
        ragged=None,
        batch_shape=None,
        input_tensor=None,
        optional=False,
        name=None,
        **kwargs,
    ):
        _refuse_unsupported(ragged, optional)
        if sparse:
            sparse_outputs.check_supported("Input", "sparse")
        text = is_string_dtype(dtype)  # text stays on the host; the layer itself computes nothing
        super().__init__(name=name, dtype=None if text else dtype, **kwargs)
        if shape is not None and batch_shape is not None:
            raise ValueError("Pass either `shape` or `batch_shape` to InputLayer, not both.")
        if input_tensor is not None:
            if not isinstance(input_tensor, KerasTensor):
                raise TypeError(f"input_tensor must be a KerasTensor (from hl.Input); received {input_tensor!r}.")
            batch_shape = input_tensor.shape
            dtype = input_tensor.dtype
            sparse = input_tensor.sparse
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
        self.sparse = bool(sparse)
        self._dtype_name = "string" if is_string_dtype(dtype) else _dtypes.standardize_dtype(dtype)
        self.built = True
        tensor = (
            input_tensor
            if input_tensor is not None
            else KerasTensor(self.batch_shape, self._dtype_name, sparse=self.sparse, name=self.name)
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
        return {"batch_shape": self.batch_shape, "dtype": self._dtype_name, "sparse": self.sparse, "name": self.name}


def _refuse_unsupported(ragged, optional):
    # Keras's arguments, so that code passing their default values runs; their other values need tensors
    # highlevel does not have.
    if ragged:
        raise ValueError(
            "Input(ragged=True): highlevel has no ragged tensors. Pad the sequences to one length "
            "(hl.utils.pad_sequences) and use a mask (Embedding(mask_zero=True) or a Masking layer) instead."
        )
    if optional:
        raise ValueError(
            "Input(optional=True): highlevel's functional models take every input on each call; pass a "
            "placeholder value (e.g. zeros) for an input you do not have, or write a subclassed Model whose "
            "call() takes None."
        )


def Input(
    shape=None,
    batch_size=None,
    dtype=None,
    sparse=None,
    ragged=None,
    batch_shape=None,
    name=None,
    tensor=None,
    optional=False,
):
    """Creates a symbolic input tensor, the starting point of a functional model (``keras.Input``).

    The tensor holds no values: it records a shape and dtype, and layers called on it record the graph that
    ``hl.Model(inputs, outputs)`` turns into a model.

    Args:
        shape: the shape of one sample, without the batch axis, e.g. ``(28, 28, 1)``; None entries are sizes
            known only at run time (a sequence length).
        batch_size: a fixed batch size, or None (default) for any batch size.
        dtype: the dtype of the data the model will receive (default floatx).
        sparse: whether the model takes sparse data (``tf.SparseTensor``; TensorFlow backend only, as in Keras);
            the layers compute on its dense values.
        ragged: Keras's argument; only None/False (no ragged tensors here).
        batch_shape: the full shape including the batch axis, instead of ``shape`` and ``batch_size``.
        name: a name, unique within the model (default: generated, ``"input_layer"``, ``"input_layer_1"``, ...).
        tensor: an existing symbolic tensor to use as this input, instead of creating one.
        optional: Keras's argument; only False (every input of a functional model is required here).

    Returns:
        A :class:`KerasTensor` of shape ``(batch_size, *shape)``.

    Raises:
        ValueError: ``ragged`` or ``optional`` is set, or the shape or dtype is invalid.

    >>> import highlevel as hl
    >>> x = hl.Input((28, 28, 1), name="image")
    >>> x.shape, x.dtype, x.name
    ((None, 28, 28, 1), 'float32', 'image')
    >>> hl.Input(batch_shape=(8, 3), dtype="int32").shape
    (8, 3)
    """
    _refuse_unsupported(ragged, optional)
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
