"""MaxNumBoundingBoxes: pads or truncates the bounding boxes of a batch to a fixed number."""

import numbers

from highlevel import ops
from highlevel.config import standardize_data_format
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._image_base import take_base_factor


def _check_int(value, name, who, minimum=None):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or (minimum is not None and value < minimum):
        more = f" >= {minimum}" if minimum is not None else ""
        raise ValueError(
            f"Invalid value received for argument `{name}` of {who}. Expected an int{more}. Received: {name}={value!r}"
        )
    return int(value)


class MaxNumBoundingBoxes(Layer):
    """Gives every image of a batch exactly ``max_number`` bounding boxes (``keras.layers.MaxNumBoundingBoxes``).

    Called on a dict ``{"images": ..., "bounding_boxes": {"boxes": (batch, n, 4), "labels": (batch, n)}}``, it
    keeps the first ``max_number`` boxes and labels, or pads them with ``fill_value``; the images and any other
    entries pass through. Called on images alone, it returns them unchanged. Deterministic (no ``training``
    difference).

    Args:
        max_number: int >= 1, the number of boxes per image.
        fill_value: int, the value of the padding boxes and labels. Default -1.
        bounding_box_format: the boxes' format (``"xyxy"``, ``"yxyx"``, ``"xywh"``, ...): required with boxes, as
            in Keras; the boxes are not converted.
        data_format: ``"channels_last"`` or ``"channels_first"`` (None: the configured default), the layout of
            images passed along with the boxes; kept in the config, as in Keras.
        factor: accepted and stored as ``layer.factor`` for Keras compatibility; it has no effect here.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    >>> import numpy as np, highlevel as hl
    >>> boxes = {"boxes": np.ones((1, 2, 4), "float32"), "labels": np.array([[3, 4]])}
    >>> out = hl.layers.MaxNumBoundingBoxes(3, bounding_box_format="xyxy")({"images": np.zeros((1, 2, 2, 1)),
    ...                                                                        "bounding_boxes": boxes})
    >>> hl.ops.convert_to_numpy(out["bounding_boxes"]["labels"]).tolist()
    [[3, 4, -1]]
    """

    def __init__(self, max_number, fill_value=-1, bounding_box_format=None, data_format=None, *, factor=None, **kwargs):
        super().__init__(**kwargs)
        take_base_factor(self, factor, accepted=True)
        self.data_format = standardize_data_format(data_format)
        who = type(self).__name__
        self.max_number = _check_int(max_number, "max_number", who, minimum=1)
        self.fill_value = _check_int(fill_value, "fill_value", who)
        self.bounding_box_format = bounding_box_format
        self.built = True

    def _fit(self, values):
        count = ops.shape(values)[1]
        if count >= self.max_number:
            return ops.take(values, ops.arange(self.max_number, dtype="int32"), axis=1)
        widths = [[0, 0], [0, self.max_number - count]] + [[0, 0]] * (ops.ndim(values) - 2)
        return ops.pad(values, widths, constant_values=ops.cast(self.fill_value, values.dtype))

    def call(self, inputs):
        if not isinstance(inputs, dict) or "bounding_boxes" not in inputs:
            return inputs
        if self.bounding_box_format is None:
            raise ValueError(
                f"{type(self).__name__} received bounding boxes but no `bounding_box_format`. Pass one, e.g. "
                f"{type(self).__name__}({self.max_number}, bounding_box_format='xyxy')."
            )
        boxes = inputs["bounding_boxes"]
        extra = set(boxes) - {"boxes", "labels"}
        if extra:
            raise ValueError(
                f"{type(self).__name__} handles the `boxes` and `labels` of `bounding_boxes`; received the other "
                f"keys {sorted(extra)}. Remove them."
            )
        out = dict(inputs)
        out["bounding_boxes"] = {key: self._fit(value) for key, value in boxes.items()}
        return out

    def compute_output_spec(self, inputs, *args, **kwargs):
        if not isinstance(inputs, dict) or "bounding_boxes" not in inputs:
            return inputs
        out = dict(inputs)
        out["bounding_boxes"] = {
            key: KerasTensor((v.shape[0], self.max_number, *v.shape[2:]), v.dtype)
            for key, v in inputs["bounding_boxes"].items()
        }
        return out

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "max_number": self.max_number,
                "fill_value": self.fill_value,
                "bounding_box_format": self.bounding_box_format,
                "data_format": self.data_format,
            }
        )
        return config
