"""Moving bounding boxes with their image: ``clip_to_image_size``, ``crop``, ``pad`` and ``affine_transform``.

>>> import numpy as np
>>> import highlevel as hl
>>> boxes = np.array([[10.0, 20.0, 50.0, 60.0]])
>>> hl.ops.convert_to_numpy(crop(boxes, top=10, left=20, height=40, width=30)).tolist()
[[0.0, 10.0, 30.0, 40.0]]
"""

import math

from highlevel import ops

from .formats import check_format


def _only_xyxy(bounding_box_format, what):
    if check_format(bounding_box_format, "bounding_box_format") != "xyxy":
        raise NotImplementedError(
            f"{what} works on 'xyxy' boxes; received bounding_box_format={bounding_box_format!r}. Convert the boxes "
            "with hl.utils.bounding_boxes.convert_format(boxes, source=..., target='xyxy') first."
        )


def clip_to_image_size(bounding_boxes, height=None, width=None, bounding_box_format="xyxy"):
    """Clips boxes to the image, and marks the boxes left with no area.

    Args:
        bounding_boxes: a dict with ``"boxes"`` (``(N, 4)`` or ``(batch, N, 4)``) and optionally ``"labels"``
            (``(N,)`` or ``(batch, N)``).
        height: the image height (needed for ``"xyxy"``).
        width: the image width (needed for ``"xyxy"``).
        bounding_box_format: ``"xyxy"`` (clipped to ``[0, width] x [0, height]``) or ``"rel_xyxy"`` (to
            ``[0, 1]``).

    Returns:
        A copy of the dict with the clipped boxes; the label of every box whose clipped area is 0 becomes -1.
    """
    fmt = check_format(bounding_box_format, "bounding_box_format")
    if fmt not in ("xyxy", "rel_xyxy"):
        raise NotImplementedError(
            f"clip_to_image_size works on 'xyxy' or 'rel_xyxy' boxes; received bounding_box_format={fmt!r}."
        )
    if not isinstance(bounding_boxes, dict) or "boxes" not in bounding_boxes:
        raise ValueError("clip_to_image_size takes a dict with a 'boxes' entry (and optionally 'labels').")
    if fmt == "xyxy" and (height is None or width is None):
        raise ValueError("clip_to_image_size needs `height` and `width` for 'xyxy' boxes.")
    boxes = ops.convert_to_tensor(bounding_boxes["boxes"])
    x1, y1, x2, y2 = ops.split(boxes, 4, axis=-1)
    top_x, top_y = (1.0, 1.0) if fmt == "rel_xyxy" else (width, height)
    x1, x2 = ops.clip(x1, 0, top_x), ops.clip(x2, 0, top_x)
    y1, y2 = ops.clip(y1, 0, top_y), ops.clip(y2, 0, top_y)
    clipped = ops.concatenate([x1, y1, x2, y2], axis=-1)
    out = dict(bounding_boxes)
    out["boxes"] = clipped
    labels = bounding_boxes.get("labels")
    if labels is not None:
        area = ops.squeeze((x2 - x1) * (y2 - y1), axis=-1)
        labels = ops.convert_to_tensor(labels)
        out["labels"] = ops.where(area > 0, labels, ops.cast(-1, labels.dtype))
    return out


def crop(boxes, top, left, height, width, bounding_box_format="xyxy"):
    """Moves boxes into the frame of a crop of the image, clipped to it.

    Args:
        boxes: ``(N, 4)`` or ``(batch, N, 4)`` boxes.
        top: the crop's top row in the image.
        left: the crop's left column in the image.
        height: the crop's height.
        width: the crop's width.
        bounding_box_format: the boxes' format; only ``"xyxy"``.

    Returns:
        The boxes in crop coordinates, clipped to ``[0, width] x [0, height]``.
    """
    _only_xyxy(bounding_box_format, "crop")
    x1, y1, x2, y2 = ops.split(ops.convert_to_tensor(boxes), 4, axis=-1)
    x1, x2 = ops.clip(x1 - left, 0, width), ops.clip(x2 - left, 0, width)
    y1, y2 = ops.clip(y1 - top, 0, height), ops.clip(y2 - top, 0, height)
    return ops.concatenate([x1, y1, x2, y2], axis=-1)


