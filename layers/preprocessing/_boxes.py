"""Dict inputs of the image layers: ``{"images", "bounding_boxes", "segmentation_masks", "labels"}``.

A geometric layer moves the boxes with the image: they are converted from the layer's ``bounding_box_format`` to
absolute ``xyxy``, moved by the layer's geometry (``move_boxes(boxes, height, width)`` returns the moved boxes and
the output's height and width), clipped to the output image (a box left with no area gets the label -1, as in
Keras), and converted back. Segmentation masks go through the same image transform; the top-level ``labels`` (one
class per image) pass through unchanged.

Box coordinates run along pixel edges, so every map here is the image's own sampling map moved by half a pixel,
and a box follows its pixels exactly. Keras 3 differs in places, on purpose not copied: it rotates and zooms boxes
about the center in pixel indices (half a pixel off), shears them with an approximation in relative coordinates,
and RandomCrop swaps the x and y offsets, does not clip to the window, and leaves the boxes as they are at
inference while the image is resized.
"""

import numpy as np

from highlevel import ops
from highlevel.ops.image import _homography
from highlevel.utils.bounding_boxes import clip_to_image_size, convert_format
from highlevel.utils.bounding_boxes.formats import check_format

KNOWN_KEYS = ("images", "bounding_boxes", "segmentation_masks", "labels")


def check_box_format(bounding_box_format, who):
    """``None`` or the lower-case name of a supported format; a clear error otherwise."""
    if bounding_box_format is None:
        return None
    try:
        return check_format(bounding_box_format, "bounding_box_format")
    except ValueError as error:
        raise ValueError(f"{who}: {error} Received: bounding_box_format={bounding_box_format!r}") from None


def _check_dict(data, layer):
    who = type(layer).__name__
    if "images" not in data:
        raise ValueError(
            f"{who} takes images, or a dict with an 'images' entry (and optionally 'bounding_boxes', "
            f"'segmentation_masks', 'labels'); received a dict with the keys {sorted(data)}."
        )
    boxes = data.get("bounding_boxes")
    if boxes is None:
        return
    if not isinstance(boxes, dict) or "boxes" not in boxes:
        raise ValueError(
            f"{who}: `bounding_boxes` must be a dict with 'boxes' (and 'labels'); received "
            f"{type(boxes).__name__}{' with the keys ' + str(sorted(boxes)) if isinstance(boxes, dict) else ''}."
        )
    if layer.bounding_box_format is None:
        raise ValueError(
            f"{who} received 'bounding_boxes' but was created without a `bounding_box_format`, so it cannot "
            f"read them. Pass the boxes' format, e.g. {who}(..., bounding_box_format='xyxy')."
        )


def _batched(x, unbatched):
    x = ops.convert_to_tensor(x)
    return ops.expand_dims(x, 0) if unbatched else x


def _unbatched(x, unbatched):
    return ops.squeeze(x, 0) if unbatched else x


def transform_dict(layer, data, transform_images, move_boxes=None, transform_masks=True):
    """Runs ``layer``'s transform on every entry of the dict ``data``.

    Args:
        layer: the layer (its ``bounding_box_format``, ``data_format`` and name are read).
        data: the input dict.
        transform_images: ``f(images)`` on a rank-4 batch, with the transformation already drawn.
        move_boxes: ``f(boxes, height, width) -> (boxes, out_height, out_width)`` on absolute ``xyxy`` boxes of
            shape ``(batch, N, 4)``; None leaves the boxes as they are.
        transform_masks: whether segmentation masks follow the image transform (geometric layers) or pass
            through unchanged (color layers).

    Returns:
        A new dict with the same keys.
    """
    _check_dict(data, layer)
    out = dict(data)
    images = ops.convert_to_tensor(data["images"])
    rank = len(ops.shape(images))
    if rank not in (3, 4):
        raise ValueError(
            f"{type(layer).__name__} expects 'images' of rank 3 or 4; received shape {tuple(ops.shape(images))}."
        )
    unbatched = rank == 3
    batch_images = _batched(images, unbatched)
    out["images"] = _unbatched(transform_images(batch_images), unbatched)
    if data.get("segmentation_masks") is not None and transform_masks:
        masks = _batched(data["segmentation_masks"], unbatched)
        out["segmentation_masks"] = _unbatched(transform_images(masks), unbatched)
    if data.get("bounding_boxes") is not None:
        out["bounding_boxes"] = _transform_boxes(layer, data["bounding_boxes"], batch_images, unbatched, move_boxes)
    return out


def _transform_boxes(layer, bounding_boxes, batch_images, unbatched, move_boxes):
    boxes = dict(bounding_boxes)
    boxes["boxes"] = _batched(bounding_boxes["boxes"], unbatched)
    if boxes.get("labels") is not None:
        boxes["labels"] = _batched(boxes["labels"], unbatched)
    if move_boxes is not None:
        shape = ops.shape(batch_images)
        height, width = (shape[1], shape[2]) if layer.data_format == "channels_last" else (shape[2], shape[3])
        fmt = layer.bounding_box_format
        xyxy = convert_format(boxes["boxes"], fmt, "xyxy", height=height, width=width)
        moved, out_h, out_w = move_boxes(xyxy, height, width)
        boxes["boxes"] = moved
        boxes = clip_to_image_size(boxes, height=out_h, width=out_w, bounding_box_format="xyxy")
        boxes["boxes"] = convert_format(boxes["boxes"], "xyxy", fmt, height=out_h, width=out_w)
    for key in ("boxes", "labels"):
        if boxes.get(key) is not None:
            boxes[key] = _unbatched(boxes[key], unbatched)
    return boxes


