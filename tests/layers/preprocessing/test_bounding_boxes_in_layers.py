"""Geometric image layers take ``{"images", "bounding_boxes", "segmentation_masks"}`` dicts and move the boxes with
the image: each box is checked against where its pixels went, on every backend; Keras is the oracle where its
transform is exact (flip, Resizing, CenterCrop)."""

import numpy as np
import pytest

from highlevel import layers, ops
from tests.layers.core.keras_oracle import keras_module

SIZE = 8
#: One solid block per image: rows 2..5, columns 0..3 (pixel edges 2..6 and 0..4), as an xyxy box.
BLOCK_BOX = [0.0, 2.0, 4.0, 6.0]


def _image():
    img = np.zeros((SIZE, SIZE, 1), "float32")
    img[2:6, 0:4, 0] = 1.0
    return img


def _data(batch=2, fmt="xyxy"):
    from highlevel.utils.bounding_boxes import convert_format

    images = np.stack([_image()] * batch)
    boxes = np.array([[BLOCK_BOX]] * batch, "float32")
    boxes = ops.convert_to_numpy(convert_format(boxes, "xyxy", fmt, height=SIZE, width=SIZE))
    labels = np.array([[3]] * batch, "int32")
    return {"images": images, "bounding_boxes": {"boxes": boxes, "labels": labels}, "segmentation_masks": images}


def _pixel_box(image):
    """The xyxy box (along pixel edges) of the pixels above 0.5, or None."""
    rows, cols = np.nonzero(np.asarray(image)[..., 0] > 0.5)
    if rows.size == 0:
        return None
    return [cols.min(), rows.min(), cols.max() + 1.0, rows.max() + 1.0]


GEOMETRIC = {
    "flip": lambda: layers.RandomFlip(seed=3, bounding_box_format="xyxy"),
    "rotate_90": lambda: layers.RandomRotation((0.25, 0.25), fill_mode="constant", interpolation="nearest"),
    "rotate_minus_90": lambda: layers.RandomRotation((-0.25, -0.25), fill_mode="constant", interpolation="nearest"),
    "rotate_180": lambda: layers.RandomRotation((0.5, 0.5), fill_mode="constant", interpolation="nearest"),
    "translate": lambda: layers.RandomTranslation(
        (0.25, 0.25), (0.5, 0.5), fill_mode="constant", interpolation="nearest"
    ),
    "zoom_in": lambda: layers.RandomZoom((-0.5, -0.5), fill_mode="constant", interpolation="nearest"),
    "zoom_out": lambda: layers.RandomZoom((1.0, 1.0), fill_mode="constant", interpolation="nearest"),
    "random_crop": lambda: layers.RandomCrop(5, 6, seed=1),
    "center_crop": lambda: layers.CenterCrop(4, 6),
    "resize": lambda: layers.Resizing(4, 4, interpolation="nearest"),
}


@pytest.mark.parametrize("name", list(GEOMETRIC))
def test_boxes_follow_their_pixels(backend, name):
    layer = GEOMETRIC[name]()
    layer.bounding_box_format = "xyxy"
    out = layer(_data(batch=3))
    images = ops.convert_to_numpy(out["images"])
    boxes = ops.convert_to_numpy(out["bounding_boxes"]["boxes"])
    labels = ops.convert_to_numpy(out["bounding_boxes"]["labels"])
    # Segmentation masks go through the same transform as the images.
    np.testing.assert_array_equal(ops.convert_to_numpy(out["segmentation_masks"]), images)
    for image, box, label in zip(images, boxes, labels):
        expected = _pixel_box(image)
        if expected is None:  # the block left the image: the box is dropped (label -1)
            assert label[0] == -1
        else:
            np.testing.assert_allclose(box[0], expected, atol=1e-4)
            assert label[0] == 3


