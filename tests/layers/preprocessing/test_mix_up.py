"""MixUp: pairwise blends of images and labels in training, Keras's transforms given the same draws."""

import keras
import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .image_helpers import images, to_numpy


@pytest.mark.parametrize("training", [False, True])
def test_standard_checks(backend, training):
    run_layer_test(
        layers.MixUp,
        {"alpha": 0.4, "seed": 1},
        input_shape=(4, 5, 6, 3),
        expected_output_shape=(4, 5, 6, 3),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
        call_kwargs={"training": training},
        run_config_check=not training,
        run_training_check=False,
    )


def test_transforms_match_keras_given_the_same_draws(backend):
    x = images()
    labels = np.eye(3, dtype="float32")
    ours, theirs = layers.MixUp(seed=2), keras.layers.MixUp(seed=2)
    drawn = {k: to_numpy(v) for k, v in ours.get_random_transformation(x).items()}
    assert sorted(drawn["permutation_order"].tolist()) == [0, 1, 2]
    fixed = {"mix_weight": np.array([0.3, 0.9, 0.5], "float32"), "permutation_order": np.array([2, 0, 1])}
    for t in (drawn, fixed):
        want = keras.ops.convert_to_numpy(theirs.transform_images(x, t, training=True))
        np.testing.assert_allclose(to_numpy(ours.transform_images(x, t)), want, rtol=1e-6, atol=1e-4)
        want = keras.ops.convert_to_numpy(theirs.transform_labels(labels, t, training=True))
        np.testing.assert_allclose(to_numpy(ours.transform_labels(labels, t)), want, rtol=1e-6, atol=1e-6)


def test_images_and_labels_are_blended_together(backend):
    n = 64
    x = np.broadcast_to(np.arange(n, dtype="float32")[:, None, None, None], (n, 2, 2, 1)).copy()
    labels = np.eye(n, dtype="float32")
    layer = layers.MixUp(alpha=1.0, seed=3)
    out = layer({"images": x, "labels": labels})
    y, mixed = to_numpy(out["images"]), to_numpy(out["labels"])
    np.testing.assert_allclose(mixed.sum(axis=1), 1.0, rtol=1e-5)
    # Each label row names the two images blended and their weights; the image is that blend.
    np.testing.assert_allclose(y[:, 0, 0, 0], mixed @ np.arange(n, dtype="float32"), rtol=1e-4, atol=1e-3)
    weights = mixed[np.arange(n), np.arange(n)]
    moved = np.any(mixed != labels, axis=1)
    assert moved.sum() >= n - 4, "most images should be blended with another"
    # alpha=1: Beta(1, 1) is uniform on [0, 1] (an image paired with itself keeps weight 1 in the labels).
    assert 0.35 < weights[moved].mean() < 0.65 and weights.min() >= 0.0
    second = to_numpy(layer({"images": x, "labels": labels})["labels"])
    assert not np.array_equal(second, mixed), "two calls drew the same blend"
    same = to_numpy(layers.MixUp(alpha=1.0, seed=3)({"images": x, "labels": labels})["labels"])
    np.testing.assert_array_equal(same, mixed)
    # At inference everything passes through.
    still = layer({"images": x, "labels": labels}, training=False)
    np.testing.assert_array_equal(to_numpy(still["images"]), x)
    np.testing.assert_array_equal(to_numpy(still["labels"]), labels)


def test_config_and_saved_model_round_trip(backend, tmp_path):
    layer = layers.MixUp(alpha=0.5, seed=5)
    config = layer.get_config()
    assert config["alpha"] == 0.5 and config["seed"] == 5 and config["data_format"] == "channels_last"
    assert layers.MixUp.from_config(config).get_config() == config
    model = hl.Sequential([hl.Input((6, 8, 2)), layer, layers.Flatten(), layers.Dense(2)])
    path = tmp_path / "mixup.keras"
    model.save(str(path))
    loaded = hl.saving.load_model(str(path))
    x = images()
    np.testing.assert_allclose(to_numpy(loaded.predict(x, verbose=0)), to_numpy(model.predict(x, verbose=0)), atol=1e-5)


def test_in_tf_data_map_with_labels(backend):
    tf = pytest.importorskip("tensorflow")
    x = np.broadcast_to(np.arange(8, dtype="float32")[:, None, None, None], (8, 2, 2, 1)).copy()
    labels = np.eye(8, dtype="float32")
    layer = layers.MixUp(alpha=1.0, seed=6)
    ds = tf.data.Dataset.from_tensor_slices({"images": x, "labels": labels}).batch(4, drop_remainder=True).map(layer)
    parts = list(ds.as_numpy_iterator())
    y = np.concatenate([p["images"] for p in parts])
    mixed = np.concatenate([p["labels"] for p in parts])
    np.testing.assert_allclose(y[:, 0, 0, 0], mixed @ np.arange(8, dtype="float32"), rtol=1e-4, atol=1e-3)
    assert np.any(mixed != labels)
    with pytest.raises(ValueError, match="drop_remainder=True"):
        tf.data.Dataset.from_tensor_slices(x).batch(4).map(layer)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="alpha"):
        layers.MixUp(alpha=0.0)
    with pytest.raises(ValueError, match="rank 3"):
        layers.MixUp()(np.zeros((2, 3), "float32"))