def pad(boxes, top, left, height=None, width=None, bounding_box_format="xyxy"):
    """Moves boxes into the frame of the image padded by ``top`` rows and ``left`` columns.

    Args:
        boxes: ``(N, 4)`` or ``(batch, N, 4)`` boxes.
        top: rows added above the image.
        left: columns added to its left.
        height: the padded image's height (unused; for Keras's signature).
        width: the padded image's width (unused; for Keras's signature).
        bounding_box_format: the boxes' format; only ``"xyxy"``.

    Returns:
        The shifted boxes.
    """
    _only_xyxy(bounding_box_format, "pad")
    x1, y1, x2, y2 = ops.split(ops.convert_to_tensor(boxes), 4, axis=-1)
    return ops.concatenate([x1 + left, y1 + top, x2 + left, y2 + top], axis=-1)


def _per_batch(value, batch, dtype):
    value = ops.cast(ops.convert_to_tensor(value), dtype)
    if len(ops.shape(value)) == 0:
        value = ops.broadcast_to(value, (batch,))
    return value


def affine_transform(
    boxes,
    angle,
    translate_x,
    translate_y,
    scale,
    shear_x,
    shear_y,
    height,
    width,
    center_x=None,
    center_y=None,
    bounding_box_format="xyxy",
):
    """Applies, per image, the rotation, translation, scaling and shear of an affine image transform to boxes.

    Each box's four corners are transformed, and the result is the smallest box that holds them.

    Args:
        boxes: ``(batch, N, 4)`` boxes.
        angle: rotation in degrees, one per image (``(batch,)``) or one for all.
        translate_x: horizontal translation as a fraction of the width.
        translate_y: vertical translation as a fraction of the height.
        scale: the scaling factor.
        shear_x: shear along x, in degrees.
        shear_y: shear along y, in degrees.
        height: the image height.
        width: the image width.
        center_x: the transform's center as a fraction of the width (0.5 when None).
        center_y: the transform's center as a fraction of the height (0.5 when None).
        bounding_box_format: the boxes' format; only ``"xyxy"``.

    Returns:
        The transformed ``(batch, N, 4)`` boxes.
    """
    _only_xyxy(bounding_box_format, "affine_transform")
    boxes = ops.convert_to_tensor(boxes)
    shape = ops.shape(boxes)
    if len(shape) != 3:
        raise ValueError(f"affine_transform takes batched boxes (batch, N, 4); received shape {tuple(shape)}.")
    batch = shape[0]
    dtype = "float32"
    angle, translate_x, translate_y, scale, shear_x, shear_y = (
        _per_batch(v, batch, dtype) for v in (angle, translate_x, translate_y, scale, shear_x, shear_y)
    )
    center_x = 0.5 if center_x is None else center_x
    center_y = 0.5 if center_y is None else center_y
    cx, cy = center_x * (width - 1), center_y * (height - 1)
    rot = -angle * (math.pi / 180.0)
    sx, sy = -shear_x * (math.pi / 180.0), -shear_y * (math.pi / 180.0)
    tx, ty = -translate_x * (width - 1), -translate_y * (height - 1)
    a = ops.cos(rot - sy) / ops.cos(sy)
    b = a * ops.tan(sx) + ops.sin(rot)
    c = -ops.sin(rot - sy) / ops.cos(sy)
    d = ops.cos(rot) - c * ops.tan(sx)
    m00, m01, m10, m11 = d * scale, -b * scale, -c * scale, a * scale
    m02 = cx - m00 * (cx + tx) - m01 * (cy + ty)
    m12 = cy - m10 * (cx + tx) - m11 * (cy + ty)
    boxes = ops.cast(boxes, dtype)
    x1, y1, x2, y2 = (ops.squeeze(p, axis=-1) for p in ops.split(boxes, 4, axis=-1))
    xs = ops.stack([x1, x2, x2, x1], axis=-1)  # (batch, N, 4 corners)
    ys = ops.stack([y1, y1, y2, y2], axis=-1)

    def per_image(v):
        return ops.reshape(v, (batch, 1, 1))

    new_x = per_image(m00) * xs + per_image(m01) * ys + per_image(m02)
    new_y = per_image(m10) * xs + per_image(m11) * ys + per_image(m12)
    return ops.stack(
        [ops.min(new_x, axis=-1), ops.min(new_y, axis=-1), ops.max(new_x, axis=-1), ops.max(new_y, axis=-1)], axis=-1
    )