def test_flip_by_hand_in_another_format(backend):
    # Horizontal flip of an 8-wide image: x -> 8 - x; in xywh the left edge becomes 8 - (x + w).
    layer = layers.RandomFlip("horizontal", bounding_box_format="xywh")
    layer._draw = lambda images: ops.convert_to_tensor(np.array([True, False]).reshape(2, 1, 1, 1))
    out = layer(_data(batch=2, fmt="xywh"))
    boxes = ops.convert_to_numpy(out["bounding_boxes"]["boxes"])
    np.testing.assert_allclose(boxes[0, 0], [4.0, 2.0, 4.0, 4.0])
    np.testing.assert_allclose(boxes[1, 0], [0.0, 2.0, 4.0, 4.0])


def test_unbatched_dict_and_inference(backend):
    data = _data(batch=1)
    single = {"images": data["images"][0], "bounding_boxes": {k: v[0] for k, v in data["bounding_boxes"].items()}}
    layer = layers.RandomRotation((0.5, 0.5), fill_mode="constant", interpolation="nearest", bounding_box_format="xyxy")
    out = layer(single)
    assert tuple(ops.shape(out["images"])) == (SIZE, SIZE, 1)
    # A half turn maps the block's box [0, 2, 4, 6] to [4, 2, 8, 6].
    np.testing.assert_allclose(ops.convert_to_numpy(out["bounding_boxes"]["boxes"]), [[4.0, 2.0, 8.0, 6.0]], atol=1e-4)
    assert ops.convert_to_numpy(out["bounding_boxes"]["labels"]).tolist() == [3]
    still = layer(single, training=False)
    np.testing.assert_allclose(ops.convert_to_numpy(still["bounding_boxes"]["boxes"]), [BLOCK_BOX])
    np.testing.assert_array_equal(ops.convert_to_numpy(still["images"]), single["images"])


def test_box_leaving_the_image_is_clipped_and_dropped(backend):
    layer = layers.RandomTranslation((0.0, 0.0), (0.75, 0.75), fill_mode="constant", bounding_box_format="xyxy")
    data = _data(batch=1)
    data["bounding_boxes"] = {"boxes": np.array([[[0.0, 2.0, 4.0, 6.0], [1.0, 1.0, 2.0, 2.0]]], "float32")}
    data["bounding_boxes"]["labels"] = np.array([[3, 4]], "int32")
    out = layer(data)
    # Shifted right by 6: [6, 2, 10, 6] is clipped to [6, 2, 8, 6]; [7, 1, 8, 2] stays whole.
    np.testing.assert_allclose(
        ops.convert_to_numpy(out["bounding_boxes"]["boxes"])[0], [[6.0, 2.0, 8.0, 6.0], [7.0, 1.0, 8.0, 2.0]]
    )
    crop = layers.CenterCrop(4, 4, bounding_box_format="xyxy")
    out = crop(data)
    # The crop keeps rows and columns 2..5; the second box lies outside it: no area, label -1.
    np.testing.assert_allclose(ops.convert_to_numpy(out["bounding_boxes"]["boxes"])[0][0], [0.0, 0.0, 2.0, 4.0])
    assert ops.convert_to_numpy(out["bounding_boxes"]["labels"]).tolist() == [[3, -1]]


