"""CenterCrop: crops the central part of images (resizing them when they are too small)."""

import numpy as np

from highlevel import ops
from highlevel.config import standardize_data_format
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._boxes import check_box_format, resize_window, transform_dict, window_boxes
from ._image_base import check_image_rank, take_base_factor
from .resizing import check_size, resized_shape


class CenterCrop(Layer):
    """Crops the central ``(height, width)`` window of images (``keras.layers.CenterCrop``).

    When an image is smaller than the target in either dimension, it is instead resized (bilinear) after
    cropping the largest centered window with the target's aspect ratio, so the output always has the
    target size. The output is in the layer's compute dtype (float32 by default).

    Args:
        height: int, the output height.
        width: int, the output width.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        bounding_box_format: the format of the boxes of a dict input (``"xyxy"``, ``"rel_xyxy"``,
            ``"xywh"``, ``"center_xywh"``, ``"yxyx"``, ...); needed only when the input holds ``"bounding_boxes"``.
        factor: not used by this layer (accepted by the image layers' shared signature); any value but None is refused.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: ``(batch, height, width, channels)`` or ``(height, width, channels)`` (channels first
    with ``data_format="channels_first"``). Output shape: the same with the target height and width.

    Raises:
        ValueError: if ``factor`` is given.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(16, dtype="float32"), (1, 4, 4, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.CenterCrop(2, 2)(x))[0, :, :, 0].tolist()
    [[5.0, 6.0], [9.0, 10.0]]
    """

    def __init__(self, height, width, data_format=None, bounding_box_format=None, *, factor=None, **kwargs):
        super().__init__(**kwargs)
        take_base_factor(self, factor, accepted=False)
        who = type(self).__name__
        self.bounding_box_format = check_box_format(bounding_box_format, who)
        self.height = check_size(height, "height", who)
        self.width = check_size(width, "width", who)
        self.data_format = standardize_data_format(data_format)
        self.built = True

    def call(self, inputs):
        if isinstance(inputs, dict):
            return transform_dict(self, inputs, self._crop, self._move_boxes)
        return self._crop(inputs)

    def _move_boxes(self, boxes, height, width):
        if height >= self.height and width >= self.width:
            window = ((height - self.height) // 2, (width - self.width) // 2, self.height, self.width)
        else:
            window = resize_window(height, width, self.height, self.width, crop_to_aspect_ratio=True)
        return window_boxes(boxes, window, self.height, self.width)

    def _crop(self, inputs):
        shape = ops.shape(inputs)
        check_image_rank(shape, type(self).__name__)
        x = ops.cast(inputs, self.compute_dtype)
        rank = len(shape)
        h_axis = rank - 3 if self.data_format == "channels_last" else rank - 2
        in_h, in_w = shape[h_axis], shape[h_axis + 1]
        if in_h >= self.height and in_w >= self.width:
            top, left = (in_h - self.height) // 2, (in_w - self.width) // 2
            x = ops.take(x, np.arange(top, top + self.height, dtype="int32"), axis=h_axis)
            return ops.take(x, np.arange(left, left + self.width, dtype="int32"), axis=h_axis + 1)
        return ops.image.resize(x, (self.height, self.width), crop_to_aspect_ratio=True, data_format=self.data_format)

    def compute_output_shape(self, input_shape):
        return resized_shape(input_shape, self.height, self.width, self.data_format, type(self).__name__)

    def compute_output_spec(self, inputs, *args, **kwargs):
        return KerasTensor(self.compute_output_shape(inputs.shape), self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width, "data_format": self.data_format})
        if self.bounding_box_format is not None:
            config["bounding_box_format"] = self.bounding_box_format
        return config
