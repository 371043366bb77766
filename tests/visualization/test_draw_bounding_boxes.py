"""draw_bounding_boxes: the box pixels are Keras's (OpenCV's), for every format, thickness and backend."""

import numpy as np
import pytest

import highlevel as hl

# OpenCV's rectangle of thickness 2 from (3, 3) to (11, 9): a 3-pixel band with its outer corners cut.
THICK_2 = """
................
................
...#########....
..###########...
..###########...
..###.....###...
..###.....###...
..###.....###...
..###########...
..###########...
...#########....
................
"""


def _boxes(rng, batch, n, size):
    xy = rng.integers(-4, size + 4, (batch, n, 4))
    return {"boxes": xy.astype("float32"), "labels": rng.integers(-1, 3, (batch, n))}


def test_a_thick_box_has_opencvs_shape(backend):
    images = hl.ops.zeros((1, 12, 16, 1))
    boxes = {"boxes": hl.ops.convert_to_tensor([[[3.0, 3.0, 11.0, 9.0]]]), "labels": np.array([[1]])}
    out = hl.visualization.draw_bounding_boxes(images, boxes, "xyxy", color=(255,), line_thickness=2)
    drawn = "\n".join("".join("#" if v else "." for v in row) for row in out[0, ..., 0])
    assert drawn == THICK_2.strip()
    assert out.dtype == np.uint8 and out.shape == (1, 12, 16, 1)


@pytest.mark.parametrize("fmt", ["xyxy", "yxyx", "xywh", "center_xywh", "rel_xyxy"])
@pytest.mark.parametrize("thickness", [1, 2, 3, 5])
def test_box_pixels_match_keras(keras, backend, fmt, thickness):
    pytest.importorskip("cv2")  # Keras draws with OpenCV
    rng = np.random.default_rng(thickness)
    images = rng.integers(0, 256, (2, 20, 24, 3)).astype("uint8")
    boxes = _boxes(rng, 2, 4, 24)
    boxes["boxes"] = keras.utils.bounding_boxes.convert_format(boxes["boxes"], "xyxy", fmt, height=20, width=24)
    boxes["boxes"] = np.asarray(boxes["boxes"])
    want = keras.visualization.draw_bounding_boxes(
        images, dict(boxes), fmt, color=(255, 10, 0), line_thickness=thickness
    )
    got = hl.visualization.draw_bounding_boxes(
        hl.ops.convert_to_tensor(images), boxes, fmt, color=(255, 10, 0), line_thickness=thickness
    )
    np.testing.assert_array_equal(got, want)
    assert (got != images).any()  # boxes were drawn
    assert boxes["boxes"].dtype == np.float32  # the caller's data is left alone


def test_float_images_channels_first_and_padding_labels(backend):
    images = np.full((1, 3, 6, 6), 0.5, "float32")  # [0, 1] floats, channels first
    boxes = {"boxes": np.array([[[0, 0, 5, 5], [1, 1, 4, 4]]], "float32"), "labels": np.array([[0, -1]])}
    out = hl.visualization.draw_bounding_boxes(
        images, boxes, "xyxy", color=(0, 255, 0), line_thickness=1, data_format="channels_first"
    )
    assert out.shape == (1, 3, 6, 6) and out.dtype == np.uint8
    assert out[0, :, 0, 0].tolist() == [0, 255, 0]  # the first box's corner
    assert out[0, :, 1, 1].tolist() == [127, 127, 127]  # the padded (-1) box is not drawn


def test_labels_are_written_above_the_box(backend):
    pytest.importorskip("PIL")
    images = np.zeros((1, 64, 64, 3), "uint8")
    boxes = {"boxes": np.array([[[10, 40, 50, 60]]]), "labels": np.array([[2]]), "confidences": np.array([[0.9]])}
    plain = hl.visualization.draw_bounding_boxes(images, boxes, "xyxy", line_thickness=1)
    labelled = hl.visualization.draw_bounding_boxes(images, boxes, "xyxy", line_thickness=1, class_mapping={2: "cat"})
    text = (labelled != plain).any(axis=-1)[0]
    assert text.any() and text[:32].any() and not text[41:].any()  # ink above the box's top edge only


def test_bad_arguments_say_what_was_received():
    with pytest.raises(ValueError, match=r"4D tensor .*received images.shape=\(4, 4, 3\)"):
        hl.visualization.draw_bounding_boxes(np.zeros((4, 4, 3)), {"boxes": [], "labels": []}, "xyxy")
    with pytest.raises(TypeError, match="must be a dict"):
        hl.visualization.draw_bounding_boxes(np.zeros((1, 4, 4, 3)), [[0, 0, 1, 1]], "xyxy")
    with pytest.raises(ValueError, match="'boxes' and 'labels'"):
        hl.visualization.draw_bounding_boxes(np.zeros((1, 4, 4, 3)), {"boxes": np.zeros((1, 1, 4))}, "xyxy")
