"""``draw_bounding_boxes``: boxes (and optional class labels) drawn into a batch of images.

>>> import numpy as np, highlevel as hl
>>> images = np.zeros((1, 8, 8, 3), "uint8")
>>> boxes = {"boxes": np.array([[[1, 1, 6, 5]]]), "labels": np.array([[0]])}
>>> out = hl.visualization.draw_bounding_boxes(images, boxes, "xyxy", color=(255, 0, 0), line_thickness=1)
>>> out[0, 1, 1:7, 0].tolist(), out[0, 3, 2, 0]
([255, 255, 255, 255, 255, 255], np.uint8(0))
"""

import numpy as np

from highlevel import ops
from highlevel.utils.bounding_boxes import convert_format

from ._common import batch_of_images, data_format_of


def _fill(image, y0, y1, x0, x1, color):
    """Sets the pixels of rows y0..y1 and columns x0..x1 (inclusive, clipped to the image) to ``color``."""
    h, w = image.shape[:2]
    y0, y1, x0, x1 = max(y0, 0), min(y1, h - 1), max(x0, 0), min(x1, w - 1)
    if y0 <= y1 and x0 <= x1:
        image[y0 : y1 + 1, x0 : x1 + 1] = color


def _disk(image, cy, cx, r, color):
    """Sets the pixels within distance ``r`` of ``(cy, cx)`` (``dx**2 + dy**2 <= r**2``) to ``color``."""
    h, w = image.shape[:2]
    y0, y1, x0, x1 = max(cy - r, 0), min(cy + r, h - 1), max(cx - r, 0), min(cx + r, w - 1)
    if y0 > y1 or x0 > x1:
        return
    yy, xx = np.mgrid[y0 : y1 + 1, x0 : x1 + 1]
    image[y0 : y1 + 1, x0 : x1 + 1][(yy - cy) ** 2 + (xx - cx) ** 2 <= r * r] = color


def draw_rectangle(image, x1, y1, x2, y2, color, thickness):
    """Draws the outline of the box with corners ``(x1, y1)`` and ``(x2, y2)`` into ``image`` (H, W, C), in place.

    The pixels are those of OpenCV's ``rectangle``: a line of width 1 on the box's edges for ``thickness`` 1;
    for a larger thickness, bands of half-width ``(thickness + 1) // 2`` along the edges with rounded
    corners; a negative thickness fills the box.
    """
    x1, x2 = min(x1, x2), max(x1, x2)
    y1, y2 = min(y1, y2), max(y1, y2)
    if thickness < 0:
        _fill(image, y1, y2, x1, x2, color)
        return
    r = (thickness + 1) // 2 if thickness > 1 else 0
    _fill(image, y1 - r, y1 + r, x1, x2, color)
    _fill(image, y2 - r, y2 + r, x1, x2, color)
    _fill(image, y1, y2, x1 - r, x1 + r, color)
    _fill(image, y1, y2, x2 - r, x2 + r, color)
    if r:
        for cy, cx in ((y1, x1), (y1, x2), (y2, x1), (y2, x2)):
            _disk(image, cy, cx, r, color)


def _text_origin(x, y, font_scale, thickness):
    """Where a label's baseline starts: above the box, or inside it when there is no room above."""
    font_height = int(font_scale * 12)
    if y - 8 - 2 * font_height > 0:
        return x, y - 8
    return x + 3, y + 2 * font_height + thickness + 3


def _draw_text(image, text, origin, color, font_scale, thickness):
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as error:
        raise ImportError(
            "Drawing class labels (class_mapping) needs Pillow: install it with `pip install pillow` "
            "(the `image` extra of highlevel), or pass class_mapping=None to draw the boxes only."
        ) from error
    channels = image.shape[-1]
    mode = {1: "L", 3: "RGB", 4: "RGBA"}.get(channels)
    if mode is None:
        return  # no text on images of other channel counts; the boxes are drawn all the same
    canvas = Image.fromarray(image[..., 0] if channels == 1 else image, mode)
    font = ImageFont.load_default(size=max(int(round(20 * font_scale)), 1))
    fill = int(color[0]) if channels == 1 else tuple(int(c) for c in color)
    ImageDraw.Draw(canvas).text(
        origin, text, fill=fill, font=font, anchor="ls", stroke_width=max(int(thickness) - 1, 0) // 2, stroke_fill=fill
    )
    drawn = np.asarray(canvas)
    image[...] = drawn[..., None] if channels == 1 else drawn


