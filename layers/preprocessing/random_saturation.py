"""RandomSaturation: scales each image's color saturation by a random factor during training."""

from highlevel import ops

from ._color_base import BaseColorLayer, check_value_range
from ._image_base import config_factor, parse_factor

#: Keeps ``f / (1 - f)`` finite at ``f = 1``.
_EPSILON = 1e-7


class RandomSaturation(BaseColorLayer):
    """Randomly changes the saturation of RGB images during training (``keras.layers.RandomSaturation``).

    For each image ``f`` is drawn uniformly from ``factor``'s range; in HSV space the saturation is
    multiplied by ``f / (1 - f)`` (so ``0`` gives gray, ``0.5`` leaves the image as it is and values near
    ``1`` saturate fully) and clipped to ``[0, 1]``. At inference the input passes through.

    Args:
        factor: a number ``f`` in ``[0, 1]`` (the range ``[0, f]``) or a pair in ``[0, 1]``.
        value_range: ``(low, high)``, the range of the pixel values.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        seed: optional int, for reproducible draws.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: RGB images, ``(batch, height, width, 3)`` or ``(height, width, 3)`` (channels last).
        training: adjust (True, the default of a direct call) or pass through (False).

    >>> import highlevel as hl
    >>> layer = hl.layers.RandomSaturation(factor=(0.0, 0.0), value_range=(0, 1))  # fully desaturates
    >>> x = hl.ops.convert_to_tensor([[[[0.8, 0.4, 0.2]]]])
    >>> [round(v, 3) for v in hl.ops.convert_to_numpy(layer(x, training=True)).ravel().tolist()]
    [0.8, 0.8, 0.8]
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.factor = config_factor(factor)
        self.lower, self.upper = parse_factor(factor, "factor", who, low=0.0, symmetric_low=0.0)
        self.value_range = check_value_range(value_range, who)

    def get_random_transformation(self, images, training=True, seed=None):
        f = self._draw_uniform((self._batch_size(images),), self.lower, self.upper, seed=seed)
        return {"factor": ops.divide(f, ops.add(ops.subtract(1.0, f), _EPSILON))}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        axis = -1 if self.data_format == "channels_last" else 1
        scale = ops.reshape(ops.cast(transformation["factor"], ops.dtype(images)), (-1, 1, 1, 1))
        hsv = ops.image.rgb_to_hsv(images, data_format=self.data_format)
        h, s, v = (ops.take(hsv, [i], axis=axis) for i in range(3))
        s = ops.clip(ops.multiply(s, scale), 0.0, 1.0)
        return ops.image.hsv_to_rgb(ops.concatenate([h, s, v], axis=axis), data_format=self.data_format)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": list(self.value_range)})
        return config
