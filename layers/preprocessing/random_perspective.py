"""RandomPerspective: moves the corners of images at random (a projective warp) during training."""

import numbers

from highlevel import ops, random

from ._boxes import projective_boxes
from ._image_base import INTERPOLATIONS, BaseRandomImageLayer, check_choice, config_factor, parse_factor


class RandomPerspective(BaseRandomImageLayer):
    """Randomly warps images by a perspective transform during training (``keras.layers.RandomPerspective``).

    For each image, each corner ``(x, y)`` moves to ``(x * (1 + u), y * (1 + v))`` with ``u`` and ``v``
    drawn from ``[-scale / 2, scale / 2]`` (so the top-left corner stays, as in Keras), and the image is
    warped by the projective map between the two quadrilaterals; pixels that map outside the input take
    ``fill_value``. An image is warped when a uniform draw falls below its probability, itself drawn from
    ``factor``. At inference the input passes through (cast to the compute dtype).

    The work is split as in Keras: :meth:`get_random_transformation` draws ``{"apply_perspective",
    "start_points", "end_points", "input_shape"}`` and :meth:`transform_images` applies a given one.

    Args:
        factor: the range of the warping probability: a number ``f`` in ``[0, 1]`` (range ``[0, f]``) or a
            pair. Default 1.0.
        scale: a number in ``[0, 1]``, how far the corners move (fractions of the image size). Default 1.0.
        interpolation: ``"bilinear"`` (default) or ``"nearest"``.
        fill_value: the value of the pixels that map outside the input.
        seed: optional int, for reproducible draws.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        bounding_box_format: (keyword) the format of the boxes of a dict input (``"xyxy"``, ``"rel_xyxy"``,
            ``"xywh"``, ``"center_xywh"``, ``"yxyx"``, ...); needed only when the input holds ``"bounding_boxes"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: rank 3 or 4. Output shape: the input's.

    Raises:
        ValueError: if ``scale`` is not a number in ``[0, 1]`` (or ``factor`` is out of range).

    >>> import highlevel as hl
    >>> x = hl.ops.ones((2, 5, 5, 1))
    >>> y = hl.layers.RandomPerspective(factor=(1.0, 1.0), scale=0.5, seed=1)(x)
    >>> tuple(y.shape), bool(hl.ops.min(y) >= 0.0)
    ((2, 5, 5, 1), True)
    """

    def __init__(
        self, factor=1.0, scale=1.0, interpolation="bilinear", fill_value=0.0, seed=None, data_format=None, **kwargs
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.factor = config_factor(factor)
        self.factor_range = parse_factor(factor, "factor", who, low=0.0, high=1.0, symmetric_low=0.0)
        if not (isinstance(scale, numbers.Real) and not isinstance(scale, bool) and 0.0 <= scale <= 1.0):
            raise ValueError(
                f"Invalid value received for argument `scale` of {who}. Expected a number in [0, 1]. "
                f"Received: scale={scale!r}"
            )
        self.scale = float(scale)
        self.interpolation = check_choice(interpolation, "interpolation", INTERPOLATIONS, who)
        self.fill_value = float(fill_value)

    def get_random_transformation(self, images, training=True, seed=None):
        """The draws of one call (rank-4 images), or None at inference."""
        if not training:
            return None
        seed = self.seed_generator if seed is None else seed
        shape = ops.shape(images)
        batch = shape[0] if len(shape) == 4 else 1
        h_axis = len(shape) - 3 if self.data_format == "channels_last" else len(shape) - 2
        height, width = shape[h_axis], shape[h_axis + 1]
        dtype = self.compute_dtype
        # Same draw order as Keras: the probability, the threshold, then the corners' moves.
        probability = random.uniform((batch,), self.factor_range[0], self.factor_range[1], seed=seed)
        apply = ops.less(random.uniform((batch,), 0.0, 1.0, seed=seed), probability)
        moves = random.uniform((batch, 4, 2), -0.5 * self.scale, 0.5 * self.scale, dtype=dtype, seed=seed)
        corners = [[0.0, 0.0], [width - 1.0, 0.0], [0.0, height - 1.0], [width - 1.0, height - 1.0]]
        start = ops.add(ops.zeros_like(moves), ops.convert_to_tensor(corners, dtype=dtype))
        end = ops.add(start, ops.multiply(start, moves))
        return {"apply_perspective": apply, "start_points": start, "end_points": end, "input_shape": shape}

    def transform_images(self, images, transformation, training=True):
        """``images`` (rank 3 or 4) warped as ``transformation`` says; unchanged for None."""
        x = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return x
        unbatched = ops.ndim(x) == 3
        if unbatched:
            x = ops.expand_dims(x, 0)
        warped = ops.image.perspective_transform(
            x,
            ops.cast(transformation["start_points"], "float32"),
            ops.cast(transformation["end_points"], "float32"),
            interpolation=self.interpolation,
            fill_value=self.fill_value,
            data_format=self.data_format,
        )
        apply = ops.convert_to_tensor(transformation["apply_perspective"])
        out = ops.where(apply[:, None, None, None], ops.cast(warped, self.compute_dtype), x)
        return ops.squeeze(out, 0) if unbatched else out

    _geometric = True

    def _draw(self, images):
        return self.get_random_transformation(images)

    def _apply(self, images, transformation):
        return self.transform_images(images, transformation)

    def _box_mover(self, transformation):
        def move(boxes, height, width):
            moved = projective_boxes(boxes, transformation["start_points"], transformation["end_points"])
            apply = ops.reshape(ops.convert_to_tensor(transformation["apply_perspective"]), (-1, 1, 1))
            return ops.where(apply, moved, boxes), height, width

        return move

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "factor": self.factor,
                "scale": self.scale,
                "interpolation": self.interpolation,
                "fill_value": self.fill_value,
            }
        )
        return config
