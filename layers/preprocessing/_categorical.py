"""Shared helpers of the categorical and text preprocessing layers.

* :func:`encode_categorical` turns integer indices (a tensor) into ``int`` / ``one_hot`` / ``multi_hot`` /
  ``count`` outputs with ``hl.ops`` only, as Keras' ``numerical_utils.encode_categorical_inputs`` does.
* :func:`host_array` brings any input (numpy array, list, tensor of any engine) to the host as numpy,
  keeping strings as a ``str`` array: JAX and torch have no string tensors, so string processing runs
  on the host and only the integer/float results become tensors of the current backend.
* :class:`HostInputs` is a mixin for layers that take strings: it keeps string inputs as numpy instead
  of letting the base layer convert them to tensors.

>>> import numpy as np
>>> host_array([b"a", "b"]).tolist()
['a', 'b']
>>> validate_output_mode("multi_hot", ("int", "multi_hot"), "CategoryEncoding")
"""

import numpy as np

from highlevel import ops
from highlevel.host_text import is_text
from highlevel.keras_tensor import KerasTensor


def validate_output_mode(output_mode, allowed, layer_name):
    """Raises a Keras-style error when ``output_mode`` is not one of ``allowed``."""
    if output_mode not in allowed:
        raise ValueError(
            f"Invalid value for argument `output_mode` of {layer_name}. Expected one of "
            f"{tuple(allowed)}. Received: output_mode={output_mode!r}"
        )


# Text inputs are recognised once, for the Layer base and these layers alike.
is_string_array = is_text


def _decode(v, encoding="utf-8"):
    return v.decode(encoding) if isinstance(v, bytes) else str(v)


def host_array(x, encoding="utf-8"):
    """``x`` as a numpy array on the host; text (str/bytes/object arrays) becomes a ``str`` array."""
    if isinstance(x, KerasTensor):
        raise TypeError("host_array() needs concrete data, not a symbolic KerasTensor.")
    if ops.is_tensor(x):
        x = np.asarray(ops.convert_to_numpy(x))
    elif hasattr(x, "numpy") and not isinstance(x, np.ndarray):  # a tensor of another engine (tf, torch)
        if hasattr(x, "detach"):
            x = x.detach().cpu()
        x = x.numpy()
    arr = np.asarray(x) if not isinstance(x, np.ndarray) else x
    if arr.dtype.kind == "S" or (arr.dtype.kind == "O" and arr.size and is_string_array(arr)):
        flat = [_decode(v, encoding) for v in arr.reshape(-1).tolist()]
        arr = np.asarray(flat, dtype=str).reshape(arr.shape) if flat else np.zeros(arr.shape, dtype=str)
    return arr


def one_hot_squeeze(indices):
    """Keras' one_hot rule: a scalar becomes one sample and a trailing axis of size 1 is encoded in place."""
    shape = tuple(ops.shape(indices))
    if len(shape) == 0:
        return ops.reshape(indices, (1,))
    if len(shape) > 1 and shape[-1] == 1:
        return ops.reshape(indices, shape[:-1])
    return indices


def encode_categorical(indices, output_mode, depth, dtype, count_weights=None):
    """Encodes integer ``indices`` (a tensor) as Keras does.

    ``int`` casts to ``dtype``; ``one_hot`` appends an axis of size ``depth`` (a trailing axis of size 1 is
    replaced); ``multi_hot`` and ``count`` reduce the last axis (the sample's tokens) into ``depth`` bins.
    Indices outside ``[0, depth)`` contribute nothing.

    Args:
        indices: an integer tensor.
        output_mode: ``"int"``, ``"one_hot"``, ``"multi_hot"`` or ``"count"``.
        depth: the number of bins.
        dtype: the output dtype (``count`` with ``count_weights`` uses their dtype, as Keras).
        count_weights: optional weights of ``indices``' shape, summed instead of counting (``count`` only).
    """
    if output_mode == "int":
        return ops.cast(indices, dtype)
    if output_mode == "one_hot":
        return ops.one_hot(one_hot_squeeze(indices), depth, dtype=dtype)
    if len(ops.shape(indices)) == 0:
        indices = ops.reshape(indices, (1,))
    if count_weights is not None and output_mode == "count":
        weights = ops.convert_to_tensor(count_weights)
        encoded = ops.one_hot(indices, depth, dtype=ops.dtype(weights))
        return ops.sum(ops.multiply(encoded, ops.expand_dims(weights, -1)), axis=-2)
    encoded = ops.one_hot(indices, depth, dtype=dtype)
    if output_mode == "multi_hot":
        return ops.max(encoded, axis=-2)
    return ops.sum(encoded, axis=-2)


def encoded_shape(input_shape, output_mode, depth):
    """The output shape of :func:`encode_categorical` for inputs of ``input_shape``."""
    input_shape = tuple(input_shape)
    if output_mode == "int":
        return input_shape
    if len(input_shape) == 0:
        return (1, depth) if output_mode == "one_hot" else (depth,)
    if output_mode == "one_hot":
        if len(input_shape) > 1 and input_shape[-1] == 1:
            return input_shape[:-1] + (depth,)
        return input_shape + (depth,)
    return input_shape[:-1] + (depth,)


class HostInputs:
    """Mixin for layers whose inputs may be text: text inputs stay numpy ``str`` arrays (engines other
    than TensorFlow have no string tensors); other inputs are converted as usual."""

    _input_encoding = "utf-8"
    accepts_text = True

    def _convert_inputs(self, inputs):
        if is_string_array(inputs) or (hasattr(inputs, "dtype") and getattr(inputs.dtype, "name", "") == "string"):
            return host_array(inputs, self._input_encoding)
        return super()._convert_inputs(inputs)


def batches_of(data, steps=None):
    """The batches of adapt() ``data`` as host numpy arrays: an array/tensor/list of tokens is one batch;
    an iterable (generator, list of arrays, ``tf.data.Dataset``) yields its elements (``x`` of ``(x, y)``)."""
    if (
        isinstance(data, (np.ndarray, str, bytes))
        or ops.is_tensor(data)
        or (hasattr(data, "shape") and hasattr(data, "dtype") and not hasattr(data, "__next__"))
    ):
        yield host_array(data)
        return
    if isinstance(data, (list, tuple)) and (not data or not hasattr(data[0], "shape")):
        yield host_array(data)
        return
    if not hasattr(data, "__iter__"):
        raise TypeError(
            f"adapt() does not support data of type {type(data).__name__}. Pass a numpy array, a "
            "tensor, a list, or an iterable of batches (generator, tf.data.Dataset)."
        )
    for i, batch in enumerate(data):
        if steps is not None and i >= steps:
            break
        if isinstance(batch, tuple):
            batch = batch[0]
        yield host_array(batch)
