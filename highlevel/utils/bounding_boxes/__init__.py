"""``hl.utils.bounding_boxes``: converting, clipping, cropping, padding and transforming bounding boxes, the
box-to-anchor delta encoding of detectors, and IoU / CIoU.

Boxes are arrays or tensors whose last axis holds 4 coordinates, in one of the formats of
:data:`~highlevel.utils.bounding_boxes.formats.SUPPORTED_FORMATS`. Every function is written with ``hl.ops``:
it takes numpy arrays or tensors of the current engine, returns tensors of the current engine, and works inside a
model or a compiled step.

>>> import numpy as np
>>> import highlevel as hl
>>> boxes = np.array([[10.0, 20.0, 30.0, 40.0]])
>>> hl.ops.convert_to_numpy(convert_format(boxes, source="xyxy", target="xywh")).tolist()
[[10.0, 20.0, 20.0, 20.0]]
"""

from .deltas import decode_deltas_to_boxes, encode_box_to_deltas
from .formats import convert_format
from .geometry import affine_transform, clip_to_image_size, crop, pad
from .iou import compute_ciou, compute_iou

__all__ = [
    "affine_transform",
    "clip_to_image_size",
    "compute_ciou",
    "compute_iou",
    "convert_format",
    "crop",
    "decode_deltas_to_boxes",
    "encode_box_to_deltas",
    "pad",
]
