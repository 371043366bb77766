"""RandomColorJitter: random brightness, contrast, saturation and hue changes, one after the other."""

from ._color_base import BaseColorLayer, check_value_range
from ._image_base import config_factor
from .random_brightness import RandomBrightness
from .random_contrast import RandomContrast
from .random_hue import RandomHue
from .random_saturation import RandomSaturation

#: The adjustments in the order they apply: (name, layer class).
_STEPS = (
    ("brightness", RandomBrightness),
    ("contrast", RandomContrast),
    ("saturation", RandomSaturation),
    ("hue", RandomHue),
)


class RandomColorJitter(BaseColorLayer):
    """Randomly changes brightness, contrast, saturation and hue during training (``keras.layers.RandomColorJitter``).

    Each adjustment whose factor is given runs, in the order brightness, contrast, saturation, hue, exactly
    as the layer of that name (:class:`RandomBrightness`, :class:`RandomContrast`, :class:`RandomSaturation`,
    :class:`RandomHue`) with the same ``value_range``; the draws come from this layer's seed. At inference
    the input passes through.

    Args:
        value_range: ``(low, high)``, the range of the pixel values.
        brightness_factor: ``factor`` of the brightness step, or None to skip it.
        contrast_factor: ``factor`` of the contrast step, or None to skip it.
        saturation_factor: ``factor`` of the saturation step, or None to skip it.
        hue_factor: ``factor`` of the hue step, or None to skip it.
        seed: optional int, for reproducible draws.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: RGB images, ``(batch, height, width, 3)`` or ``(height, width, 3)`` (channels last).
        training: adjust (True, the default of a direct call) or pass through (False).

    >>> import highlevel as hl
    >>> layer = hl.layers.RandomColorJitter(value_range=(0, 1), brightness_factor=(0.25, 0.25))
    >>> x = hl.ops.convert_to_tensor([[[[0.5, 0.25, 1.0]]]])
    >>> hl.ops.convert_to_numpy(layer(x, training=True)).ravel().tolist()
    [0.75, 0.5, 1.0]
    """

    # Keras's base class takes `factor` here and keeps it without using it; so does this layer.
    _accepts_base_factor = True

    def __init__(
        self,
        value_range=(0, 255),
        brightness_factor=None,
        contrast_factor=None,
        saturation_factor=None,
        hue_factor=None,
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.value_range = check_value_range(value_range, type(self).__name__)
        self.brightness_factor = config_factor(brightness_factor)
        self.contrast_factor = config_factor(contrast_factor)
        self.saturation_factor = config_factor(saturation_factor)
        self.hue_factor = config_factor(hue_factor)
        # The step layers hold the checked factors; they draw from this layer's generator.
        self._steps = [
            (name, cls(factor, value_range=self.value_range, data_format=self.data_format, seed=self.seed))
            for name, cls in _STEPS
            if (factor := getattr(self, f"{name}_factor")) is not None
        ]

    def get_random_transformation(self, images, training=True, seed=None):
        # Each step's draw depends only on the batch size, so all can be drawn up front.
        seed = self.seed_generator if seed is None else seed
        return {
            name: step.get_random_transformation(images, training=training, seed=seed) for name, step in self._steps
        }

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        for name, step in self._steps:
            images = step.transform_images(images, transformation[name], training=True)
        return images

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "value_range": list(self.value_range),
                "brightness_factor": self.brightness_factor,
                "contrast_factor": self.contrast_factor,
                "saturation_factor": self.saturation_factor,
                "hue_factor": self.hue_factor,
            }
        )
        return config
