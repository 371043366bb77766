"""Rescaling: ``inputs * scale + offset`` (e.g. pixel values from [0, 255] to [0, 1])."""

import numbers

import numpy as np

from highlevel import config as _config
from highlevel import ops
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer


def _check_factor(value, name):
    """A Python float, or a list (possibly nested) for a per-channel factor; anything else is an error."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value)
    try:
        array = np.asarray(value, dtype="float64")
    except (TypeError, ValueError):
        array = None
    if array is None or array.dtype.kind != "f" or not np.all(np.isfinite(array)):
        raise ValueError(
            f"Invalid value for argument `{name}` of Rescaling: expected a float or a list/array of floats "
            f"(e.g. one per channel). Received: {name}={value!r}"
        )
    return float(array) if array.ndim == 0 else array.tolist()


def _channels_first():
    getter = getattr(_config, "image_data_format", None)
    return callable(getter) and getter() == "channels_first"


class Rescaling(Layer):
    """Multiplies the inputs by ``scale`` and adds ``offset`` (``keras.layers.Rescaling``).

    Integer inputs are cast to the layer's float dtype first. ``scale`` and ``offset`` may be floats or
    per-channel lists (broadcast against the last axis; under a ``channels_first`` image data format a
    per-channel factor is broadcast against the channels axis of an image, as in Keras).

    Args:
        scale: float or list of floats, the multiplier (``1 / 255`` maps [0, 255] to [0, 1]).
        offset: float or list of floats, added after scaling (with ``scale=1 / 127.5, offset=-1`` the range
            [0, 255] maps to [-1, 1]).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any. Output shape: the input's shape.

    >>> import highlevel as hl
    >>> layer = hl.layers.Rescaling(scale=1 / 127.5, offset=-1.0)
    >>> hl.ops.convert_to_numpy(layer(hl.ops.convert_to_tensor([0, 255]))).tolist()
    [-1.0, 1.0]
    """

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale = _check_factor(scale, "scale")
        self.offset = _check_factor(offset, "offset")
        self.supports_masking = True
        self.built = True

    def _factor(self, value, dtype):
        factor = ops.convert_to_tensor(value, dtype=dtype)
        rank = ops.ndim(factor)
        if 0 < rank < 3 and _channels_first():
            factor = ops.reshape(factor, tuple(ops.shape(factor)) + (1,) * (3 - rank))
        return factor

    def call(self, inputs):
        dtype = self.compute_dtype
        x = ops.cast(inputs, dtype)
        return ops.add(ops.multiply(x, self._factor(self.scale, dtype)), self._factor(self.offset, dtype))

    def compute_output_spec(self, inputs, *args, **kwargs):
        return KerasTensor(tuple(inputs.shape), self.compute_dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"scale": self.scale, "offset": self.offset})
        return config
