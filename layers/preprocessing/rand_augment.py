"""RandAugment: a few operations picked at random from a fixed list, applied one after the other."""

import numbers

from highlevel import ops, random

from . import _augment_policy as policy
from ._color_base import BaseColorLayer, check_value_range
from ._image_base import INTERPOLATIONS, check_choice, config_factor, parse_factor

#: The candidate operations, in the order of their indices.
OPERATIONS = (
    "random_shear",
    "random_translation",
    "random_rotation",
    "random_brightness",
    "random_color_degeneration",
    "random_contrast",
    "random_sharpness",
    "random_posterization",
    "solarization",
    "auto_contrast",
    "equalization",
)


class RandAugment(BaseColorLayer):
    """Applies ``num_ops`` randomly chosen augmentations in training (``keras.layers.RandAugment``, after
    Cubuk et al. 2019, "RandAugment").

    Each call picks ``num_ops`` operations (with repetition) from shear, translation, rotation, brightness,
    color degeneration, contrast, sharpness, posterization, solarization, auto-contrast and equalization, the
    same for the whole batch, and applies them in turn. Every operation is the layer of that name set to the
    strength ``factor`` (a range ``(0, factor)`` for a number), and draws its amounts per image as that layer
    does, once per call: an operation picked twice applies the same amounts twice, as in Keras. At inference the
    input passes through (cast to the compute dtype).

    :meth:`get_random_transformation` returns ``{"layer_idxes": (num_ops,) int, "transforms": {name: drawn
    transformation}}`` (the layout of Keras's) and :meth:`transform_images` applies a given one.

    Args:
        value_range: ``(low, high)``, the range of the pixel values.
        num_ops: how many operations each call applies, an integer >= 0.
        factor: the strength, a number in ``[0, 1]`` or a pair in ``[0, 1]``.
        interpolation: ``"bilinear"`` (default) or ``"nearest"``, for the geometric operations.
        seed: optional int, for reproducible draws.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: augment (True, the default of a direct call) or pass through (False).

    Raises:
        ValueError: if ``num_ops`` is not an int >= 0 (or another argument is out of its range).

    >>> import highlevel as hl
    >>> x = hl.random.uniform((2, 8, 8, 3), maxval=255.0, seed=0)
    >>> layer = hl.layers.RandAugment(num_ops=1)
    >>> chosen = layer.get_random_transformation(x)
    >>> chosen["layer_idxes"] = [9]  # auto-contrast, stretching each image to the whole range
    >>> y = hl.ops.convert_to_numpy(layer.transform_images(x, chosen))
    >>> [round(float(y.min())), round(float(y.max()))]
    [0, 255]
    """

    def __init__(
        self,
        value_range=(0, 255),
        num_ops=2,
        factor=0.5,
        interpolation="bilinear",
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.value_range = check_value_range(value_range, who)
        if not (isinstance(num_ops, numbers.Integral) and not isinstance(num_ops, bool) and num_ops >= 0):
            raise ValueError(
                f"Invalid value received for argument `num_ops` of {who}. Expected an integer >= 0 (the number "
                f"of operations applied per call). Received: num_ops={num_ops!r}"
            )
        self.num_ops = int(num_ops)
        self.factor = config_factor(factor)
        strength = parse_factor(factor, "factor", who, low=0.0, high=1.0, symmetric_low=0.0)
        self.interpolation = check_choice(interpolation, "interpolation", INTERPOLATIONS, who)
        self.operations = policy.build_operations(
            OPERATIONS, strength, self.value_range, self.interpolation, self.seed, self.data_format, self.dtype_policy
        )

    def get_random_transformation(self, images, training=True, seed=None):
        """The picks and the amounts of one call; None at inference."""
        if not training:
            return None
        seed = self.seed_generator if seed is None else seed
        # Same draw order as Keras: the picks, then each operation's amounts.
        picks = random.randint((self.num_ops,), 0, len(OPERATIONS), dtype="int32", seed=seed)
        return {"layer_idxes": picks, "transforms": policy.draw_all(self.operations, images, seed)}

    def transform_images(self, images, transformation, training=True):
        """A rank-4 batch through the picked operations; unchanged for None or at inference."""
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        picks = ops.convert_to_tensor(transformation["layer_idxes"], dtype="int32")
        for step in range(self.num_ops):
            images = policy.apply_chosen(self.operations, images, picks[step], transformation["transforms"])
        return images

    def call(self, inputs, training=True):
        policy.refuse_moved_targets(inputs, type(self).__name__)
        return super().call(inputs, training=training)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "value_range": list(self.value_range),
                "num_ops": self.num_ops,
                "factor": self.factor,
                "interpolation": self.interpolation,
            }
        )
        return config
