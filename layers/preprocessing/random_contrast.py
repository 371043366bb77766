"""RandomContrast: scales each image's deviation from its mean by a random factor during training."""

import numbers

from highlevel import ops, random

from ._image_base import BaseRandomImageLayer, config_factor, parse_factor


class RandomContrast(BaseRandomImageLayer):
    """Randomly adjusts the contrast of images during training (``keras.layers.RandomContrast``).

    Each image gets one factor ``c``; every pixel becomes ``(x - mean) * c + mean`` with ``mean`` the
    image's per-channel mean, then the result is clipped to ``value_range``. ``c`` is drawn uniformly from
    ``[1 - lower, 1 + upper]``. As in Keras 3, a single number ``f`` means ``(lower, upper) = (0, f)``, i.e.
    ``c`` in ``[1, 1 + f]``. At inference the input passes through (cast to the compute dtype).

    Args:
        factor: a float in ``[0, 1]`` or a pair ``(lower, upper)`` (sorted; the contrast factor is drawn
            from ``[1 - lower, 1 + upper]``, so ``(-0.3, 0.3)`` always gives ``c = 1.3``).
        value_range: ``(low, high)``, the range of the pixel values; the output is clipped to it.
        seed: optional int, for reproducible draws.
        data_format: ``"channels_last"`` or ``"channels_first"``; None (default) uses ``hl.config.image_data_format()``.
        **kwargs: base layer arguments (``name``, ``dtype``, ``data_format``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: adjust (True, the default of a direct call) or pass through (False, as in ``predict``).

    Input shape: rank 3 or 4. Output shape: the input's.

    Raises:
        ValueError: if ``factor`` is not a number in ``[0, 1]`` or a pair of them, or ``value_range`` is not a pair
            ``(low, high)`` with ``low < high``.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.convert_to_tensor([10.0, 20.0, 30.0, 40.0]), (1, 2, 2, 1))
    >>> layer = hl.layers.RandomContrast((-1.0, 1.0))  # c = 2 exactly
    >>> hl.ops.convert_to_numpy(layer(x, training=True))[0, :, :, 0].tolist()
    [[0.0, 15.0], [35.0, 55.0]]
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.factor = config_factor(factor)
        if isinstance(factor, (tuple, list)):
            # Keras accepts a pair that overlaps [0, 1]: its entries may be negative.
            ok = (
                len(factor) == 2
                and all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in factor)
                and not (factor[0] > 1 or factor[1] < 0)
            )
            if not ok:
                raise ValueError(
                    f"Invalid value received for argument `factor` of {who}. Expected a number in [0, 1] or a "
                    f"list of two numbers. Received: factor={factor!r}"
                )
            self.lower, self.upper = sorted(float(v) for v in factor)
        else:
            self.lower, self.upper = parse_factor(factor, "factor", who, low=0.0, symmetric_low=0.0)
        if (
            not isinstance(value_range, (tuple, list))
            or len(value_range) != 2
            or not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value_range)
            or value_range[0] >= value_range[1]
        ):
            raise ValueError(
                f"Invalid value received for argument `value_range` of {who}. Expected a pair (low, high) of "
                f"numbers with low < high. Received: value_range={value_range!r}"
            )
        self.value_range = tuple(value_range)

    def get_random_transformation(self, images, training=True, seed=None):
        """Draws each image's contrast factor: ``{"contrast_factor": (batch, 1, 1, 1)}``."""
        batch = ops.shape(images)[0] if ops.ndim(images) == 4 else 1
        c = random.uniform(
            (batch, 1, 1, 1),
            minval=1.0 - self.lower,
            maxval=1.0 + self.upper,
            dtype=ops.dtype(images),
            seed=self.seed_generator if seed is None else seed,
        )
        return {"contrast_factor": c}

    def transform_images(self, images, transformation, training=True):
        """Applies drawn contrast factors to a rank-4 batch (the input as it is when not ``training``)."""
        if not training:
            return images
        c = ops.cast(transformation["contrast_factor"], ops.dtype(images))
        axes = (1, 2) if self.data_format == "channels_last" else (2, 3)
        mean = ops.mean(ops.mean(images, axis=axes[0], keepdims=True), axis=axes[1], keepdims=True)
        out = ops.add(ops.multiply(ops.subtract(images, mean), c), mean)
        return ops.clip(out, float(self.value_range[0]), float(self.value_range[1]))

    def _augment(self, images):
        return self.transform_images(images, self.get_random_transformation(images))

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": list(self.value_range)})
        return config
