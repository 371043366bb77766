"""RandomFlip: flips images horizontally and/or vertically at random during training."""

from highlevel import ops

from ._image_base import BaseRandomImageLayer, check_choice

HORIZONTAL, VERTICAL, HORIZONTAL_AND_VERTICAL = "horizontal", "vertical", "horizontal_and_vertical"


class RandomFlip(BaseRandomImageLayer):
    """Randomly flips images during training (``keras.layers.RandomFlip``).

    Each image is flipped with probability 1/2; with ``"horizontal_and_vertical"`` the one draw flips it
    along both axes. At inference (``training=False``) the layer passes its input through, cast to the
    compute dtype.

    Args:
        mode: ``"horizontal"`` (left-right), ``"vertical"`` (up-down) or ``"horizontal_and_vertical"``
            (default).
        seed: optional int, for reproducible draws (each call still draws anew).
        bounding_box_format: (keyword) the format of the boxes of a dict input (``"xyxy"``, ``"rel_xyxy"``, ``"xywh"``,
            ``"center_xywh"``, ``"yxyx"``, ...); needed only when the input holds ``"bounding_boxes"``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``..., and ``bounding_box_format``).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images, or a dict with
            ``"images"`` and optionally ``"bounding_boxes"`` (``{"boxes", "labels"}``, flipped with their
            image) and ``"segmentation_masks"`` (flipped like the images).
        training: flip at random (True, the default of a direct call) or pass through (False, as in
            ``predict``).

    Input shape: rank 3 or 4. Output shape: the input's.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(4, dtype="float32"), (1, 2, 2, 1))
    >>> y = hl.layers.RandomFlip("horizontal", seed=0)(x, training=True)
    >>> hl.ops.convert_to_numpy(y)[0, :, :, 0].tolist() in ([[0.0, 1.0], [2.0, 3.0]], [[1.0, 0.0], [3.0, 2.0]])
    True
    >>> boxes = {"boxes": [[[0.0, 0.0, 1.0, 2.0]]], "labels": [[1]]}
    >>> flip = hl.layers.RandomFlip("horizontal", bounding_box_format="xyxy", seed=0)
    >>> out = flip({"images": hl.ops.ones((1, 4, 4, 1)), "bounding_boxes": boxes}, training=True)
    >>> hl.ops.convert_to_numpy(out["bounding_boxes"]["boxes"])[0, 0].tolist() in ([0, 0, 1, 2], [3, 0, 4, 2])
    True
    """

    def __init__(self, mode=HORIZONTAL_AND_VERTICAL, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.mode = check_choice(mode, "mode", (HORIZONTAL, VERTICAL, HORIZONTAL_AND_VERTICAL), type(self).__name__)

    _geometric = True

    def _draw(self, images):
        batch = ops.shape(images)[0]
        return ops.less_equal(self._uniform((batch, 1, 1, 1), 0.0, 1.0), 0.5)

    def _apply(self, images, flips):
        h_axis, w_axis = (1, 2) if self.data_format == "channels_last" else (2, 3)
        out = images
        if self.mode in (HORIZONTAL, HORIZONTAL_AND_VERTICAL):
            out = ops.where(flips, ops.flip(out, axis=w_axis), out)
        if self.mode in (VERTICAL, HORIZONTAL_AND_VERTICAL):
            out = ops.where(flips, ops.flip(out, axis=h_axis), out)
        return out

    def _box_mover(self, flips):
        def move(boxes, height, width):
            flip = ops.reshape(flips, (-1, 1, 1))
            x1, y1, x2, y2 = ops.split(boxes, 4, axis=-1)
            if self.mode in (HORIZONTAL, HORIZONTAL_AND_VERTICAL):
                x1, x2 = ops.where(flip, width - x2, x1), ops.where(flip, width - x1, x2)
            if self.mode in (VERTICAL, HORIZONTAL_AND_VERTICAL):
                y1, y2 = ops.where(flip, height - y2, y1), ops.where(flip, height - y1, y2)
            return ops.concatenate([x1, y1, x2, y2], axis=-1), height, width

        return move

    def get_config(self):
        config = super().get_config()
        config.update({"mode": self.mode})
        return config