def shift_and_scale(boxes, left, top, scale_x=1.0, scale_y=1.0):
    """``(x - left) * scale_x`` and ``(y - top) * scale_y`` on ``xyxy`` boxes; the numbers may be per image
    (shape ``(batch,)``)."""

    def per_image(v):
        v = ops.cast(ops.convert_to_tensor(v), boxes.dtype)
        return ops.reshape(v, (-1, 1)) if len(ops.shape(v)) else v

    x1, y1, x2, y2 = (ops.squeeze(p, axis=-1) for p in ops.split(boxes, 4, axis=-1))
    left, top, scale_x, scale_y = (per_image(v) for v in (left, top, scale_x, scale_y))
    return ops.stack(
        [(x1 - left) * scale_x, (y1 - top) * scale_y, (x2 - left) * scale_x, (y2 - top) * scale_y], axis=-1
    )


def window_boxes(boxes, window, out_height, out_width):
    """Boxes of an image whose window ``(top, left, height, width)`` is resized to ``out_height x out_width``."""
    top, left, win_h, win_w = window
    return shift_and_scale(boxes, left, top, out_width / win_w, out_height / win_h), out_height, out_width


def resize_window(height, width, target_height, target_width, crop_to_aspect_ratio=False, pad_to_aspect_ratio=False):
    """The window ``(top, left, height, width)`` of a ``height x width`` image that ``ops.image.resize`` maps onto
    the target: the whole image, its centered crop to the target's aspect ratio, or the image padded to it (a
    negative top or left)."""
    if crop_to_aspect_ratio:
        crop_h = max(min(height, int(np.float32(width * target_height) / np.float32(target_width))), 1)
        crop_w = max(min(width, int(np.float32(height * target_width) / np.float32(target_height))), 1)
        top = int(np.float32(height - crop_h) / np.float32(2))
        left = int(np.float32(width - crop_w) / np.float32(2))
        return top, left, crop_h, crop_w
    if pad_to_aspect_ratio:
        pad_h = max(height, int(np.float32(width * target_height) / np.float32(target_width)))
        pad_w = max(width, int(np.float32(height * target_width) / np.float32(target_height)))
        top = int(np.float32(pad_h - height) / np.float32(2))
        left = int(np.float32(pad_w - width) / np.float32(2))
        return -top, -left, height + 2 * top, width + 2 * left
    return 0, 0, height, width


def affine_boxes(boxes, transform):
    """Boxes moved by the affine image transform ``transform``: the smallest boxes that hold their moved corners.

    ``transform`` holds Keras's rows ``(a0, a1, a2, b0, b1, b2, 0, 0)`` per image (shape ``(batch, 8)``): the
    output pixel ``(x, y)`` samples the input at ``(a0 x + a1 y + a2, b0 x + b1 y + b2)``, in pixel indices. Box
    coordinates run along pixel edges (index + 0.5), and an input point moves by the inverse map.
    """

    def row(i):
        return ops.reshape(ops.cast(transform[:, i], boxes.dtype), (-1, 1, 1))

    a0, a1, a2, b0, b1, b2 = (row(i) for i in range(6))
    det = a0 * b1 - a1 * b0
    x1, y1, x2, y2 = (ops.squeeze(p, axis=-1) for p in ops.split(boxes, 4, axis=-1))
    xs = ops.stack([x1, x2, x2, x1], axis=-1)  # (batch, N, 4 corners)
    ys = ops.stack([y1, y1, y2, y2], axis=-1)
    u, v = xs - 0.5 - a2, ys - 0.5 - b2
    new_x = (b1 * u - a1 * v) / det + 0.5
    new_y = (a0 * v - b0 * u) / det + 0.5
    return ops.stack(
        [ops.min(new_x, axis=-1), ops.min(new_y, axis=-1), ops.max(new_x, axis=-1), ops.max(new_y, axis=-1)], axis=-1
    )


def projective_boxes(boxes, start_points, end_points):
    """Boxes moved by the perspective map that sends ``start_points`` to ``end_points`` (``(batch, 4, 2)``, ``[x, y]``
    in pixel indices, as ``ops.image.perspective_transform`` takes them): the smallest boxes that hold their moved
    corners."""
    # The homography of ops.image.perspective_transform, built the other way round: it sends each start point to
    # its end point. Closed form, so the batch may be dynamic (a tf.data map).
    h = _homography(ops.convert_to_tensor(end_points), ops.convert_to_tensor(start_points), "float32")
    h = ops.cast(h, boxes.dtype)

    def coef(i):
        return ops.reshape(h[:, i], (-1, 1, 1))

    x1, y1, x2, y2 = (ops.squeeze(p, axis=-1) for p in ops.split(boxes, 4, axis=-1))
    xs = ops.stack([x1, x2, x2, x1], axis=-1) - 0.5  # corners, in pixel indices
    ys = ops.stack([y1, y1, y2, y2], axis=-1) - 0.5
    w = coef(6) * xs + coef(7) * ys + 1.0
    new_x = (coef(0) * xs + coef(1) * ys + coef(2)) / w + 0.5
    new_y = (coef(3) * xs + coef(4) * ys + coef(5)) / w + 0.5
    return ops.stack(
        [ops.min(new_x, axis=-1), ops.min(new_y, axis=-1), ops.max(new_x, axis=-1), ops.max(new_y, axis=-1)], axis=-1
    )
