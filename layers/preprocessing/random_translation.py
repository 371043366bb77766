"""RandomTranslation: shifts images by a random offset during training."""

from highlevel import ops, random

from ._boxes import shift_and_scale
from ._image_base import (
    FILL_MODES,
    INTERPOLATIONS,
    BaseRandomImageLayer,
    check_choice,
    config_factor,
    parse_factor,
    spatial_size,
)


class RandomTranslation(BaseRandomImageLayer):
    """Randomly translates images during training (``keras.layers.RandomTranslation``).

    Each image is shifted by ``dy = u * height`` rows and ``dx = v * width`` columns, with ``u`` and ``v``
    drawn uniformly from the factor ranges (positive: down / right); the uncovered part is filled as
    ``fill_mode`` says. At inference the input passes through (cast to the compute dtype).

    Args:
        height_factor: a float ``f`` in ``[-1, 1]`` (range ``[-|f|, |f|]``) or a pair ``(lower, upper)``,
            fractions of the height.
        width_factor: the same for the width.
        fill_mode: ``"reflect"`` (default), ``"wrap"``, ``"constant"`` or ``"nearest"``.
        interpolation: ``"bilinear"`` (default) or ``"nearest"``.
        seed: optional int, for reproducible draws.
        fill_value: the value outside the image with ``fill_mode="constant"``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        bounding_box_format: (keyword) the format of the boxes of a dict input (``"xyxy"``, ``"rel_xyxy"``,
            ``"xywh"``, ``"center_xywh"``, ``"yxyx"``, ...); needed only when the input holds ``"bounding_boxes"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: translate (True, the default of a direct call) or pass through (False, as in ``predict``).

    Input shape: rank 3 or 4. Output shape: the input's.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(4, dtype="float32"), (1, 1, 4, 1))
    >>> right = hl.layers.RandomTranslation(0.0, (0.25, 0.25), fill_mode="constant")
    >>> hl.ops.convert_to_numpy(right(x, training=True))[0, 0, :, 0].tolist()
    [0.0, 0.0, 1.0, 2.0]
    """

    def __init__(
        self,
        height_factor,
        width_factor,
        fill_mode="reflect",
        interpolation="bilinear",
        seed=None,
        fill_value=0.0,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.height_factor = config_factor(height_factor)
        self.width_factor = config_factor(width_factor)
        self.height_lower, self.height_upper = parse_factor(height_factor, "height_factor", who)
        self.width_lower, self.width_upper = parse_factor(width_factor, "width_factor", who)
        self.fill_mode = check_choice(fill_mode, "fill_mode", FILL_MODES, who)
        self.interpolation = check_choice(interpolation, "interpolation", INTERPOLATIONS, who)
        self.fill_value = float(fill_value)

    _geometric = True

    def _draw(self, images):
        batch = ops.shape(images)[0]
        height, width = spatial_size(ops.shape(images), self.data_format)
        # Same draw order as Keras: the height offsets, then the width offsets.
        dy = ops.multiply(self._uniform((batch, 1), self.height_lower, self.height_upper), float(height))
        dx = ops.multiply(self._uniform((batch, 1), self.width_lower, self.width_upper), float(width))
        return dx, dy

    def _apply(self, images, shifts):
        dx, dy = shifts
        ones, zeros = ops.ones_like(dx), ops.zeros_like(dx)
        # The output pixel (x, y) reads the input at (x - dx, y - dy).
        transform = ops.concatenate(
            [ones, zeros, ops.negative(dx), zeros, ones, ops.negative(dy), zeros, zeros], axis=1
        )
        return ops.image.affine_transform(
            images,
            transform,
            interpolation=self.interpolation,
            fill_mode=self.fill_mode,
            fill_value=self.fill_value,
            data_format=self.data_format,
        )

    def get_random_transformation(self, images, training=True, seed=None):
        """``{"translations": (batch, 2) of (dx, dy) in pixels, "input_shape"}`` (Keras's layout) drawn from
        ``seed`` (default: the layer's generator); None at inference."""
        if not training:
            return None
        seed = self.seed_generator if seed is None else seed
        shape = ops.shape(images)
        batch = shape[0] if len(shape) == 4 else 1
        height, width = spatial_size(shape if len(shape) == 4 else (1, *shape), self.data_format)
        # Same draw order as Keras: the height offsets, then the width offsets.
        dy = random.uniform((batch, 1), self.height_lower, self.height_upper, dtype="float32", seed=seed)
        dx = random.uniform((batch, 1), self.width_lower, self.width_upper, dtype="float32", seed=seed)
        translations = ops.concatenate([ops.multiply(dx, float(width)), ops.multiply(dy, float(height))], axis=1)
        return {"translations": translations, "input_shape": shape}

    def transform_images(self, images, transformation, training=True):
        """A rank-4 batch moved by ``transformation["translations"]``; unchanged for None or at inference."""
        if not training or transformation is None:
            return images
        shift = ops.cast(transformation["translations"], "float32")
        out = self._apply(images, (shift[:, 0:1], shift[:, 1:2]))
        return ops.cast(out, ops.dtype(images))

    def _box_mover(self, shifts):
        dx, dy = (ops.reshape(v, (-1,)) for v in shifts)

        def move(boxes, height, width):
            # What was at (x, y) is now at (x + dx, y + dy).
            return shift_and_scale(boxes, ops.negative(dx), ops.negative(dy)), height, width

        return move

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "height_factor": self.height_factor,
                "width_factor": self.width_factor,
                "fill_mode": self.fill_mode,
                "fill_value": self.fill_value,
                "interpolation": self.interpolation,
            }
        )
        return config
