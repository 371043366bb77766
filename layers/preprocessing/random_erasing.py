"""RandomErasing: replaces a random rectangle of images with noise or a constant during training."""

import numbers

from highlevel import ops, random

from ._image_base import BaseRandomImageLayer, config_factor, parse_factor


def _check_value_range(value_range, who):
    if (
        not isinstance(value_range, (tuple, list))
        or len(value_range) != 2
        or not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value_range)
        or value_range[0] >= value_range[1]
    ):
        raise ValueError(
            f"Invalid value received for argument `value_range` of {who}. Expected two numbers (low, high) with "
            f"low < high, e.g. (0, 255) or (0, 1). Received: value_range={value_range!r}"
        )
    return [float(value_range[0]), float(value_range[1])]


def _check_fill_value(fill_value, who):
    if fill_value is None or (isinstance(fill_value, numbers.Real) and not isinstance(fill_value, bool)):
        return fill_value
    if isinstance(fill_value, (tuple, list)) and len(fill_value) == 3:
        return list(fill_value)
    raise ValueError(
        f"Invalid value received for argument `fill_value` of {who}. Expected None (noise), a number or a list "
        f"of three numbers (one per channel). Received: fill_value={fill_value!r}"
    )


class RandomErasing(BaseRandomImageLayer):
    """Erases a random rectangle of each image during training (``keras.layers.RandomErasing``).

    For each image, the rectangle's width and height are ``sqrt(s) * width`` and ``sqrt(t) * height`` with
    ``s`` and ``t`` drawn from ``scale``, at a uniformly drawn position inside the image. The image is erased
    when a uniform draw falls below its erasing probability, itself drawn from ``factor``. The rectangle is
    filled with ``fill_value`` (noise: ``normal * value_range[1]`` when None), clipped to ``value_range``. At
    inference the input passes through (cast to the compute dtype).

    The work is split as in Keras: :meth:`get_random_transformation` draws a dict (``apply_erasing`` of shape
    ``(batch,)``, ``batch_masks`` of the images' shape, ``fill_value``) and :meth:`transform_images` applies it.

    Args:
        factor: the range of the erasing probability: a number ``f`` in ``[0, 1]`` (range ``[0, f]``) or a
            pair. Default 1.0.
        scale: the range of the fractions ``s`` and ``t`` above: a number or a pair in ``[0, 1]``. Default
            ``(0.02, 0.33)``.
        fill_value: None (noise, the default), a number, or three numbers (one per channel, channels last).
        value_range: ``(low, high)``, the range of the images' values. Default ``(0, 255)``.
        seed: optional int, for reproducible draws.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: rank 3 or 4. Output shape: the input's.

    >>> import highlevel as hl
    >>> x = hl.ops.ones((1, 4, 4, 1))
    >>> y = hl.layers.RandomErasing(factor=(1.0, 1.0), scale=(0.25, 0.25), fill_value=0.0, seed=1)(x)
    >>> float(hl.ops.sum(y))  # a 2x2 window of zeros
    12.0
    """

    def __init__(
        self,
        factor=1.0,
        scale=(0.02, 0.33),
        fill_value=None,
        value_range=(0, 255),
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.factor = config_factor(factor)
        self.scale = config_factor(scale)
        self.factor_range = parse_factor(factor, "factor", who, low=0.0, high=1.0, symmetric_low=0.0)
        self.scale_range = parse_factor(scale, "scale", who, low=0.0, high=1.0, symmetric_low=0.0)
        self.fill_value = _check_fill_value(fill_value, who)
        self.value_range = _check_value_range(value_range, who)

    def _axes(self):
        return (1, 2, 3) if self.data_format == "channels_last" else (2, 3, 1)

    def get_random_transformation(self, images, training=True, seed=None):
        """The draws of one call on a batch of images (rank 4), or None at inference."""
        if not training:
            return None
        seed = self.seed_generator if seed is None else seed
        shape = ops.shape(images)
        h_axis, w_axis, c_axis = self._axes()
        batch, height, width = shape[0], shape[h_axis], shape[w_axis]
        dtype = self.compute_dtype

        # Same draw order as Keras: the sizes, the x and y positions, the probability, the threshold, the fill.
        sizes = ops.sqrt(random.uniform((batch, 2), self.scale_range[0], self.scale_range[1], dtype=dtype, seed=seed))

        def bounds(length, fraction):
            extent = ops.multiply(fraction, float(length))
            start = ops.multiply(random.uniform((batch,), 0.0, 1.0, dtype=dtype, seed=seed), float(length) - extent)
            return start, ops.add(start, extent)

        x0, x1 = bounds(width, sizes[:, 0])
        y0, y1 = bounds(height, sizes[:, 1])
        rows = ops.arange(height, dtype=dtype)[None, :, None]
        columns = ops.arange(width, dtype=dtype)[None, None, :]

        def inside(v, lo, hi):
            return ops.logical_and(ops.greater_equal(v, lo[:, None, None]), ops.less(v, hi[:, None, None]))

        masks = ops.logical_and(inside(rows, y0, y1), inside(columns, x0, x1))  # (batch, height, width)
        masks = ops.repeat(ops.expand_dims(masks, c_axis), shape[c_axis], axis=c_axis)
        probability = random.uniform((batch,), self.factor_range[0], self.factor_range[1], seed=seed)
        apply_erasing = ops.less(random.uniform((batch,), 0.0, 1.0, seed=seed), probability)
        return {"apply_erasing": apply_erasing, "batch_masks": masks, "fill_value": self._fill(images, seed)}

    def _fill(self, images, seed):
        low, high = self.value_range
        if self.fill_value is None:
            fill = ops.multiply(random.normal(ops.shape(images), dtype=self.compute_dtype, seed=seed), high)
        else:
            fill = ops.full_like(images, 0.0, dtype=self.compute_dtype) + ops.convert_to_tensor(
                self.fill_value, dtype=self.compute_dtype
            )
        return ops.clip(fill, low, high)

    def transform_images(self, images, transformation, training=True):
        """``images`` with the rectangles of ``transformation`` filled (rank 4); unchanged for None."""
        x = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return x
        fill = ops.cast(transformation["fill_value"], self.compute_dtype)
        erased = ops.where(transformation["batch_masks"], fill, x)
        return ops.where(transformation["apply_erasing"][:, None, None, None], erased, x)

    def _augment(self, images):
        return self.transform_images(images, self.get_random_transformation(images))

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "factor": self.factor,
                "scale": self.scale,
                "fill_value": self.fill_value,
                "value_range": self.value_range,
            }
        )
        return config
