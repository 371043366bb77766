"""``hl.utils.bounding_boxes`` against ``keras.utils.bounding_boxes``, on every engine."""

import numpy as np
import pytest

import highlevel as hl

bb = hl.utils.bounding_boxes
RNG = np.random.default_rng(0)
FORMATS = ["xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw", "rel_xyxy", "rel_yxyx", "rel_xywh", "rel_center_xywh"]


def _boxes(*shape):
    corner = RNG.uniform(0, 50, shape + (2,))
    size = RNG.uniform(1, 30, shape + (2,))
    return np.concatenate([corner, corner + size], axis=-1).astype("float32")


def _close(ours, theirs, atol=1e-4):
    ours = hl.ops.convert_to_numpy(ours)
    assert ours.shape == np.shape(theirs)
    np.testing.assert_allclose(ours, np.asarray(theirs), atol=atol, rtol=1e-4)


def test_convert_format_between_every_pair(keras, backend):
    boxes = _boxes(2, 5)
    for source in FORMATS:
        for target in FORMATS:
            ours = bb.convert_format(boxes, source, target, height=80, width=100)
            assert hl.ops.is_tensor(ours)
            _close(ours, keras.utils.bounding_boxes.convert_format(boxes, source, target, height=80, width=100))
    as_dict = bb.convert_format({"boxes": boxes, "labels": np.arange(5)}, "xyxy", "xywh")
    assert as_dict["labels"].tolist() == list(range(5))


def test_clip_crop_pad(keras, backend):
    kb = keras.utils.bounding_boxes
    data = {"boxes": _boxes(2, 3) * 2 - 20, "labels": np.array([[1, 2, 3], [4, 5, 6]])}
    ours, theirs = (
        bb.clip_to_image_size(dict(data), height=40, width=50),
        kb.clip_to_image_size(dict(data), height=40, width=50),
    )
    _close(ours["boxes"], theirs["boxes"])
    _close(ours["labels"], theirs["labels"])
    rel = {"boxes": _boxes(4) / 40 - 0.2}
    _close(
        bb.clip_to_image_size(rel, bounding_box_format="rel_xyxy")["boxes"],
        kb.clip_to_image_size(dict(rel), bounding_box_format="rel_xyxy")["boxes"],
    )
    boxes = _boxes(6)
    _close(bb.crop(boxes, 5, 6, 30, 40), kb.crop(boxes, 5, 6, 30, 40))
    _close(bb.pad(boxes, 5, 6), kb.pad(boxes, 5, 6))


def test_affine_transform(keras, backend):
    boxes = _boxes(2, 3)
    zeros = np.zeros(2, "float32")
    args = (np.array([10.0, -30.0], "float32"), zeros + 0.1, zeros - 0.05, zeros + 1.2, zeros + 5, zeros - 3, 80, 100)
    _close(bb.affine_transform(boxes, *args), keras.utils.bounding_boxes.affine_transform(boxes, *args), atol=1e-3)
    _close(
        bb.affine_transform(boxes, *args, center_x=0.2, center_y=0.7),
        keras.utils.bounding_boxes.affine_transform(boxes, *args, center_x=0.2, center_y=0.7),
        atol=1e-3,
    )


@pytest.mark.parametrize("encoding", ["center_yxhw", "center_xywh"])
@pytest.mark.parametrize("variance", [None, [0.1, 0.1, 0.2, 0.2]])
def test_deltas(keras, backend, encoding, variance):
    kb = keras.utils.bounding_boxes
    anchors, boxes = _boxes(4), _boxes(2, 4)
    theirs = kb.encode_box_to_deltas(anchors, boxes, "xyxy", "xyxy", encoding_format=encoding, variance=variance)
    ours = bb.encode_box_to_deltas(anchors, boxes, "xyxy", "xyxy", encoding_format=encoding, variance=variance)
    _close(ours, theirs)
    deltas = np.asarray(theirs)
    _close(
        bb.decode_deltas_to_boxes(anchors, deltas, "xyxy", "center_xywh", encoded_format=encoding, variance=variance),
        kb.decode_deltas_to_boxes(anchors, deltas, "xyxy", "center_xywh", encoded_format=encoding, variance=variance),
    )
    decoded = bb.decode_deltas_to_boxes(anchors, ours, "xyxy", "xyxy", encoded_format=encoding, variance=variance)
    _close(decoded, boxes, atol=1e-3)  # decoding inverts encoding
    levels = bb.decode_deltas_to_boxes(
        {"p3": anchors}, {"p3": deltas}, "xyxy", "xyxy", encoded_format=encoding, variance=variance
    )
    _close(levels["p3"], boxes, atol=1e-3)


