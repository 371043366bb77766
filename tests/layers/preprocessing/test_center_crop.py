"""CenterCrop against Keras 3 (TensorFlow backend), on every engine."""

import numpy as np
import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .image_helpers import images, keras_output, ours


@pytest.mark.parametrize(
    "kwargs,input_shape,output_shape",
    [
        ({"height": 4, "width": 5}, (2, 6, 8, 3), (2, 4, 5, 3)),
        ({"height": 8, "width": 3}, (2, 6, 8, 3), (2, 8, 3, 3)),  # too small: crop to aspect, then resize
        ({"height": 2, "width": 2, "data_format": "channels_first"}, (2, 3, 6, 8), (2, 3, 2, 2)),
        ({"height": 5, "width": 5}, (6, 8, 3), (5, 5, 3)),
    ],
)
def test_standard_checks(backend, kwargs, input_shape, output_shape):
    run_layer_test(
        layers.CenterCrop,
        kwargs,
        input_shape=input_shape,
        expected_output_shape=output_shape,
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
    )


@pytest.mark.parametrize("size", [(4, 5), (6, 8), (1, 1), (3, 8), (8, 5), (3, 12), (10, 16)])
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("batched", [True, False], ids=["batched", "unbatched"])
def test_matches_keras(backend, size, data_format, batched):
    x = images(data_format, batched)
    kwargs = {"height": size[0], "width": size[1], "data_format": data_format}
    np.testing.assert_allclose(ours("CenterCrop", kwargs, x), keras_output("CenterCrop", kwargs, x), atol=5e-4)


def test_integer_images_become_float(backend):
    got = ours("CenterCrop", {"height": 2, "width": 2}, images().astype("int32"))
    assert got.dtype == np.float32


def test_invalid_arguments():
    with pytest.raises(ValueError, match="width"):
        layers.CenterCrop(3, -1)
    with pytest.raises(ValueError, match="rank"):
        layers.CenterCrop(2, 2)(np.ones((2, 4, 4, 4, 1), "float32"))