def test_flip_matches_keras_for_a_given_transformation(backend):
    keras = keras_module()
    flips = np.array([True, False, True]).reshape(3, 1, 1, 1)
    boxes = np.array([[[0.1, 0.2, 0.5, 0.4], [0.0, 0.0, 1.0, 0.5]]] * 3, "float32")
    labels = np.array([[1, 2]] * 3, "int32")
    theirs = keras.layers.RandomFlip("horizontal_and_vertical", bounding_box_format="rel_xyxy")
    expected = theirs.transform_bounding_boxes(
        {"boxes": boxes.copy(), "labels": labels.copy()}, {"flips": flips, "input_shape": (3, SIZE, SIZE, 1)}
    )
    ours = layers.RandomFlip("horizontal_and_vertical", bounding_box_format="rel_xyxy")
    ours._draw = lambda images: ops.convert_to_tensor(flips)
    out = ours(
        {"images": np.zeros((3, SIZE, SIZE, 1), "float32"), "bounding_boxes": {"boxes": boxes, "labels": labels}}
    )
    np.testing.assert_allclose(ops.convert_to_numpy(out["bounding_boxes"]["boxes"]), np.asarray(expected["boxes"]))
    np.testing.assert_array_equal(ops.convert_to_numpy(out["bounding_boxes"]["labels"]), np.asarray(expected["labels"]))


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("CenterCrop", {"height": 4, "width": 4}),
        ("Resizing", {"height": 4, "width": 4}),
        ("Resizing", {"height": 4, "width": 8, "crop_to_aspect_ratio": True}),
        ("Resizing", {"height": 4, "width": 8, "pad_to_aspect_ratio": True}),
    ],
)
def test_deterministic_layers_match_keras(backend, name, kwargs):
    keras = keras_module()
    data = _data(batch=1)
    data["bounding_boxes"]["boxes"] = np.array([[[0.0, 1.0, 4.0, 3.0], [6.0, 6.0, 8.0, 8.0]]], "float32")
    data["bounding_boxes"]["labels"] = np.array([[1, 2]], "int32")
    del data["segmentation_masks"]
    expected = getattr(keras.layers, name)(bounding_box_format="xyxy", **kwargs)(
        {"images": data["images"], "bounding_boxes": dict(data["bounding_boxes"])}
    )
    out = getattr(layers, name)(bounding_box_format="xyxy", **kwargs)(data)
    np.testing.assert_allclose(
        ops.convert_to_numpy(out["bounding_boxes"]["boxes"]), np.asarray(expected["bounding_boxes"]["boxes"]), atol=1e-5
    )
    np.testing.assert_array_equal(
        ops.convert_to_numpy(out["bounding_boxes"]["labels"]), np.asarray(expected["bounding_boxes"]["labels"])
    )


def test_color_layers_pass_boxes_and_masks_through(backend):
    data = _data(batch=2)
    out = layers.RandomContrast(0.5, seed=1, bounding_box_format="xyxy")(data)
    np.testing.assert_allclose(ops.convert_to_numpy(out["bounding_boxes"]["boxes"]), data["bounding_boxes"]["boxes"])
    np.testing.assert_array_equal(ops.convert_to_numpy(out["segmentation_masks"]), data["segmentation_masks"])
    assert not np.allclose(ops.convert_to_numpy(out["images"]), data["images"])


def test_config_keeps_the_format():
    for layer in (
        layers.RandomFlip(bounding_box_format="center_xywh"),
        layers.RandomZoom(0.2, bounding_box_format="rel_xyxy"),
        layers.RandomCrop(4, 4, bounding_box_format="yxyx"),
        layers.Resizing(4, 4, bounding_box_format="xywh"),
        layers.CenterCrop(4, 4, bounding_box_format="xyxy"),
    ):
        config = layer.get_config()
        assert type(layer).from_config(config).bounding_box_format == config["bounding_box_format"]
    assert "bounding_box_format" not in layers.RandomFlip().get_config()


def test_errors():
    data = _data(batch=1)
    with pytest.raises(ValueError, match="without a `bounding_box_format`.*bounding_box_format='xyxy'"):
        layers.RandomFlip()(data)
    with pytest.raises(ValueError, match="Unknown bounding box bounding_box_format 'xyxz'"):
        layers.RandomFlip(bounding_box_format="xyxz")
    with pytest.raises(ValueError, match="an 'images' entry.*received a dict with the keys \\['image'\\]"):
        layers.Resizing(4, 4, bounding_box_format="xyxy")({"image": data["images"]})
    with pytest.raises(ValueError, match="must be a dict with 'boxes'"):
        layers.CenterCrop(4, 4, bounding_box_format="xyxy")({"images": data["images"], "bounding_boxes": [1, 2]})