def test_iou_and_ciou(keras, backend):
    kb = keras.utils.bounding_boxes
    for first, second in [
        (_boxes(4), _boxes(3)),
        (_boxes(2, 4), _boxes(3)),
        (_boxes(4), _boxes(2, 3)),
        (_boxes(2, 4), _boxes(2, 3)),
    ]:
        _close(bb.compute_iou(first, second, "xyxy"), kb.compute_iou(first, second, "xyxy"))
    masked, other = _boxes(2, 4), _boxes(2, 3)
    masked[0, 1] = -1.0
    _close(
        bb.compute_iou(masked, other, "yxyx", use_masking=True), kb.compute_iou(masked, other, "yxyx", use_masking=True)
    )
    rel = _boxes(3) / 100
    _close(
        bb.compute_iou(rel, rel, "rel_xyxy", image_shape=(100, 100, 3)),
        kb.compute_iou(rel, rel, "rel_xyxy", image_shape=(100, 100, 3)),
    )
    first, second = _boxes(2, 4), _boxes(2, 4)
    for fmt in ("xyxy", "center_xywh"):
        _close(bb.compute_ciou(first, second, fmt), kb.compute_ciou(first, second, fmt))
    identical = hl.ops.convert_to_numpy(bb.compute_ciou(first, first, "xyxy"))
    np.testing.assert_allclose(identical, 1.0, atol=1e-5)


def test_iou_inside_a_model(backend):
    anchors = _boxes(5)
    inputs = hl.Input((3, 4))
    iou = hl.layers.Lambda(lambda b: bb.compute_iou(b, anchors, "xyxy"))(inputs)
    model = hl.Model(inputs, iou)
    boxes = _boxes(2, 3)
    np.testing.assert_allclose(
        model.predict(boxes, verbose=0), hl.ops.convert_to_numpy(bb.compute_iou(boxes, anchors, "xyxy")), atol=1e-6
    )


def test_errors():
    with pytest.raises(ValueError, match="Unknown bounding box source format"):
        bb.convert_format(_boxes(2), "xyz", "xyxy")
    with pytest.raises(ValueError, match="last axis of 4"):
        bb.convert_format(np.zeros((2, 3)), "xyxy", "xywh")
    with pytest.raises(ValueError, match="`height` and `width`"):
        bb.convert_format(_boxes(2), "xyxy", "rel_xyxy")
    with pytest.raises(NotImplementedError, match="convert_format"):
        bb.crop(_boxes(2), 0, 0, 10, 10, bounding_box_format="xywh")
    with pytest.raises(ValueError, match="image_shape"):
        bb.compute_iou(_boxes(2), _boxes(2), "rel_xyxy")
    with pytest.raises(ValueError, match="variance"):
        bb.encode_box_to_deltas(_boxes(2), _boxes(2), "xyxy", "xyxy", variance=[1.0, 2.0])
    with pytest.raises(ValueError, match="encoding_format"):
        bb.encode_box_to_deltas(_boxes(2), _boxes(2), "xyxy", "xyxy", encoding_format="xyxy")
    with pytest.raises(ValueError, match=r"\(batch, N, 4\)"):
        bb.affine_transform(_boxes(2), 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 10, 10)
