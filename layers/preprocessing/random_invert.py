"""RandomInvert: inverts the pixel values of some images during training."""

from highlevel import ops

from ._color_base import BaseColorLayer, check_value_range
from ._image_base import config_factor, parse_factor


class RandomInvert(BaseColorLayer):
    """Randomly inverts images during training (``keras.layers.RandomInvert``).

    For each image a probability ``p`` is drawn uniformly from ``factor``'s range, and with probability
    ``p`` every pixel ``x`` becomes ``low + high - x`` (with ``value_range = (low, high)``). At inference
    the input passes through.

    Args:
        factor: a number ``f`` in ``[0, 1]`` (``p`` in ``[0, f]``) or a pair in ``[0, 1]``.
        value_range: ``(low, high)``, the range of the pixel values.
        seed: optional int, for reproducible draws.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: invert (True, the default of a direct call) or pass through (False).

    >>> import highlevel as hl
    >>> layer = hl.layers.RandomInvert(factor=(1.0, 1.0))  # always inverts
    >>> x = hl.ops.convert_to_tensor([[[[0.0], [55.0]]]])
    >>> hl.ops.convert_to_numpy(layer(x, training=True)).ravel().tolist()
    [255.0, 200.0]
    """

    def __init__(self, factor=1.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = config_factor(factor)
        self.lower, self.upper = parse_factor(factor, "factor", type(self).__name__, low=0.0, symmetric_low=0.0)
        self.value_range = check_value_range(value_range, type(self).__name__)

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        batch = self._batch_size(images)
        probability = self._draw_uniform((batch,), self.lower, self.upper, seed=seed)
        threshold = self._draw_uniform((batch,), 0.0, 1.0, seed=seed)
        return {"apply_inversion": ops.less(threshold, probability)}

    def transform_images(self, images, transformation, training=True):
        if not training or transformation is None:
            return images
        apply = ops.reshape(transformation["apply_inversion"], (-1, 1, 1, 1))
        inverted = ops.subtract(self.value_range[0] + self.value_range[1], images)
        return ops.where(apply, inverted, images)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": list(self.value_range)})
        return config