def test_shear_moves_the_box_corners_by_hand(backend):
    # x shear s: the output pixel x samples the input at x + s * y, so a corner (x, y) (pixel edges) moves to
    # x - s * (y - 0.5); with s = -0.5 the block's corners span x from 0.75 to 6.75.
    layer = layers.RandomShear(x_factor=0.5, fill_mode="constant", interpolation="nearest", bounding_box_format="xyxy")
    layer._draw = lambda images: {"shear_factor": ops.convert_to_tensor([[-0.5, 0.0]]), "input_shape": (1, 8, 8, 1)}
    out = layer(_data(batch=1))
    box = ops.convert_to_numpy(out["bounding_boxes"]["boxes"])[0, 0]
    np.testing.assert_allclose(box, [0.75, 2.0, 6.75, 6.0], atol=1e-5)
    # The sheared pixels lie inside the box.
    pixels = _pixel_box(ops.convert_to_numpy(out["images"])[0])
    assert box[0] <= pixels[0] and box[1] <= pixels[1] and box[2] >= pixels[2] and box[3] >= pixels[3]
    # A shear that pushes the block out of the image on the left: clipped at 0.
    layer._draw = lambda images: {"shear_factor": ops.convert_to_tensor([[0.5, 0.0]]), "input_shape": (1, 8, 8, 1)}
    box = ops.convert_to_numpy(layer(_data(batch=1))["bounding_boxes"]["boxes"])[0, 0]
    np.testing.assert_allclose(box, [0.0, 2.0, 3.25, 6.0], atol=1e-5)


def test_perspective_moves_the_box(backend):
    layer = layers.RandomPerspective(factor=1.0, scale=0.5, interpolation="nearest", bounding_box_format="xyxy", seed=2)
    start = np.array([[[0, 0], [7, 0], [0, 7], [7, 7]]], "float32")
    # A perspective map that only translates (2 right, 1 down) moves the box by as much.
    layer._draw = lambda images: {
        "apply_perspective": ops.convert_to_tensor([True]),
        "start_points": start,
        "end_points": start + np.array([2.0, 1.0], "float32"),
        "input_shape": (1, SIZE, SIZE, 1),
    }
    out = layer(_data(batch=1))
    np.testing.assert_allclose(
        ops.convert_to_numpy(out["bounding_boxes"]["boxes"])[0, 0], [2.0, 3.0, 6.0, 7.0], atol=1e-4
    )
    assert _pixel_box(ops.convert_to_numpy(out["images"])[0]) == [2.0, 3.0, 6.0, 7.0]
    # Random maps: the warped block stays inside its box (to half a pixel: nearest sampling reads pixel centers).
    del layer._draw
    out = layer(_data(batch=4))
    for image, box in zip(ops.convert_to_numpy(out["images"]), ops.convert_to_numpy(out["bounding_boxes"]["boxes"])):
        pixels = _pixel_box(image)
        if pixels is not None:
            assert np.all(np.asarray(pixels[:2]) >= box[0, :2] - 0.5) and np.all(
                np.asarray(pixels[2:]) <= box[0, 2:] + 0.5
            )


@pytest.mark.parametrize("name", ["flip", "rotate_90", "translate", "zoom_in", "random_crop", "center_crop", "resize"])
def test_boxes_follow_their_pixels_in_a_tf_data_map(backend, name):
    tf = pytest.importorskip("tensorflow")
    layer = GEOMETRIC[name]()
    layer.bounding_box_format = "xyxy"
    data = _data(batch=4)
    data["bounding_boxes"]["labels"] = data["bounding_boxes"]["labels"].astype("int32")
    dataset = tf.data.Dataset.from_tensor_slices(data).batch(2).map(layer)  # the batch size is dynamic there
    for batch in dataset:
        for image, box in zip(batch["images"].numpy(), batch["bounding_boxes"]["boxes"].numpy()):
            np.testing.assert_allclose(box[0], _pixel_box(image), atol=1e-4)


def test_perspective_boxes_in_a_tf_data_map(backend):
    tf = pytest.importorskip("tensorflow")
    layer = layers.RandomPerspective(factor=1.0, scale=0.5, interpolation="nearest", bounding_box_format="xyxy", seed=2)
    for batch in tf.data.Dataset.from_tensor_slices(_data(batch=4)).batch(2).map(layer):
        for image, box in zip(batch["images"].numpy(), batch["bounding_boxes"]["boxes"].numpy()):
            pixels = _pixel_box(image)
            if pixels is not None:
                assert np.all(np.asarray(pixels[:2]) >= box[0, :2] - 0.5)
                assert np.all(np.asarray(pixels[2:]) <= box[0, 2:] + 0.5)
