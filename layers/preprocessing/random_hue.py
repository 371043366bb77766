"""RandomHue: rotates each image's hues by a random amount during training."""

from highlevel import ops

from ._color_base import BaseColorLayer, check_value_range, rescale_range
from ._image_base import config_factor, parse_factor


class RandomHue(BaseColorLayer):
    """Randomly shifts the hue of RGB images during training (``keras.layers.RandomHue``).

    For each image a magnitude ``f`` is drawn uniformly from ``factor``'s range and a direction ``±1`` with
    equal odds; in HSV space (hue in ``[0, 1)``) the hue moves by ``±f / 2`` and wraps around. ``factor = 1``
    allows any shift up to half the color circle. At inference the input passes through.

    Args:
        factor: a number ``f`` in ``[0, 1]`` (the range ``[0, f]``) or a pair in ``[0, 1]``.
        value_range: ``(low, high)``, the range of the pixel values (mapped to ``[0, 1]`` and back).
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        seed: optional int, for reproducible draws.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: RGB images, ``(batch, height, width, 3)`` or ``(height, width, 3)`` (channels last).
        training: shift (True, the default of a direct call) or pass through (False).

    >>> import highlevel as hl
    >>> layer = hl.layers.RandomHue(factor=(1.0, 1.0), value_range=(0, 1))  # half a turn, either way
    >>> x = hl.ops.convert_to_tensor([[[[1.0, 0.0, 0.0]]]])  # red becomes cyan
    >>> [round(v, 3) for v in hl.ops.convert_to_numpy(layer(x, training=True)).ravel().tolist()]
    [0.0, 1.0, 1.0]
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.factor = config_factor(factor)
        self.lower, self.upper = parse_factor(factor, "factor", who, low=0.0, symmetric_low=0.0)
        self.value_range = check_value_range(value_range, who)

    def get_random_transformation(self, images, training=True, seed=None):
        batch = self._batch_size(images)
        coin = self._draw_uniform((batch,), 0.0, 1.0, seed=seed)
        sign = ops.where(ops.greater(coin, 0.5), -1.0, 1.0)
        magnitude = self._draw_uniform((batch,), self.lower, self.upper, seed=seed)
        return {"factor": ops.multiply(ops.multiply(sign, magnitude), 0.5)}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        axis = -1 if self.data_format == "channels_last" else 1
        shift = ops.reshape(ops.cast(transformation["factor"], ops.dtype(images)), (-1, 1, 1, 1))
        x = rescale_range(images, self.value_range, (0.0, 1.0))
        hsv = ops.image.rgb_to_hsv(x, data_format=self.data_format)
        h, s, v = (ops.take(hsv, [i], axis=axis) for i in range(3))
        h = ops.add(h, shift)
        h = ops.where(ops.greater(h, 1.0), ops.subtract(h, 1.0), h)
        h = ops.where(ops.less(h, 0.0), ops.add(h, 1.0), h)
        out = ops.image.hsv_to_rgb(ops.concatenate([h, s, v], axis=axis), data_format=self.data_format)
        return rescale_range(ops.clip(out, 0.0, 1.0), (0.0, 1.0), self.value_range)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": list(self.value_range)})
        return config
