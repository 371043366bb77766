"""Overlap of bounding boxes: ``compute_iou`` (every pair of two sets) and ``compute_ciou`` (box by box).

>>> import numpy as np
>>> import highlevel as hl
>>> a = np.array([[0.0, 0.0, 2.0, 2.0]])
>>> b = np.array([[1.0, 1.0, 3.0, 3.0], [0.0, 0.0, 2.0, 2.0]])
>>> [round(v, 4) for v in hl.ops.convert_to_numpy(compute_iou(a, b, "xyxy"))[0].tolist()]
[0.1429, 1.0]
"""

import math

from highlevel import ops

from .formats import check_format, convert_format


def _epsilon():
    from highlevel.config import epsilon

    return epsilon()


def _size(bounding_box_format, image_shape, what):
    if "rel" in bounding_box_format and image_shape is None:
        raise ValueError(
            f"{what} with a relative format ({bounding_box_format!r}) needs `image_shape` (height, width, channels)."
        )
    return (None, None) if image_shape is None else (image_shape[0], image_shape[1])


def compute_iou(boxes1, boxes2, bounding_box_format, use_masking=False, mask_val=-1, image_shape=None):
    """The intersection over union of every box of ``boxes1`` with every box of ``boxes2``.

    Args:
        boxes1: ``(N, 4)`` or ``(batch, N, 4)`` boxes.
        boxes2: ``(M, 4)`` or ``(batch, M, 4)`` boxes.
        bounding_box_format: the format of both (case-insensitive).
        use_masking: give ``mask_val`` to every pair where a box has all its coordinates below 0 (padding boxes).
        mask_val: the value of masked pairs.
        image_shape: ``(height, width, channels)``, needed for relative formats.

    Returns:
        ``(N, M)``, or ``(batch, N, M)`` when either input is batched.
    """
    fmt = check_format(bounding_box_format, "bounding_box_format")
    for name, boxes in (("boxes1", boxes1), ("boxes2", boxes2)):
        if len(ops.shape(boxes)) not in (2, 3):
            raise ValueError(
                f"compute_iou takes (N, 4) or (batch, N, 4) boxes; received {name} of shape {tuple(ops.shape(boxes))}."
            )
    height, width = _size(fmt, image_shape, "compute_iou")
    boxes1 = convert_format(boxes1, source=fmt, target="yxyx", height=height, width=width)
    boxes2 = convert_format(boxes2, source=fmt, target="yxyx", height=height, width=width)
    top1, left1, bottom1, right1 = (ops.squeeze(p, axis=-1) for p in ops.split(boxes1, 4, axis=-1))
    top2, left2, bottom2, right2 = (ops.squeeze(p, axis=-1) for p in ops.split(boxes2, 4, axis=-1))

    def rows(v):
        return ops.expand_dims(v, -1)  # (..., N, 1)

    def cols(v):
        return ops.expand_dims(v, -2)  # (..., 1, M)

    inter_h = ops.maximum(ops.minimum(rows(bottom1), cols(bottom2)) - ops.maximum(rows(top1), cols(top2)), 0.0)
    inter_w = ops.maximum(ops.minimum(rows(right1), cols(right2)) - ops.maximum(rows(left1), cols(left2)), 0.0)
    intersection = inter_h * inter_w
    area1 = (bottom1 - top1) * (right1 - left1)
    area2 = (bottom2 - top2) * (right2 - left2)
    union = rows(area1) + cols(area2) - intersection
    iou = intersection / (union + _epsilon())
    if not use_masking:
        return iou
    background = ops.logical_or(rows(ops.max(boxes1, axis=-1) < 0), cols(ops.max(boxes2, axis=-1) < 0))
    return ops.where(background, ops.cast(mask_val, iou.dtype), iou)


def compute_ciou(boxes1, boxes2, bounding_box_format, image_shape=None):
    """The complete IoU (CIoU) of ``boxes1[i]`` and ``boxes2[i]``: the IoU, less the squared distance of the
    centers over the squared diagonal of the enclosing box, less an aspect-ratio consistency term.

    Args:
        boxes1: ``(..., 4)`` boxes.
        boxes2: ``(..., 4)`` boxes (broadcast against ``boxes1``).
        bounding_box_format: the format of both.
        image_shape: ``(height, width, channels)``, needed for relative formats.

    Returns:
        ``(...)``: one value in ``[-1, 1]`` per pair (1 for identical boxes).
    """
    fmt = check_format(bounding_box_format, "bounding_box_format")
    height, width = _size(fmt, image_shape, "compute_ciou")
    eps = _epsilon()
    boxes1 = convert_format(boxes1, source=fmt, target="xyxy", height=height, width=width)
    boxes2 = convert_format(boxes2, source=fmt, target="xyxy", height=height, width=width)
    x1a, y1a, x2a, y2a = (ops.squeeze(p, axis=-1) for p in ops.split(boxes1, 4, axis=-1))
    x1b, y1b, x2b, y2b = (ops.squeeze(p, axis=-1) for p in ops.split(boxes2, 4, axis=-1))
    wa, ha = x2a - x1a, y2a - y1a + eps
    wb, hb = x2b - x1b, y2b - y1b + eps
    inter = ops.maximum(ops.minimum(x2a, x2b) - ops.maximum(x1a, x1b), 0.0) * ops.maximum(
        ops.minimum(y2a, y2b) - ops.maximum(y1a, y1b), 0.0
    )
    union = wa * ha + wb * hb - inter + eps
    iou = inter / (union + eps)
    enclosing_w = ops.maximum(x2a, x2b) - ops.minimum(x1a, x1b)
    enclosing_h = ops.maximum(y2a, y2b) - ops.minimum(y1a, y1b)
    diagonal2 = enclosing_w**2 + enclosing_h**2 + eps
    centers2 = ((x1a + x2a) / 2 - (x1b + x2b) / 2) ** 2 + ((y1a + y2a) / 2 - (y1b + y2b) / 2) ** 2
    v = (4 / math.pi**2) * (ops.arctan(wb / hb) - ops.arctan(wa / ha)) ** 2
    alpha = v / (v - iou + (1 + eps))
    return iou - (centers2 / diagonal2 + v * alpha)
