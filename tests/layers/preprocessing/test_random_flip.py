"""RandomFlip: identity at inference, one flip decision per image in training, on every engine."""

import numpy as np
import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .image_helpers import check_random_layer_basics, images, keras_output, ours


@pytest.mark.parametrize("training", [False, True])
@pytest.mark.parametrize("mode", ["horizontal", "vertical", "horizontal_and_vertical"])
def test_standard_checks(backend, mode, training):
    run_layer_test(
        layers.RandomFlip,
        {"mode": mode, "seed": 1},
        input_shape=(4, 5, 6, 3),
        expected_output_shape=(4, 5, 6, 3),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
        call_kwargs={"training": training},
        run_config_check=not training,
    )


def test_random_basics(backend):
    check_random_layer_basics("RandomFlip", {})


@pytest.mark.parametrize("mode,axes", [("horizontal", (2,)), ("vertical", (1,)), ("horizontal_and_vertical", (1, 2))])
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_each_image_is_kept_or_flipped(backend, mode, axes, data_format):
    x = np.random.default_rng(1).random((32, 4, 5, 2)).astype("float32")
    if data_format == "channels_first":
        x = np.transpose(x, (0, 3, 1, 2))
        axes = tuple(a + 1 for a in axes)
    y = ours("RandomFlip", {"mode": mode, "seed": 7, "data_format": data_format}, x, training=True)
    flipped = [not np.array_equal(y[i], x[i]) for i in range(len(x))]
    for i, f in enumerate(flipped):
        want = np.flip(x[i], axis=tuple(a - 1 for a in axes)) if f else x[i]
        np.testing.assert_array_equal(y[i], want)
    assert 4 <= sum(flipped) <= 28, f"{sum(flipped)} of 32 images flipped"
    # Keras' layer does the same kind of thing (its own draw).
    k = keras_output("RandomFlip", {"mode": mode, "data_format": data_format}, x, training=True)
    for i in range(len(x)):
        assert np.array_equal(k[i], x[i]) or np.array_equal(k[i], np.flip(x[i], axis=tuple(a - 1 for a in axes)))


def test_inference_matches_keras(backend):
    x = images()
    np.testing.assert_array_equal(
        ours("RandomFlip", {}, x, training=False), keras_output("RandomFlip", {}, x, training=False)
    )


def test_invalid_arguments():
    with pytest.raises(ValueError, match="mode"):
        layers.RandomFlip("diagonal")
    with pytest.raises(ValueError, match="seed"):
        layers.RandomFlip(seed=-1)