def draw_bounding_boxes(
    images,
    bounding_boxes,
    bounding_box_format,
    class_mapping=None,
    color=(128, 128, 128),
    line_thickness=2,
    text_thickness=1,
    font_scale=1.0,
    data_format=None,
):
    """Draws bounding boxes, and optionally their class labels and confidences, on a batch of images.

    Float images with a maximum of at most 1 are taken to be in ``[0, 1]`` and scaled to ``[0, 255]``;
    others are clipped to ``[0, 255]``. Boxes whose label is ``-1`` (padding) are skipped. The box outlines
    are pixel for pixel those Keras draws; labels are written with Pillow's default font (Keras uses
    OpenCV's), so their glyphs differ.

    Args:
        images: a batch of images, ``(batch, height, width, channels)`` (or channels first).
        bounding_boxes: a dict with ``"boxes"`` ``(batch, num_boxes, 4)``, ``"labels"`` ``(batch, num_boxes)``
            and optionally ``"confidences"`` ``(batch, num_boxes)``.
        bounding_box_format: the format of the boxes (``"xyxy"``, ``"yxyx"``, ``"xywh"``, ``"center_xywh"``,
            ``"rel_xyxy"``, ... see ``hl.utils.bounding_boxes.convert_format``).
        class_mapping: a dict from class id to the name written above its boxes; None writes no labels.
        color: the RGB color of the boxes and labels.
        line_thickness: the width of the box outlines in pixels (a negative value fills the boxes).
        text_thickness: the stroke of the labels; None or 0 takes ``line_thickness``.
        font_scale: the size of the labels' font (1.0: about 20 pixels).
        data_format: ``"channels_last"`` or ``"channels_first"``; defaults to ``hl.config.image_data_format()``.

    Returns:
        A uint8 numpy array of the images with the boxes drawn, in the layout of ``images``.

    Raises:
        ValueError: for images that are not a 4D batch, or a dict without ``"boxes"`` and ``"labels"``.
        TypeError: when ``bounding_boxes`` is not a dict.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> images = np.zeros((1, 8, 8, 3), "float32")
    >>> boxes = {"boxes": np.array([[[1, 1, 6, 6]]]), "labels": np.array([[0]])}
    >>> drawn = hl.visualization.draw_bounding_boxes(images, boxes, "xyxy", color=(255, 0, 0), line_thickness=1)
    >>> drawn.dtype, drawn[0, 1, 1].tolist(), drawn[0, 3, 3].tolist()  # a corner of the outline, the inside
    (dtype('uint8'), [255, 0, 0], [0, 0, 0])
    """
    class_mapping = class_mapping or {}
    text_thickness = text_thickness or line_thickness
    data_format = data_format_of(data_format)
    images = batch_of_images(images)
    if not isinstance(bounding_boxes, dict):
        raise TypeError(
            f"`bounding_boxes` must be a dict with 'boxes' and 'labels' (and optionally "
            f"'confidences'); received an object of type {type(bounding_boxes).__name__}."
        )
    if "boxes" not in bounding_boxes or "labels" not in bounding_boxes:
        raise ValueError(
            f"`bounding_boxes` must have the keys 'boxes' and 'labels'; received the keys {sorted(bounding_boxes)}."
        )
    if data_format == "channels_first":
        images = images.transpose(0, 2, 3, 1)
    height, width = images.shape[1], images.shape[2]
    boxes = convert_format(bounding_boxes["boxes"], bounding_box_format, "xyxy", height=height, width=width)
    boxes = np.asarray(ops.convert_to_numpy(boxes))
    labels = np.asarray(ops.convert_to_numpy(bounding_boxes["labels"]))
    confidences = bounding_boxes.get("confidences")
    confidences = None if confidences is None else np.asarray(ops.convert_to_numpy(confidences))

    if images.dtype.kind == "f" and images.size > 0:
        images = np.clip(images, 0, 1) * 255 if images.max() <= 1.0 else np.clip(images, 0, 255)
    images = images.astype("uint8")  # a copy: the caller's array is never drawn on
    channels = images.shape[-1]
    paint = np.zeros(channels, "uint8")
    given = np.asarray(color, "int64").reshape(-1)[:channels]
    paint[: len(given)] = given
    for i in range(images.shape[0]):
        for j in range(boxes.shape[1]):
            label = int(labels[i][j])
            if label == -1:
                continue
            x1, y1, x2, y2 = (int(v) for v in boxes[i][j].astype("int32"))
            draw_rectangle(images[i], x1, y1, x2, y2, paint, line_thickness)
            if label in class_mapping:
                text = str(class_mapping[label])
                if confidences is not None:
                    text = f"{text} | {float(confidences[i][j]):.2f}"
                _draw_text(
                    images[i], text, _text_origin(x1, y1, font_scale, text_thickness), paint, font_scale, text_thickness
                )
    if data_format == "channels_first":
        images = images.transpose(0, 3, 1, 2)
    return images
