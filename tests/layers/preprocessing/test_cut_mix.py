"""CutMix: rectangles pasted from a partner image, labels blended by area; Keras's transforms given the draws."""

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
        layers.CutMix,
        {"seed": 1},
        input_shape=(4, 5, 6, 3),
        expected_output_shape=(4, 5, 6, 3),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
        call_kwargs={"training": training},
        run_config_check=not training,
        run_training_check=False,
    )


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_transforms_match_keras_given_the_same_draws(backend, data_format):
    x = images(data_format)
    labels = np.eye(3, dtype="float32")
    ours = layers.CutMix(seed=2, data_format=data_format)
    theirs = keras.layers.CutMix(seed=2, data_format=data_format)
    drawn = {k: to_numpy(v) for k, v in ours.get_random_transformation(x).items()}
    assert drawn["batch_masks"].shape == x.shape
    want = keras.ops.convert_to_numpy(theirs.transform_images(x, drawn, training=True))
    np.testing.assert_array_equal(to_numpy(ours.transform_images(x, drawn)), want)
    want = keras.ops.convert_to_numpy(theirs.transform_labels(labels, drawn, training=True))
    np.testing.assert_allclose(to_numpy(ours.transform_labels(labels, drawn)), want, rtol=1e-6, atol=1e-6)
    keras_drawn = {k: keras.ops.convert_to_numpy(v) for k, v in theirs.get_random_transformation(x).items()}
    want = keras.ops.convert_to_numpy(theirs.transform_images(x, keras_drawn, training=True))
    np.testing.assert_array_equal(to_numpy(ours.transform_images(x, keras_drawn)), want)


def test_pasted_rectangles_and_label_weights(backend):
    n = 32
    x = np.broadcast_to(np.arange(n, dtype="float32")[:, None, None, None], (n, 8, 8, 1)).copy()
    labels = np.eye(n, dtype="float32")
    layer = layers.CutMix(seed=3)
    out = layer({"images": x, "labels": labels})
    y, mixed = to_numpy(out["images"]), to_numpy(out["labels"])
    np.testing.assert_allclose(mixed.sum(axis=1), 1.0, rtol=1e-5)
    pasted = 0
    for i in range(n):
        hit = y[i, :, :, 0] != i
        if hit.any():
            pasted += 1
            assert len(np.unique(y[i][hit])) == 1, "the rectangle comes from one partner"
            partner = int(np.unique(y[i][hit])[0])
            rows, cols = np.flatnonzero(hit.any(axis=1)), np.flatnonzero(hit.any(axis=0))
            assert hit[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1].all(), "the pasted pixels are not a rectangle"
            # The label weight of the partner is the rectangle's (continuous) share of the image.
            assert abs(mixed[i, partner] - hit.mean()) < 0.3
    assert pasted >= n // 4, f"only {pasted} of {n} images got a rectangle"
    still = layer({"images": x, "labels": labels}, training=False)
    np.testing.assert_array_equal(to_numpy(still["images"]), x)
    np.testing.assert_array_equal(to_numpy(still["labels"]), labels)
    np.testing.assert_array_equal(to_numpy(layer(x[0])), x[0])  # a single image has no partner


def test_config_and_saved_model_round_trip(backend, tmp_path):
    layer = layers.CutMix(factor=(0.2, 0.6), seed=5)
    config = layer.get_config()
    assert config["factor"] == [0.2, 0.6] and config["seed"] == 5
    assert layers.CutMix.from_config(config).get_config() == config
    model = hl.Sequential([hl.Input((6, 8, 2)), layer, layers.Flatten(), layers.Dense(2)])
    path = tmp_path / "cutmix.keras"
    model.save(str(path))
    loaded = hl.saving.load_model(str(path))
    x = images()
    np.testing.assert_allclose(to_numpy(loaded.predict(x, verbose=0)), to_numpy(model.predict(x, verbose=0)), atol=1e-5)


def test_in_tf_data_map_with_labels(backend):
    tf = pytest.importorskip("tensorflow")
    x = np.broadcast_to(np.arange(8, dtype="float32")[:, None, None, None], (8, 6, 6, 1)).copy()
    layer = layers.CutMix(seed=6)
    ds = tf.data.Dataset.from_tensor_slices({"images": x, "labels": np.eye(8, dtype="float32")})
    parts = list(ds.batch(4, drop_remainder=True).map(layer).as_numpy_iterator())
    y = np.concatenate([p["images"] for p in parts])
    mixed = np.concatenate([p["labels"] for p in parts])
    assert y.shape == x.shape and mixed.shape == (8, 8)
    np.testing.assert_allclose(mixed.sum(axis=1), 1.0, rtol=1e-5)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="factor"):
        layers.CutMix(factor=1.5)
