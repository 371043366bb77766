"""draw_segmentation_masks: painted and blended pixels equal Keras's for the same inputs, on every backend."""

import numpy as np
import pytest

import highlevel as hl


@pytest.mark.parametrize("blend", [True, False])
def test_pixels_match_keras(keras, backend, blend):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (2, 6, 7, 3)).astype("uint8")
    masks = rng.integers(-1, 4, (2, 6, 7, 1)).astype("int32")
    colors = {0: (0, 0, 0), 1: (255, 0, 0), 2: (0, 255, 0), 3: (0, 0, 255)}
    for kwargs in (
        {"num_classes": 4, "alpha": 0.3},
        {"num_classes": 3, "color_mapping": colors, "alpha": 0.8},
        {"num_classes": 4, "ignore_index": 0},
    ):
        want = np.asarray(
            keras.ops.convert_to_numpy(
                keras.visualization.draw_segmentation_masks(images, masks, blend=blend, **kwargs)
            )
        )
        got = hl.visualization.draw_segmentation_masks(
            hl.ops.convert_to_tensor(images), hl.ops.convert_to_tensor(masks), blend=blend, **kwargs
        )
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_every_class_is_painted_by_default_and_3d_masks_work(backend):
    images = np.zeros((1, 2, 2, 3), "uint8")
    masks = np.array([[[0, 1], [2, 2]]], "int32")  # no channel axis
    out = hl.visualization.draw_segmentation_masks(images, masks, alpha=1.0)
    # the default palette; class 2, the largest id, is painted too
    assert out[0, 1, 1].tolist() == [(2 * (2**25 - 1)) % 255, (2 * (2**15 - 1)) % 255, (2 * (2**21 - 1)) % 255]


def test_bad_masks_say_what_was_received():
    with pytest.raises(TypeError, match="integer class ids; received dtype float32"):
        hl.visualization.draw_segmentation_masks(np.zeros((1, 2, 2, 3)), np.zeros((1, 2, 2, 1), "float32"))
    with pytest.raises(ValueError, match="no color for the classes \\[1\\]"):
        hl.visualization.draw_segmentation_masks(
            np.zeros((1, 2, 2, 3)), np.ones((1, 2, 2, 1), "int32"), num_classes=2, color_mapping={0: (1, 2, 3)}
        )
