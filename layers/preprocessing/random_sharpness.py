"""RandomSharpness: blends each image with a smoothed copy, sharpening or blurring it by a random amount."""

from highlevel import ops

from ._color_base import BaseColorLayer, check_value_range
from ._image_base import config_factor, parse_factor

#: The smoothing kernel's weights: the center and each of its eight neighbours (they sum to 1).
_CENTER, _NEIGHBOUR = 5.0 / 13.0, 1.0 / 13.0


class RandomSharpness(BaseColorLayer):
    """Randomly sharpens or blurs images during training (``keras.layers.RandomSharpness``).

    Each image ``x`` is smoothed by a 3x3 kernel (weight 5/13 in the center, 1/13 around it, zero padding
    at the borders) into ``s``, and becomes ``x + (1 - 2 f) * (s - x)``, clipped to ``value_range``, with
    ``f`` drawn uniformly from ``factor``'s range: ``0`` smooths, ``0.5`` leaves the image as it is and
    ``1`` sharpens. At inference the input passes through.

    Args:
        factor: a number ``f`` in ``[0, 1]`` (the range ``[0, f]``) or a pair in ``[0, 1]``.
        value_range: ``(low, high)``, the range of the pixel values; the output is clipped to it.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        seed: optional int, for reproducible draws.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: adjust (True, the default of a direct call) or pass through (False).

    >>> import highlevel as hl
    >>> import numpy as np
    >>> layer = hl.layers.RandomSharpness(factor=(0.5, 0.5))  # f = 0.5: unchanged
    >>> x = np.arange(9, dtype="float32").reshape(1, 3, 3, 1)
    >>> bool(np.allclose(hl.ops.convert_to_numpy(layer(x, training=True)), x))
    True
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.factor = config_factor(factor)
        self.lower, self.upper = parse_factor(factor, "factor", who, low=0.0, symmetric_low=0.0)
        self.value_range = check_value_range(value_range, who)

    def get_random_transformation(self, images, training=True, seed=None):
        return {"factor": self._draw_uniform((self._batch_size(images),), self.lower, self.upper, seed=seed)}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        dtype = ops.dtype(images)
        channels = ops.shape(images)[-1 if self.data_format == "channels_last" else 1]
        kernel = ops.full((3, 3), _NEIGHBOUR, dtype=dtype)
        kernel = ops.add(kernel, ops.multiply(ops.pad(ops.ones((1, 1), dtype=dtype), 1), _CENTER - _NEIGHBOUR))
        kernel = ops.tile(ops.reshape(kernel, (3, 3, 1, 1)), (1, 1, channels, 1))
        smoothed = ops.depthwise_conv(images, kernel, strides=1, padding="same", data_format=self.data_format)
        factor = ops.cast(transformation["factor"], dtype)
        weight = ops.reshape(ops.subtract(1.0, ops.multiply(factor, 2.0)), (-1, 1, 1, 1))
        out = ops.add(images, ops.multiply(weight, ops.subtract(smoothed, images)))
        return ops.clip(out, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": list(self.value_range)})
        return config
