"""RandomBrightness: adds one random offset to all pixels of each image during training."""

from highlevel import ops

from ._color_base import BaseColorLayer, check_value_range
from ._image_base import config_factor, parse_factor


class RandomBrightness(BaseColorLayer):
    """Randomly brightens or darkens images during training (``keras.layers.RandomBrightness``).

    Each image gets one offset ``d * (high - low)`` added to every pixel and channel, with ``d`` drawn
    uniformly from ``factor``'s range, and the result is clipped to ``value_range = (low, high)``. At
    inference the input passes through (cast to the compute dtype).

    Args:
        factor: a number ``f`` in ``[-1, 1]`` (``d`` in ``[-|f|, |f|]``) or a pair ``(lower, upper)`` in
            ``[-1, 1]``: the offset as a fraction of the value range.
        value_range: ``(low, high)``, the range of the pixel values; the output is clipped to it.
        seed: optional int, for reproducible draws.
        **kwargs: base layer arguments (``name``, ``dtype``, ``data_format``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: adjust (True, the default of a direct call) or pass through (False, as in ``predict``).

    >>> import highlevel as hl
    >>> layer = hl.layers.RandomBrightness((0.1, 0.1), value_range=(0, 1))  # always +0.1
    >>> x = hl.ops.convert_to_tensor([[[[0.2], [0.95]]]])
    >>> [round(v, 3) for v in hl.ops.convert_to_numpy(layer(x, training=True)).ravel().tolist()]
    [0.3, 1.0]
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = config_factor(factor)
        self.lower, self.upper = parse_factor(factor, "factor", type(self).__name__)
        self.value_range = check_value_range(value_range, type(self).__name__)

    def get_random_transformation(self, images, training=True, seed=None):
        shape = (self._batch_size(images), 1, 1, 1)
        if not training:
            return {"rgb_delta": ops.zeros(shape)}
        delta = self._draw_uniform(shape, self.lower, self.upper, seed=seed)
        return {"rgb_delta": ops.multiply(delta, self.value_range[1] - self.value_range[0])}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = ops.add(images, ops.cast(transformation["rgb_delta"], ops.dtype(images)))
        return ops.clip(images, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": list(self.value_range)})
        return config
