"""RandomRotation: rotates images by a random angle during training."""

from highlevel import ops, random

from ._boxes import affine_boxes
from ._image_base import (
    FILL_MODES,
    INTERPOLATIONS,
    BaseRandomImageLayer,
    check_choice,
    config_factor,
    parse_factor,
    rotation_matrix,
    spatial_size,
)


class RandomRotation(BaseRandomImageLayer):
    """Randomly rotates images during training (``keras.layers.RandomRotation``).

    Each image is rotated about its center by an angle drawn uniformly from
    ``[lower * 360, upper * 360]`` degrees (``factor=0.1`` means up to 36 degrees either way); points from
    outside the image are filled as ``fill_mode`` says. At inference the input passes through (cast to the
    compute dtype).

    Args:
        factor: a float ``f`` in ``[-1, 1]`` (the range ``[-|f|, |f|]`` of turns) or a pair
            ``(lower, upper)``; positive turns are counter-clockwise.
        fill_mode: ``"reflect"`` (default), ``"wrap"``, ``"constant"`` or ``"nearest"``, as in
            :func:`highlevel.ops.image.affine_transform`.
        interpolation: ``"bilinear"`` (default) or ``"nearest"``.
        seed: optional int, for reproducible draws.
        fill_value: the value outside the image with ``fill_mode="constant"``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        bounding_box_format: (keyword) the format of the boxes of a dict input (``"xyxy"``, ``"rel_xyxy"``,
            ``"xywh"``, ``"center_xywh"``, ``"yxyx"``, ...); needed only when the input holds ``"bounding_boxes"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: rotate (True, the default of a direct call) or pass through (False, as in ``predict``).

    Input shape: rank 3 or 4. Output shape: the input's.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(4, dtype="float32"), (1, 2, 2, 1))
    >>> quarter_turn = hl.layers.RandomRotation((0.25, 0.25))
    >>> hl.ops.convert_to_numpy(quarter_turn(x, training=True))[0, :, :, 0].round(4).tolist()
    [[1.0, 3.0], [0.0, 2.0]]
    """

    def __init__(
        self,
        factor,
        fill_mode="reflect",
        interpolation="bilinear",
        seed=None,
        fill_value=0.0,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.factor = config_factor(factor)
        self.lower, self.upper = parse_factor(factor, "factor", who)
        self.fill_mode = check_choice(fill_mode, "fill_mode", FILL_MODES, who)
        self.interpolation = check_choice(interpolation, "interpolation", INTERPOLATIONS, who)
        self.fill_value = float(fill_value)

    _geometric = True

    def _draw(self, images):
        return self._uniform((ops.shape(images)[0],), self.lower * 360.0, self.upper * 360.0)

    def _apply(self, images, angle):
        height, width = spatial_size(ops.shape(images), self.data_format)
        return ops.image.affine_transform(
            images,
            rotation_matrix(angle, height, width),
            interpolation=self.interpolation,
            fill_mode=self.fill_mode,
            fill_value=self.fill_value,
            data_format=self.data_format,
        )

    def get_random_transformation(self, images, training=True, seed=None):
        """``{"angle": (batch,) in degrees, "image_height", "image_width"}`` (Keras's keys) drawn from ``seed``
        (default: the layer's generator); None at inference."""
        if not training:
            return None
        seed = self.seed_generator if seed is None else seed
        shape = ops.shape(images)
        batch = shape[0] if len(shape) == 4 else 1
        height, width = spatial_size(shape if len(shape) == 4 else (1, *shape), self.data_format)
        angle = random.uniform((batch,), self.lower * 360.0, self.upper * 360.0, dtype="float32", seed=seed)
        return {"angle": angle, "image_height": height, "image_width": width}

    def transform_images(self, images, transformation, training=True):
        """A rank-4 batch rotated by ``transformation["angle"]``; unchanged for None or at inference."""
        if not training or transformation is None:
            return images
        out = self._apply(images, ops.cast(transformation["angle"], "float32"))
        return ops.cast(out, ops.dtype(images))

    def _box_mover(self, angle):
        def move(boxes, height, width):
            return affine_boxes(boxes, rotation_matrix(angle, height, width)), height, width

        return move

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "factor": self.factor,
                "fill_mode": self.fill_mode,
                "fill_value": self.fill_value,
                "interpolation": self.interpolation,
            }
        )
        return config
