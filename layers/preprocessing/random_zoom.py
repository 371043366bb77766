"""RandomZoom: zooms images in or out by a random factor during training."""

from highlevel import ops

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


class RandomZoom(BaseRandomImageLayer):
    """Randomly zooms images during training (``keras.layers.RandomZoom``).

    Each image is rescaled about its center: the output samples a window ``1 + u`` times the image's size,
    ``u`` drawn uniformly from the factor range — so a positive factor zooms OUT and a negative one zooms IN
    (as in Keras). Without ``width_factor`` both axes use the same draw (the aspect ratio is kept). At
    inference the input passes through (cast to the compute dtype).

    Args:
        height_factor: a float ``f`` in ``(-1, 1]`` (range ``[-|f|, |f|]``) or a pair ``(lower, upper)``.
        width_factor: the same for the width, or None (default) to follow the height.
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
        training: zoom (True, the default of a direct call) or pass through (False, as in ``predict``).

    Input shape: rank 3 or 4. Output shape: the input's.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(5, dtype="float32"), (1, 1, 5, 1))
    >>> zoom_out = hl.layers.RandomZoom(0.0, (1.0, 1.0), fill_mode="constant")  # a window twice as wide
    >>> hl.ops.convert_to_numpy(zoom_out(x, training=True))[0, 0, :, 0].tolist()
    [0.0, 0.0, 2.0, 4.0, 0.0]
    """

    def __init__(
        self,
        height_factor,
        width_factor=None,
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
        self.height_lower, self.height_upper = parse_factor(height_factor, "height_factor", who, low_open=True)
        if width_factor is not None:
            self.width_lower, self.width_upper = parse_factor(width_factor, "width_factor", who, low_open=True)
        self.fill_mode = check_choice(fill_mode, "fill_mode", FILL_MODES, who)
        self.interpolation = check_choice(interpolation, "interpolation", INTERPOLATIONS, who)
        self.fill_value = float(fill_value)

    _geometric = True

    def _draw(self, images):
        batch = ops.shape(images)[0]
        zy = self._uniform((batch, 1), 1.0 + self.height_lower, 1.0 + self.height_upper)
        if self.width_factor is not None:
            zx = self._uniform((batch, 1), 1.0 + self.width_lower, 1.0 + self.width_upper)
        else:
            zx = zy
        return zx, zy

    def _offsets(self, zooms, height, width):
        zx, zy = zooms
        # Scale about the center: x_in = zx * x + (width - 1) / 2 * (1 - zx).
        x_offset = ops.multiply((width - 1.0) / 2.0, ops.subtract(1.0, zx))
        y_offset = ops.multiply((height - 1.0) / 2.0, ops.subtract(1.0, zy))
        return x_offset, y_offset

    def _apply(self, images, zooms):
        height, width = spatial_size(ops.shape(images), self.data_format)
        zx, zy = zooms
        x_offset, y_offset = self._offsets(zooms, height, width)
        zeros = ops.zeros_like(zx)
        transform = ops.concatenate([zx, zeros, x_offset, zeros, zy, y_offset, zeros, zeros], axis=1)
        return ops.image.affine_transform(
            images,
            transform,
            interpolation=self.interpolation,
            fill_mode=self.fill_mode,
            fill_value=self.fill_value,
            data_format=self.data_format,
        )

    def _box_mover(self, zooms):
        def move(boxes, height, width):
            zx, zy = (ops.reshape(v, (-1,)) for v in zooms)
            # Along pixel edges (box coordinates) the output point x shows the input point zx * x + width / 2 *
            # (1 - zx), so an input point moves to (x - width / 2 * (1 - zx)) / zx.
            x_offset, y_offset = (width / 2.0) * (1.0 - zx), (height / 2.0) * (1.0 - zy)
            return shift_and_scale(boxes, x_offset, y_offset, 1.0 / zx, 1.0 / zy), height, width

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
