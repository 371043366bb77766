"""RandAugment: a few operations picked per call from eleven image layers, applied in turn.

Keras 3 is the oracle for the transform: its own draws (operation amounts) are fed to both layers with each
pick in turn. The picks and amounts are each engine's own draws, checked for range and repeatability.
"""

import keras
import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .augment_oracle import RGB, as_numpy, images
from .categorical_oracle import save_and_load
from .image_helpers import to_numpy


@pytest.mark.parametrize("training", [False, True])
def test_standard_checks(backend, training):
    run_layer_test(
        layers.RandAugment,
        {"seed": 1},
        input_shape=(2, 8, 8, 3),
        expected_output_shape=(2, 8, 8, 3),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
        call_kwargs={"training": training},
        run_config_check=not training,
        run_training_check=False,
    )


@pytest.mark.parametrize("kwargs", [{}, {"value_range": (0, 1), "factor": 0.8, "interpolation": "nearest"}])
def test_each_operation_matches_keras_given_keras_draws(backend, kwargs):
    x = images(kwargs.get("value_range", (0, 255)))
    theirs = keras.layers.RandAugment(num_ops=1, seed=3, **kwargs)
    transformation = as_numpy(theirs.get_random_transformation(x))
    ours = layers.RandAugment(num_ops=1, **kwargs)
    assert list(ours.operations) == list(transformation["transforms"])
    scale = 1.0 if "value_range" not in kwargs else 1 / 255.0
    for index, name in enumerate(transformation["transforms"]):
        transformation["layer_idxes"] = np.array([index], "int32")
        want = keras.ops.convert_to_numpy(theirs.transform_images(x, transformation))
        got = to_numpy(ours.transform_images(hl.ops.convert_to_tensor(x), transformation))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=2e-3 * scale, err_msg=name)
        assert np.abs(want - x).max() > 1.0 * scale, f"{name} changed nothing: a weak comparison"


def test_two_operations_in_turn_match_keras(backend):
    theirs = keras.layers.RandAugment(num_ops=2, seed=4)
    transformation = as_numpy(theirs.get_random_transformation(RGB))
    for picks in ([3, 9], [9, 3], [0, 0]):  # brightness then auto-contrast, the reverse, one shear twice
        transformation["layer_idxes"] = np.array(picks, "int32")
        want = keras.ops.convert_to_numpy(theirs.transform_images(RGB, transformation))
        got = to_numpy(layers.RandAugment(num_ops=2).transform_images(RGB, transformation))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=2e-3, err_msg=str(picks))


def test_inference_is_the_identity_and_training_changes_plausibly(backend):
    np.testing.assert_array_equal(to_numpy(layers.RandAugment(seed=5)(RGB, training=False)), RGB)
    x = np.repeat(RGB, 4, axis=0)
    layer = layers.RandAugment(seed=5)
    changes = []
    for _ in range(3):
        y = to_numpy(layer(x, training=True))
        assert y.shape == x.shape and y.dtype == np.float32
        assert y.min() >= -1e-3 and y.max() <= 255.0 + 1e-3
        changes.append(np.abs(y - x).mean())
    # Each call applies two operations of moderate strength: a clear change, far from replacing the images.
    assert all(0.5 < c < 150.0 for c in changes), changes
    assert len(set(changes)) == 3, "three calls drew the same augmentation"


def test_seeded_draws_repeat_per_engine(backend):
    first = to_numpy(layers.RandAugment(seed=6)(RGB, training=True))
    np.testing.assert_array_equal(first, to_numpy(layers.RandAugment(seed=6)(RGB, training=True)))
    single = to_numpy(layers.RandAugment(seed=6)(RGB[0], training=True))
    assert single.shape == RGB[0].shape


def test_picks_cover_all_operations(backend):
    layer = layers.RandAugment(num_ops=440, seed=7)
    picks = to_numpy(layer.get_random_transformation(RGB)["layer_idxes"])
    counts = np.bincount(picks, minlength=11)
    assert picks.shape == (440,) and len(counts) == 11
    assert counts.min() >= 20 and counts.max() <= 70, counts
    assert layer.get_random_transformation(RGB, training=False) is None


def test_channels_first_matches_channels_last(backend):
    theirs = keras.layers.RandAugment(num_ops=1, seed=8)
    transformation = as_numpy(theirs.get_random_transformation(RGB))
    transformation["layer_idxes"] = np.array([2], "int32")  # a rotation
    last = to_numpy(layers.RandAugment(num_ops=1).transform_images(RGB, transformation))
    first = layers.RandAugment(num_ops=1, data_format="channels_first")
    got = to_numpy(first.transform_images(np.transpose(RGB, (0, 3, 1, 2)), transformation))
    np.testing.assert_allclose(np.transpose(got, (0, 2, 3, 1)), last, rtol=1e-5, atol=1e-3)


def test_dict_inputs_keep_labels_and_refuse_boxes_and_masks(backend):
    x = RGB
    labels = np.arange(3, dtype="float32")
    out = layers.RandAugment(seed=11)({"images": x, "labels": labels}, training=True)
    assert sorted(out) == ["images", "labels"]
    np.testing.assert_array_equal(to_numpy(out["labels"]), labels)
    assert to_numpy(out["images"]).shape == x.shape
    with pytest.raises(NotImplementedError, match="segmentation_masks"):
        layers.RandAugment(seed=11)({"images": x, "segmentation_masks": x[..., :1]}, training=True)


def test_config_and_saved_model_round_trip(backend, tmp_path):
    layer = layers.RandAugment(value_range=(0, 1), num_ops=3, factor=(0.1, 0.4), interpolation="nearest", seed=9)
    config = layer.get_config()
    assert {k: config[k] for k in ("value_range", "num_ops", "factor", "interpolation", "seed")} == {
        "value_range": [0.0, 1.0],
        "num_ops": 3,
        "factor": [0.1, 0.4],
        "interpolation": "nearest",
        "seed": 9,
    }
    assert layers.RandAugment.from_config(config).get_config() == config
    model = hl.Sequential([hl.Input((8, 8, 3)), layer, layers.Flatten(), layers.Dense(2)])
    x = RGB[:2] / 255.0
    loaded = save_and_load(model, tmp_path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), atol=1e-5)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="num_ops"):
        layers.RandAugment(num_ops=-1)
    with pytest.raises(ValueError, match="factor"):
        layers.RandAugment(factor=1.5)
    with pytest.raises(ValueError, match="interpolation"):
        layers.RandAugment(interpolation="bicubic")
    with pytest.raises(ValueError, match="value_range"):
        layers.RandAugment(value_range=(3, 3))
