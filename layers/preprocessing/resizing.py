"""Resizing: resizes a batch of images to a target height and width."""

import numbers

from highlevel import ops
from highlevel.config import standardize_data_format
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._boxes import check_box_format, resize_window, transform_dict, window_boxes
from ._image_base import check_choice, check_image_rank, take_base_factor

_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "lanczos3", "lanczos5")


def check_size(value, name, who):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value <= 0:
        raise ValueError(
            f"Invalid value received for argument `{name}` of {who}. Expected a positive integer. "
            f"Received: {name}={value!r}"
        )
    return int(value)


def resized_shape(input_shape, height, width, data_format, who):
    """``input_shape`` with its height and width replaced (rank 3 or 4)."""
    shape = list(input_shape)
    check_image_rank(shape, who)
    h_axis = -3 if data_format == "channels_last" else -2
    shape[h_axis], shape[h_axis + 1] = height, width
    return tuple(shape)


class Resizing(Layer):
    """Resizes images to ``(height, width)`` (``keras.layers.Resizing``).

    Numerics are those of :func:`highlevel.ops.image.resize` (half-pixel centers, like Keras with its
    TensorFlow backend). The output keeps the input's dtype (integer images are rounded).

    Args:
        height: int, the output height.
        width: int, the output width.
        interpolation: ``"bilinear"`` (default), ``"nearest"``, ``"bicubic"``, ``"lanczos3"`` or
            ``"lanczos5"``.
        crop_to_aspect_ratio: if True, resize the largest centered crop with the target's aspect ratio,
            so that the image is not distorted.
        pad_to_aspect_ratio: if True, pad the short side evenly (with ``fill_value``) to the target's
            aspect ratio first.
        fill_mode: the padding mode; only ``"constant"``.
        fill_value: the padding value with ``pad_to_aspect_ratio``.
        antialias: widen the kernel when downsampling so that every input pixel contributes.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        bounding_box_format: the format of the boxes of a dict input (``"xyxy"``, ``"rel_xyxy"``,
            ``"xywh"``, ``"center_xywh"``, ``"yxyx"``, ...); needed only when the input holds ``"bounding_boxes"``.
        factor: not used by this layer (accepted by the image layers' shared signature); any value but None is refused.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: ``(batch, height, width, channels)`` or an unbatched ``(height, width, channels)``
    (channels first with ``data_format="channels_first"``). Output shape: the same with the new height
    and width.

    Raises:
        ValueError: if ``interpolation`` or ``fill_mode`` is unknown, both ``crop_to_aspect_ratio`` and
            ``pad_to_aspect_ratio`` are True, or ``factor`` is given.

    >>> import highlevel as hl
    >>> layer = hl.layers.Resizing(4, 6)
    >>> hl.ops.shape(layer(hl.ops.ones((2, 8, 8, 3))))
    (2, 4, 6, 3)
    """

    def __init__(
        self,
        height,
        width,
        interpolation="bilinear",
        crop_to_aspect_ratio=False,
        pad_to_aspect_ratio=False,
        fill_mode="constant",
        fill_value=0.0,
        antialias=False,
        data_format=None,
        bounding_box_format=None,
        *,
        factor=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        take_base_factor(self, factor, accepted=False)
        who = type(self).__name__
        self.bounding_box_format = check_box_format(bounding_box_format, who)
        self.height = check_size(height, "height", who)
        self.width = check_size(width, "width", who)
        self.interpolation = check_choice(interpolation, "interpolation", _INTERPOLATIONS, who)
        if crop_to_aspect_ratio and pad_to_aspect_ratio:
            raise ValueError(f"{who}: only one of `pad_to_aspect_ratio` and `crop_to_aspect_ratio` can be True.")
        self.crop_to_aspect_ratio = bool(crop_to_aspect_ratio)
        self.pad_to_aspect_ratio = bool(pad_to_aspect_ratio)
        self.fill_mode = check_choice(fill_mode, "fill_mode", ("constant",), who)
        self.fill_value = float(fill_value)
        self.antialias = bool(antialias)
        self.data_format = standardize_data_format(data_format)
        self.built = True

    def call(self, inputs):
        if isinstance(inputs, dict):
            return transform_dict(self, inputs, self._resize, self._move_boxes)
        return self._resize(inputs)

    def _move_boxes(self, boxes, height, width):
        window = resize_window(
            height, width, self.height, self.width, self.crop_to_aspect_ratio, self.pad_to_aspect_ratio
        )
        return window_boxes(boxes, window, self.height, self.width)

    def _resize(self, inputs):
        return ops.image.resize(
            inputs,
            (self.height, self.width),
            interpolation=self.interpolation,
            antialias=self.antialias,
            crop_to_aspect_ratio=self.crop_to_aspect_ratio,
            pad_to_aspect_ratio=self.pad_to_aspect_ratio,
            fill_mode=self.fill_mode,
            fill_value=self.fill_value,
            data_format=self.data_format,
        )

    def compute_output_shape(self, input_shape):
        return resized_shape(input_shape, self.height, self.width, self.data_format, type(self).__name__)

    def compute_output_spec(self, inputs, *args, **kwargs):
        return KerasTensor(self.compute_output_shape(inputs.shape), inputs.dtype)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "height": self.height,
                "width": self.width,
                "interpolation": self.interpolation,
                "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
                "pad_to_aspect_ratio": self.pad_to_aspect_ratio,
                "fill_mode": self.fill_mode,
                "fill_value": self.fill_value,
                "antialias": self.antialias,
                "data_format": self.data_format,
            }
        )
        if self.bounding_box_format is not None:
            config["bounding_box_format"] = self.bounding_box_format
        return config
