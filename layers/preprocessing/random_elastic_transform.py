"""RandomElasticTransform: deforms images by a random smooth displacement field during training."""

from highlevel import ops

from ._augment_policy import refuse_moved_targets
from ._color_base import BaseColorLayer, check_value_range
from ._image_base import INTERPOLATIONS, check_choice, config_factor, parse_factor

#: The fill modes of the layer (those of ``ops.image.elastic_transform``).
FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


class RandomElasticTransform(BaseColorLayer):
    """Randomly distorts images with an elastic deformation during training (``keras.layers.RandomElasticTransform``).

    Each image is deformed with probability ``p``, drawn per image from ``factor``'s range. One distortion
    strength ``s`` drawn from ``scale``'s range serves the whole batch: the displacement field is standard
    normal noise blurred by a Gaussian of ``sigma = 0.05 * s * min(height, width)`` and scaled by ``alpha =
    0.1 * s * max(height, width)`` pixels (see :func:`highlevel.ops.image.elastic_transform`), and each output
    pixel samples the input at its displaced position. The result is clipped to ``value_range``. At inference,
    or when the upper end of ``factor`` or ``scale`` is 0, the input passes through.

    The drawn strength is a tensor, so the layer also runs traced (a ``tf.data`` map, a compiled step). The blur
    window's size must be fixed there: a traced call sizes it for the upper end of ``scale``'s range (its
    Gaussian weights still follow the drawn strength), while an eager call sizes it for the drawn strength.

    :meth:`get_random_transformation` draws ``{"apply_transform": (batch,) bool, "distortion_factor": scalar,
    "seed": ...}`` (the seed of the noise field) and :meth:`transform_images` applies a given one.

    Args:
        factor: a number ``f`` in ``[0, 1]`` (``p`` in ``[0, f]``) or a pair in ``[0, 1]``: the probability of
            deforming an image.
        scale: a number or pair in ``[0, 1]`` the same way: the strength of the deformation.
        interpolation: ``"bilinear"`` (default) or ``"nearest"``.
        fill_mode: ``"reflect"`` (default), ``"mirror"``, ``"constant"``, ``"nearest"`` or ``"wrap"``.
        fill_value: the value outside the image with ``fill_mode="constant"``.
        value_range: ``(low, high)``, the range of the pixel values; the output is clipped to it.
        seed: optional int, for reproducible draws.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: deform (True, the default of a direct call) or pass through (False).

    >>> import highlevel as hl
    >>> x = hl.random.uniform((2, 16, 16, 3), maxval=255.0, seed=0)
    >>> y = hl.layers.RandomElasticTransform(seed=1)(x, training=True)
    >>> tuple(y.shape), bool(hl.ops.convert_to_numpy(hl.ops.any(hl.ops.not_equal(x, y))))
    ((2, 16, 16, 3), True)
    """

    def __init__(
        self,
        factor=1.0,
        scale=1.0,
        interpolation="bilinear",
        fill_mode="reflect",
        fill_value=0.0,
        value_range=(0, 255),
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.factor = config_factor(factor)
        self.scale = config_factor(scale)
        self._probability = parse_factor(factor, "factor", who, low=0.0, high=1.0, symmetric_low=0.0)
        self._strength = parse_factor(scale, "scale", who, low=0.0, high=1.0, symmetric_low=0.0)
        self.interpolation = check_choice(interpolation, "interpolation", INTERPOLATIONS, who)
        self.fill_mode = check_choice(fill_mode, "fill_mode", FILL_MODES, who)
        self.fill_value = float(fill_value)
        self.value_range = check_value_range(value_range, who)

    def get_random_transformation(self, images, training=True, seed=None):
        """The draws of one call, or None (nothing to do) at inference or with a zero ``factor``/``scale``."""
        if not training or self._probability[1] == 0 or self._strength[1] == 0:
            return None
        seed = self.seed_generator if seed is None else seed
        batch = self._batch_size(images)
        # Same draw order as Keras: the probabilities, the thresholds, then the strength.
        probability = self._draw_uniform((batch,), *self._probability, seed=seed)
        threshold = self._draw_uniform((batch,), 0.0, 1.0, seed=seed)
        strength = self._draw_uniform((), *self._strength, seed=seed)
        return {"apply_transform": ops.less(threshold, probability), "distortion_factor": strength, "seed": seed}

    def transform_images(self, images, transformation, training=True):
        """``images`` (rank 4) deformed as ``transformation`` says; unchanged for None or at inference."""
        if not training or transformation is None:
            return images
        shape = ops.shape(images)
        height, width = (shape[1], shape[2]) if self.data_format == "channels_last" else (shape[2], shape[3])
        low, high = self._strength
        drawn = transformation["distortion_factor"]
        if low == high:
            strength, bound = low, low
        else:
            # A tensor, so that a traced call (a compiled step, a tf.data map) works: the blur window is sized for
            # the largest strength of the range, the weights follow the drawn one.
            strength, bound = ops.convert_to_tensor(drawn, "float32"), high
        sigma_scale = 0.05 * min(height, width)
        sigma = max(sigma_scale * strength, 1e-6) if low == high else ops.maximum(strength * sigma_scale, 1e-6)
        alpha = 0.1 * strength * max(height, width)
        deformed = ops.image.elastic_transform(
            images,
            alpha=alpha,
            sigma=sigma,
            max_sigma=max(sigma_scale * bound, 1e-6),
            interpolation=self.interpolation,
            fill_mode=self.fill_mode,
            fill_value=self.fill_value,
            seed=transformation["seed"],
            data_format=self.data_format,
        )
        apply = ops.reshape(ops.convert_to_tensor(transformation["apply_transform"]), (-1, 1, 1, 1))
        out = ops.where(apply, ops.cast(deformed, ops.dtype(images)), images)
        return ops.clip(out, self.value_range[0], self.value_range[1])

    def call(self, inputs, training=True):
        refuse_moved_targets(inputs, type(self).__name__)
        return super().call(inputs, training=training)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "factor": self.factor,
                "scale": self.scale,
                "interpolation": self.interpolation,
                "fill_mode": self.fill_mode,
                "fill_value": self.fill_value,
                "value_range": list(self.value_range),
            }
        )
        return config
