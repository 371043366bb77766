"""RandomColorDegeneration: blends each image with its grayscale version by a random amount."""

from highlevel import ops

from ._color_base import BaseColorLayer, check_value_range
from ._image_base import config_factor, parse_factor


class RandomColorDegeneration(BaseColorLayer):
    """Randomly fades the colors of RGB images during training (``keras.layers.RandomColorDegeneration``).

    Each image ``x`` becomes ``x + f * (gray(x) - x)``, clipped to ``value_range``, with ``f`` drawn
    uniformly from ``factor``'s range (``0``: unchanged, ``1``: grayscale). At inference the input passes
    through.

    Args:
        factor: a number ``f`` in ``[-1, 1]`` (the range ``[-|f|, |f|]``) or a pair in ``[-1, 1]``.
        value_range: ``(low, high)``, the range of the pixel values; the output is clipped to it.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        seed: optional int, for reproducible draws.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: RGB images, ``(batch, height, width, 3)`` or ``(height, width, 3)`` (channels last).
        training: fade (True, the default of a direct call) or pass through (False).

    >>> import highlevel as hl
    >>> layer = hl.layers.RandomColorDegeneration(factor=(0.5, 0.5))
    >>> x = hl.ops.convert_to_tensor([[[[255.0, 0.0, 0.0]]]])
    >>> [round(v, 2) for v in hl.ops.convert_to_numpy(layer(x, training=True)).ravel().tolist()]
    [165.61, 38.11, 38.11]
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.factor = config_factor(factor)
        self.lower, self.upper = parse_factor(factor, "factor", who)
        self.value_range = check_value_range(value_range, who)

    def get_random_transformation(self, images, training=True, seed=None):
        return {"factor": self._draw_uniform((self._batch_size(images), 1, 1, 1), self.lower, self.upper, seed=seed)}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        f = ops.cast(transformation["factor"], ops.dtype(images))
        gray = ops.cast(ops.image.rgb_to_grayscale(images, data_format=self.data_format), ops.dtype(images))
        out = ops.add(images, ops.multiply(f, ops.subtract(gray, images)))
        return ops.clip(out, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": list(self.value_range)})
        return config
