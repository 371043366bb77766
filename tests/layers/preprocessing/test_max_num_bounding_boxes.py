"""MaxNumBoundingBoxes: boxes and labels padded or truncated to a fixed number, as Keras does."""

import keras
import numpy as np
import pytest

import highlevel as hl
from highlevel import layers

from .image_helpers import to_numpy


def _data(n):
    rng = np.random.default_rng(n)
    return {
        "images": rng.random((2, 4, 4, 3)).astype("float32"),
        "bounding_boxes": {
            "boxes": rng.random((2, n, 4)).astype("float32"),
            "labels": rng.integers(0, 5, (2, n)).astype("int32"),
        },
    }


@pytest.mark.parametrize("n", [1, 3, 6])
@pytest.mark.parametrize("fill_value", [-1, 0])
def test_matches_keras(backend, n, fill_value):
    data = _data(n)
    ours = layers.MaxNumBoundingBoxes(3, fill_value=fill_value, bounding_box_format="xyxy")(data)
    theirs = keras.layers.MaxNumBoundingBoxes(3, fill_value=fill_value, bounding_box_format="xyxy")(data)
    for key in ("boxes", "labels"):
        got, want = to_numpy(ours["bounding_boxes"][key]), keras.ops.convert_to_numpy(theirs["bounding_boxes"][key])
        assert got.shape[:2] == (2, 3)
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(to_numpy(ours["images"]), data["images"])


def test_images_alone_pass_through_and_bad_inputs(backend):
    x = np.ones((2, 4, 4, 3), "float32")
    np.testing.assert_array_equal(to_numpy(layers.MaxNumBoundingBoxes(2)(x)), x)
    with pytest.raises(ValueError, match="bounding_box_format"):
        layers.MaxNumBoundingBoxes(2)(_data(2))
    data = _data(2)
    data["bounding_boxes"]["scores"] = np.ones((2, 2), "float32")
    with pytest.raises(ValueError, match="scores"):
        layers.MaxNumBoundingBoxes(2, bounding_box_format="xyxy")(data)


def test_config_round_trip(backend):
    layer = layers.MaxNumBoundingBoxes(4, fill_value=0, bounding_box_format="yxyx", name="cap")
    config = layer.get_config()
    assert (config["max_number"], config["fill_value"], config["bounding_box_format"]) == (4, 0, "yxyx")
    clone = hl.layers.deserialize(hl.layers.serialize(layer))
    assert clone.get_config() == config
    out = clone(_data(6))
    assert to_numpy(out["bounding_boxes"]["boxes"]).shape == (2, 4, 4)


def test_in_tf_data_map(backend):
    tf = pytest.importorskip("tensorflow")
    data = _data(5)
    layer = layers.MaxNumBoundingBoxes(7, bounding_box_format="xyxy")
    ds = tf.data.Dataset.from_tensor_slices(data).batch(2).map(layer)
    out = next(iter(ds.as_numpy_iterator()))
    assert out["bounding_boxes"]["boxes"].shape == (2, 7, 4)
    np.testing.assert_array_equal(out["bounding_boxes"]["labels"][:, 5:], -1)
    np.testing.assert_array_equal(out["bounding_boxes"]["labels"][:, :5], data["bounding_boxes"]["labels"])


def test_invalid_arguments():
    with pytest.raises(ValueError, match="max_number"):
        layers.MaxNumBoundingBoxes(0)
    with pytest.raises(ValueError, match="fill_value"):
        layers.MaxNumBoundingBoxes(3, fill_value=0.5)


def test_data_format_is_kept_like_keras():
    from tests.layers.core.keras_oracle import keras_module

    keras = keras_module()
    ours = layers.MaxNumBoundingBoxes(3, bounding_box_format="xyxy", data_format="channels_first").get_config()
    theirs = keras.layers.MaxNumBoundingBoxes(3, bounding_box_format="xyxy", data_format="channels_first").get_config()
    assert ours["data_format"] == theirs["data_format"] == "channels_first"
    assert layers.MaxNumBoundingBoxes.from_config(ours).data_format == "channels_first"
    with pytest.raises(ValueError, match="data_format"):
        layers.MaxNumBoundingBoxes(3, data_format="channels_middle")
