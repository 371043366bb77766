"""Solarization: inverts the pixels above a random threshold, after adding a random offset."""

from highlevel import ops

from ._color_base import BaseColorLayer, check_value_range, rescale_range
from ._image_base import config_factor, parse_factor


class Solarization(BaseColorLayer):
    """Solarizes images during training (``keras.layers.Solarization``).

    Working on the ``[0, 255]`` scale, each image gets an offset ``a`` and a threshold ``t``; every pixel
    becomes ``y = clip(x + a, 0, 255)`` and then ``255 - y`` where ``y >= t`` (``y`` itself below ``t``).
    ``a / 255`` is drawn uniformly from ``addition_factor``'s range and ``t / 255`` from
    ``threshold_factor``'s. With the defaults (``a = t = 0``) every image is inverted. At inference the
    input passes through.

    Args:
        addition_factor: a number ``f`` in ``[0, 1]`` (the range ``[0, f]``) or a pair in ``[0, 1]``.
        threshold_factor: the same, for the threshold.
        value_range: ``(low, high)``, the range of the pixel values (mapped to ``[0, 255]`` and back).
        seed: optional int, for reproducible draws.
        **kwargs: base layer arguments (``name``, ``dtype``, ``data_format``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: solarize (True, the default of a direct call) or pass through (False).

    >>> import highlevel as hl
    >>> layer = hl.layers.Solarization(threshold_factor=(0.5, 0.5), value_range=(0, 1))
    >>> x = hl.ops.convert_to_tensor([[[[0.2], [0.8]]]])
    >>> [round(v, 3) for v in hl.ops.convert_to_numpy(layer(x, training=True)).ravel().tolist()]
    [0.2, 0.2]
    """

    def __init__(self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        who = type(self).__name__
        self.addition_factor = config_factor(addition_factor)
        self.threshold_factor = config_factor(threshold_factor)
        self._addition = parse_factor(addition_factor, "addition_factor", who, low=0.0, symmetric_low=0.0)
        self._threshold = parse_factor(threshold_factor, "threshold_factor", who, low=0.0, symmetric_low=0.0)
        self.value_range = check_value_range(value_range, who)

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        shape = (self._batch_size(images), 1, 1, 1)
        dtype = self.compute_dtype
        return {
            "additions": self._draw_uniform(shape, self._addition[0] * 255, self._addition[1] * 255, seed, dtype),
            "thresholds": self._draw_uniform(shape, self._threshold[0] * 255, self._threshold[1] * 255, seed, dtype),
        }

    def transform_images(self, images, transformation, training=True):
        if not training or transformation is None:
            return images
        dtype = ops.dtype(images)
        x = rescale_range(images, self.value_range, (0.0, 255.0))
        y = ops.clip(ops.add(x, ops.cast(transformation["additions"], dtype)), 0.0, 255.0)
        y = ops.where(ops.less(y, ops.cast(transformation["thresholds"], dtype)), y, ops.subtract(255.0, y))
        return rescale_range(y, (0.0, 255.0), self.value_range)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "addition_factor": self.addition_factor,
                "threshold_factor": self.threshold_factor,
                "value_range": list(self.value_range),
            }
        )
        return config
