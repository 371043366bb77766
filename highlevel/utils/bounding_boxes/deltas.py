"""The box encoding of anchor-based detectors: boxes as offsets from anchors (``encode_box_to_deltas``) and
back (``decode_deltas_to_boxes``).

In the ``"center_yxhw"`` (or ``"center_xywh"``) encoding, a box's deltas from an anchor are its center's offset
divided by the anchor's size, and the log of its size over the anchor's size; each delta is then divided by
``variance`` when given.

>>> import numpy as np
>>> import highlevel as hl
>>> anchors = np.array([[0.0, 0.0, 10.0, 10.0]])
>>> boxes = np.array([[1.0, 2.0, 11.0, 22.0]])
>>> deltas = encode_box_to_deltas(anchors, boxes, anchor_format="xyxy", box_format="xyxy")
>>> [round(v, 4) for v in hl.ops.convert_to_numpy(deltas)[0].tolist()]
[0.7, 0.1, 0.6931, 0.0]
>>> back = decode_deltas_to_boxes(anchors, deltas, anchor_format="xyxy", box_format="xyxy")
>>> [round(v, 4) for v in hl.ops.convert_to_numpy(back)[0].tolist()]
[1.0, 2.0, 11.0, 22.0]
"""

from highlevel import ops

from .formats import convert_format

_ENCODINGS = ("center_xywh", "center_yxhw")


def _variance(variance):
    if variance is None:
        return None
    variance = ops.cast(ops.convert_to_tensor(variance), "float32")
    if tuple(ops.shape(variance))[-1:] != (4,):
        raise ValueError(f"`variance` must hold 4 values, one per coordinate; received {variance!r}.")
    return variance


def _size(image_shape):
    if image_shape is None:
        return None, None
    return image_shape[0], image_shape[1]


def encode_box_to_deltas(
    anchors, boxes, anchor_format, box_format, encoding_format="center_yxhw", variance=None, image_shape=None
):
    """Encodes boxes as deltas from their anchors.

    Args:
        anchors: ``(N, 4)`` anchor boxes.
        boxes: ``(N, 4)`` or ``(batch, N, 4)`` boxes, one per anchor.
        anchor_format: the anchors' format.
        box_format: the boxes' format.
        encoding_format: ``"center_yxhw"`` or ``"center_xywh"``: the order of the deltas.
        variance: 4 values the deltas are divided by, or None.
        image_shape: ``(height, width, channels)``, needed for relative formats.

    Returns:
        The deltas, shaped like ``boxes``.
    """
    variance = _variance(variance)
    if encoding_format not in _ENCODINGS:
        raise ValueError(f"`encoding_format` must be one of {_ENCODINGS}; received {encoding_format!r}.")
    height, width = _size(image_shape)
    anchors = convert_format(anchors, source=anchor_format, target=encoding_format, height=height, width=width)
    boxes = convert_format(boxes, source=box_format, target=encoding_format, height=height, width=width)
    from highlevel.config import epsilon

    anchor_size = ops.maximum(anchors[..., 2:], epsilon())
    box_size = ops.maximum(boxes[..., 2:], epsilon())
    deltas = ops.concatenate(
        [(boxes[..., :2] - anchors[..., :2]) / anchor_size, ops.log(box_size / anchor_size)], axis=-1
    )
    return deltas / variance if variance is not None else deltas


def decode_deltas_to_boxes(
    anchors, boxes_delta, anchor_format, box_format, encoded_format="center_yxhw", variance=None, image_shape=None
):
    """Decodes deltas from anchors back into boxes.

    Args:
        anchors: ``(N, 4)`` anchor boxes, or a dict of them per feature level.
        boxes_delta: ``(N, 4)`` or ``(batch, N, 4)`` deltas (a dict with the same keys for dict anchors).
        anchor_format: the anchors' format.
        box_format: the format of the boxes returned.
        encoded_format: ``"center_yxhw"`` or ``"center_xywh"``: the order of the deltas.
        variance: 4 values the deltas are multiplied by first, or None.
        image_shape: ``(height, width, channels)``, needed for relative formats.

    Returns:
        The boxes in ``box_format`` (a dict of them for dict anchors).
    """
    variance = _variance(variance)
    if encoded_format not in _ENCODINGS:
        raise ValueError(f"`encoded_format` must be one of {_ENCODINGS}; received {encoded_format!r}.")
    height, width = _size(image_shape)

    def decode(anchor, delta):
        anchor = convert_format(anchor, source=anchor_format, target=encoded_format, height=height, width=width)
        delta = ops.cast(ops.convert_to_tensor(delta), "float32")
        if variance is not None:
            delta = delta * variance
        box = ops.concatenate(
            [delta[..., :2] * anchor[..., 2:] + anchor[..., :2], ops.exp(delta[..., 2:]) * anchor[..., 2:]], axis=-1
        )
        return convert_format(box, source=encoded_format, target=box_format, height=height, width=width)

    if isinstance(anchors, dict):
        if not isinstance(boxes_delta, dict) or set(boxes_delta) != set(anchors):
            raise ValueError("With a dict of anchors, `boxes_delta` must be a dict with the same keys (one per level).")
        return {level: decode(anchors[level], boxes_delta[level]) for level in anchors}
    return decode(anchors, boxes_delta)
