"""RandomShear: shears images along x and/or y by a random amount during training."""

from highlevel import ops, random

from ._boxes import affine_boxes
from ._image_base import (
    FILL_MODES,
    INTERPOLATIONS,
    BaseRandomImageLayer,
    check_choice,
    config_factor,
    parse_factor,
)


class RandomShear(BaseRandomImageLayer):
    """Randomly shears images during training (``keras.layers.RandomShear``).

    Each image gets shear amounts ``s_x`` and ``s_y`` drawn from the factor ranges, both negated together
    with probability 1/2; the output pixel ``(x, y)`` reads the input at ``(x + s_x * y, y + s_y * x)``
    (a shear about the top-left corner, as in Keras), the uncovered part filled as ``fill_mode`` says. At
    inference the input passes through (cast to the compute dtype).

    The work is split as in Keras: :meth:`get_random_transformation` draws ``{"shear_factor": (batch, 2),
    "input_shape": ...}`` and :meth:`transform_images` applies a given one.

    Args:
        x_factor: a number ``f`` in ``[0, 1]`` (range ``[-f, f]``) or a pair of numbers in ``[0, 1]``: the
            horizontal shear. Default 0.0 (none).
        y_factor: the same for the vertical shear.
        interpolation: ``"bilinear"`` (default) or ``"nearest"``.
        fill_mode: ``"reflect"`` (default), ``"wrap"``, ``"constant"`` or ``"nearest"``.
        fill_value: the value outside the image with ``fill_mode="constant"``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        seed: optional int, for reproducible draws.
        bounding_box_format: (keyword) the format of the boxes of a dict input (``"xyxy"``, ``"rel_xyxy"``,
            ``"xywh"``, ``"center_xywh"``, ``"yxyx"``, ...); needed only when the input holds ``"bounding_boxes"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: rank 3 or 4. Output shape: the input's.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(9, dtype="float32"), (1, 3, 3, 1))
    >>> layer = hl.layers.RandomShear(x_factor=0.5, fill_mode="constant")
    >>> y = layer.transform_images(x, {"shear_factor": hl.ops.convert_to_tensor([[1.0, 0.0]])})
    >>> hl.ops.convert_to_numpy(y)[0, :, :, 0].tolist()  # row y moves left by y pixels
    [[0.0, 1.0, 2.0], [4.0, 5.0, 0.0], [8.0, 0.0, 0.0]]
    """

    def __init__(
        self,
        x_factor=0.0,
        y_factor=0.0,
        interpolation="bilinear",
        fill_mode="reflect",
        fill_value=0.0,
        data_format=None,
        seed=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.x_factor = config_factor(x_factor)
        self.y_factor = config_factor(y_factor)
        self.x_range = parse_factor(x_factor, "x_factor", who, low=0.0, high=1.0)
        self.y_range = parse_factor(y_factor, "y_factor", who, low=0.0, high=1.0)
        self.interpolation = check_choice(interpolation, "interpolation", INTERPOLATIONS, who)
        self.fill_mode = check_choice(fill_mode, "fill_mode", FILL_MODES, who)
        self.fill_value = float(fill_value)

    def get_random_transformation(self, images, training=True, seed=None):
        """``{"shear_factor": (batch, 2) of (s_x, s_y), "input_shape"}`` for rank-4 images; None at
        inference."""
        if not training:
            return None
        seed = self.seed_generator if seed is None else seed
        shape = ops.shape(images)
        batch = shape[0] if len(shape) == 4 else 1
        dtype = self.compute_dtype
        # Same draw order as Keras: the sign, then y, then x.
        sign = ops.where(ops.greater(random.uniform((batch, 1), 0.0, 1.0, dtype=dtype, seed=seed), 0.5), -1.0, 1.0)
        shear_y = random.uniform((batch, 1), self.y_range[0], self.y_range[1], dtype=dtype, seed=seed)
        shear_x = random.uniform((batch, 1), self.x_range[0], self.x_range[1], dtype=dtype, seed=seed)
        factor = ops.multiply(ops.concatenate([shear_x, shear_y], axis=1), ops.cast(sign, dtype))
        return {"shear_factor": factor, "input_shape": shape}

    def transform_images(self, images, transformation, training=True):
        """``images`` (rank 3 or 4) sheared by ``transformation["shear_factor"]``; unchanged for None."""
        x = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return x
        unbatched = ops.ndim(x) == 3
        if unbatched:
            x = ops.expand_dims(x, 0)
        out = ops.image.affine_transform(
            x,
            self._matrix(transformation),
            interpolation=self.interpolation,
            fill_mode=self.fill_mode,
            fill_value=self.fill_value,
            data_format=self.data_format,
        )
        out = ops.cast(out, self.compute_dtype)
        return ops.squeeze(out, 0) if unbatched else out

    @staticmethod
    def _matrix(transformation):
        factor = ops.cast(transformation["shear_factor"], "float32")
        ones, zeros = ops.ones_like(factor[:, 0]), ops.zeros_like(factor[:, 0])
        return ops.stack([ones, factor[:, 0], zeros, factor[:, 1], ones, zeros, zeros, zeros], axis=1)

    _geometric = True

    def _draw(self, images):
        return self.get_random_transformation(images)

    def _apply(self, images, transformation):
        return self.transform_images(images, transformation)

    def _box_mover(self, transformation):
        def move(boxes, height, width):
            return affine_boxes(boxes, self._matrix(transformation)), height, width

        return move

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "x_factor": self.x_factor,
                "y_factor": self.y_factor,
                "fill_mode": self.fill_mode,
                "interpolation": self.interpolation,
                "fill_value": self.fill_value,
            }
        )
        return config
