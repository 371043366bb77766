"""``convert_format``: bounding boxes from one coordinate format to another.

Absolute formats (pixels): ``"xyxy"`` (left, top, right, bottom), ``"yxyx"`` (top, left, bottom, right),
``"xywh"`` (left, top, width, height), ``"center_xywh"`` (center x, center y, width, height),
``"center_yxhw"`` (center y, center x, height, width). Relative formats (fractions of the image's width and
height): ``"rel_xyxy"``, ``"rel_yxyx"``, ``"rel_xywh"``, ``"rel_center_xywh"``.

>>> import numpy as np
>>> import highlevel as hl
>>> boxes = np.array([[10.0, 20.0, 30.0, 40.0]])
>>> out = convert_format(boxes, source="xyxy", target="rel_center_xywh", height=100, width=200)
>>> [round(v, 3) for v in hl.ops.convert_to_numpy(out)[0].tolist()]
[0.1, 0.3, 0.1, 0.2]
"""

from highlevel import ops

SUPPORTED_FORMATS = (
    "xyxy",
    "yxyx",
    "xywh",
    "center_xywh",
    "center_yxhw",
    "rel_xyxy",
    "rel_yxyx",
    "rel_xywh",
    "rel_center_xywh",
)


def _parts(boxes):
    return ops.split(boxes, 4, axis=-1)


def _to_xyxy(boxes, source, height, width):
    a, b, c, d = _parts(boxes)
    if source == "xyxy":
        return boxes
    if source == "yxyx":
        return ops.concatenate([b, a, d, c], axis=-1)
    if source == "xywh":
        return ops.concatenate([a, b, a + c, b + d], axis=-1)
    if source == "center_xywh":
        return ops.concatenate([a - c / 2.0, b - d / 2.0, a + c / 2.0, b + d / 2.0], axis=-1)
    if source == "center_yxhw":
        return ops.concatenate([b - d / 2.0, a - c / 2.0, b + d / 2.0, a + c / 2.0], axis=-1)
    if source == "rel_xyxy":
        return ops.concatenate([a * width, b * height, c * width, d * height], axis=-1)
    if source == "rel_yxyx":
        return ops.concatenate([b * width, a * height, d * width, c * height], axis=-1)
    if source == "rel_xywh":
        return ops.concatenate([a * width, b * height, (a + c) * width, (b + d) * height], axis=-1)
    # rel_center_xywh
    return ops.concatenate(
        [(a - c / 2.0) * width, (b - d / 2.0) * height, (a + c / 2.0) * width, (b + d / 2.0) * height], axis=-1
    )


def _from_xyxy(boxes, target, height, width):
    x1, y1, x2, y2 = _parts(boxes)
    w, h = x2 - x1, y2 - y1
    if target == "xyxy":
        return boxes
    if target == "yxyx":
        return ops.concatenate([y1, x1, y2, x2], axis=-1)
    if target == "xywh":
        return ops.concatenate([x1, y1, w, h], axis=-1)
    if target == "center_xywh":
        return ops.concatenate([x1 + w / 2.0, y1 + h / 2.0, w, h], axis=-1)
    if target == "center_yxhw":
        return ops.concatenate([y1 + h / 2.0, x1 + w / 2.0, h, w], axis=-1)
    if target == "rel_xyxy":
        return ops.concatenate([x1 / width, y1 / height, x2 / width, y2 / height], axis=-1)
    if target == "rel_yxyx":
        return ops.concatenate([y1 / height, x1 / width, y2 / height, x2 / width], axis=-1)
    if target == "rel_xywh":
        return ops.concatenate([x1 / width, y1 / height, w / width, h / height], axis=-1)
    # rel_center_xywh
    return ops.concatenate([(x1 + w / 2.0) / width, (y1 + h / 2.0) / height, w / width, h / height], axis=-1)


def check_format(name, argument="format"):
    """The lower-case format name, or a ValueError listing the supported ones."""
    if not isinstance(name, str) or name.lower() not in SUPPORTED_FORMATS:
        raise ValueError(f"Unknown bounding box {argument} {name!r}; expected one of {SUPPORTED_FORMATS}.")
    return name.lower()


def convert_format(boxes, source, target, height=None, width=None, dtype="float32"):
    """Converts bounding boxes from the ``source`` format to the ``target`` format.

    Args:
        boxes: boxes with a last axis of 4 (``(N, 4)``, ``(batch, N, 4)``, ...), or a dict with a ``"boxes"``
            entry (and e.g. ``"labels"``), whose boxes are converted.
        source: the format of ``boxes`` (case-insensitive).
        target: the format to convert to.
        height: the image height, needed when one format is relative and the other absolute.
        width: the image width, likewise.
        dtype: the dtype of the result.

    Returns:
        The converted boxes (a tensor), or a copy of the dict with its ``"boxes"`` converted.
    """
    if isinstance(boxes, dict):
        out = dict(boxes)
        out["boxes"] = convert_format(boxes["boxes"], source, target, height=height, width=width, dtype=dtype)
        return out
    source, target = check_format(source, "source format"), check_format(target, "target format")
    shape = ops.shape(boxes)
    if not shape or shape[-1] != 4:
        raise ValueError(f"`boxes` must have a last axis of 4 coordinates; received boxes of shape {tuple(shape)}.")
    if source.startswith("rel_") and target.startswith("rel_"):
        source, target = source[4:], target[4:]
    elif (source.startswith("rel_") or target.startswith("rel_")) and (height is None or width is None):
        raise ValueError(
            f"Converting between a relative and an absolute format ({source!r} to {target!r}) needs the image "
            f"`height` and `width`; received height={height!r}, width={width!r}."
        )
    boxes = ops.cast(boxes, dtype)
    if source == target:
        return boxes
    height = None if height is None else ops.cast(height, dtype)
    width = None if width is None else ops.cast(width, dtype)
    return _from_xyxy(_to_xyxy(boxes, source, height, width), target, height, width)
