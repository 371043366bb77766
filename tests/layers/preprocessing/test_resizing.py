"""Resizing against Keras 3 (TensorFlow backend), on every engine."""

import numpy as np
import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .image_helpers import images, keras_output, ours


@pytest.mark.parametrize(
    "kwargs,input_shape,output_shape",
    [
        ({"height": 4, "width": 5}, (2, 6, 8, 3), (2, 4, 5, 3)),
        ({"height": 9, "width": 3, "interpolation": "nearest"}, (2, 6, 8, 3), (2, 9, 3, 3)),
        (
            {"height": 4, "width": 4, "data_format": "channels_first", "crop_to_aspect_ratio": True},
            (2, 3, 6, 8),
            (2, 3, 4, 4),
        ),
        ({"height": 5, "width": 7, "pad_to_aspect_ratio": True, "fill_value": 1.0}, (6, 8, 3), (5, 7, 3)),
    ],
)
def test_standard_checks(backend, kwargs, input_shape, output_shape):
    run_layer_test(
        layers.Resizing,
        kwargs,
        input_shape=input_shape,
        expected_output_shape=output_shape,
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
    )


@pytest.mark.parametrize(
    "kwargs",
    [
        {"height": 4, "width": 5},
        {"height": 12, "width": 17, "interpolation": "bicubic"},
        {"height": 3, "width": 3, "interpolation": "bilinear", "antialias": True},
        {"height": 5, "width": 9, "interpolation": "nearest"},
        {"height": 7, "width": 7, "interpolation": "lanczos3"},
        {"height": 4, "width": 9, "crop_to_aspect_ratio": True},
        {"height": 4, "width": 9, "pad_to_aspect_ratio": True, "fill_value": 7.0},
    ],
    ids=lambda k: "-".join(f"{a}={b}" for a, b in k.items()),
)
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("batched", [True, False], ids=["batched", "unbatched"])
def test_matches_keras(backend, kwargs, data_format, batched):
    x = images(data_format, batched)
    kwargs = dict(kwargs, data_format=data_format)
    np.testing.assert_allclose(ours("Resizing", kwargs, x), keras_output("Resizing", kwargs, x), atol=5e-4)


def test_integer_images_keep_their_dtype(backend):
    x = images().astype("uint8")
    got = ours("Resizing", {"height": 3, "width": 4, "interpolation": "nearest"}, x)
    assert got.dtype == np.uint8
    np.testing.assert_array_equal(
        got, keras_output("Resizing", {"height": 3, "width": 4, "interpolation": "nearest"}, x)
    )


def test_invalid_arguments():
    with pytest.raises(ValueError, match="height"):
        layers.Resizing(0, 3)
    with pytest.raises(ValueError, match="interpolation"):
        layers.Resizing(2, 3, interpolation="cubic")
    with pytest.raises(ValueError, match="only one"):
        layers.Resizing(2, 3, crop_to_aspect_ratio=True, pad_to_aspect_ratio=True)
    with pytest.raises(ValueError, match="rank"):
        layers.Resizing(2, 3)(np.ones((4, 4), "float32"))
