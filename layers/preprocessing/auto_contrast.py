"""AutoContrast: stretches each image's channels to fill the whole value range."""

from highlevel import ops

from ._color_base import BaseColorLayer, check_value_range, rescale_range


class AutoContrast(BaseColorLayer):
    """Stretches each channel of each image to the full value range (``keras.layers.AutoContrast``).

    Per image and channel, the darkest pixel becomes ``low`` and the brightest ``high`` (with
    ``value_range = (low, high)``), linearly in between. A constant channel (nothing to stretch) is left as
    it is. Deterministic: it acts in training and at inference alike, as in Keras.

    Args:
        value_range: ``(low, high)``, the range of the pixel values.
        **kwargs: base layer arguments (``name``, ``dtype``, ``data_format``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.

    >>> import highlevel as hl
    >>> layer = hl.layers.AutoContrast(value_range=(0, 1))
    >>> x = hl.ops.convert_to_tensor([[[[0.25], [0.5], [0.75]]]])
    >>> hl.ops.convert_to_numpy(layer(x)).ravel().tolist()
    [0.0, 0.5, 1.0]
    """

    def __init__(self, value_range=(0, 255), **kwargs):
        super().__init__(**kwargs)
        self.seed_generator = None  # nothing is drawn
        self.value_range = check_value_range(value_range, type(self).__name__)

    def get_random_transformation(self, images, training=True, seed=None):
        return None

    def transform_images(self, images, transformation=None, training=True):
        x = rescale_range(images, self.value_range, (0.0, 255.0))
        axes = (1, 2) if self.data_format == "channels_last" else (2, 3)
        low = ops.min(x, axis=axes, keepdims=True)
        high = ops.max(x, axis=axes, keepdims=True)
        spread = ops.subtract(high, low)
        flat = ops.equal(spread, 0.0)
        scale = ops.divide(255.0, ops.where(flat, 1.0, spread))
        y = ops.clip(ops.multiply(ops.subtract(x, low), scale), 0.0, 255.0)
        y = rescale_range(y, (0.0, 255.0), self.value_range)
        return ops.where(flat, images, y)

    def call(self, inputs, training=True):
        # Deterministic: the same in both modes.
        return super().call(inputs, training=True)

    def get_config(self):
        config = super().get_config()
        config.pop("seed", None)
        config.update({"value_range": list(self.value_range)})
        return config
