"""Pipeline: its layers in order, as one layer, with training and masks passed on, saved and loaded."""

import keras
import numpy as np
import pytest

import highlevel as hl
from highlevel import layers

from .image_helpers import images, to_numpy


def test_matches_keras_on_deterministic_layers(backend):
    x = images()
    ours = layers.Pipeline([layers.Rescaling(1 / 255.0, offset=-0.5), layers.CenterCrop(4, 6), layers.Resizing(3, 3)])
    theirs = keras.layers.Pipeline(
        [keras.layers.Rescaling(1 / 255.0, offset=-0.5), keras.layers.CenterCrop(4, 6), keras.layers.Resizing(3, 3)]
    )
    np.testing.assert_allclose(to_numpy(ours(x)), keras.ops.convert_to_numpy(theirs(x)), rtol=1e-5, atol=1e-6)
    assert ours.compute_output_shape((None, 6, 8, 2)) == (None, 3, 3, 2)
    assert [type(layer).__name__ for layer in ours.layers] == ["Rescaling", "CenterCrop", "Resizing"]


def test_training_reaches_the_random_layers(backend):
    x = images()
    pipeline = layers.Pipeline([layers.Rescaling(2.0), layers.RandomFlip(seed=1), layers.RandomRotation(0.3, seed=2)])
    np.testing.assert_allclose(to_numpy(pipeline(x, training=False)), 2.0 * x, rtol=1e-6)
    augmented = to_numpy(pipeline(x))  # a direct call trains, as in Keras
    assert augmented.shape == x.shape and not np.allclose(augmented, 2.0 * x)
    assert not np.array_equal(augmented, to_numpy(pipeline(x, training=True))), "two calls drew the same transform"
    # In a model, predict runs the pipeline at inference.
    model = hl.Sequential([hl.Input((6, 8, 2)), pipeline])
    np.testing.assert_allclose(to_numpy(model.predict(x, verbose=0)), 2.0 * x, rtol=1e-6)


def test_masks_pass_from_layer_to_layer(backend):
    tokens = np.array([[3, 1, 0, 0], [2, 4, 4, 0]], "int32")
    embed = layers.Embedding(5, 3, mask_zero=True)
    lstm = layers.LSTM(2)
    pipeline = layers.Pipeline([embed, lstm])
    out = to_numpy(pipeline(tokens))
    vectors = to_numpy(embed(tokens))  # a new array: it carries no mask
    np.testing.assert_allclose(out, to_numpy(lstm(vectors, mask=tokens != 0)), rtol=1e-5, atol=1e-6)
    assert not np.allclose(out, to_numpy(lstm(vectors)), atol=1e-6), "the mask made no difference"
    assert len(pipeline.trainable_weights) == 1 + 3


def test_config_is_keras_shaped_and_a_saved_model_predicts_the_same(backend, tmp_path):
    pipeline = layers.Pipeline([layers.Rescaling(0.5), layers.RandomCrop(4, 5, seed=3), layers.Dense(2)], name="pre")
    config = pipeline.get_config()
    assert set(config) == {"layers", "name"} and config["name"] == "pre"
    assert [c["class_name"] for c in config["layers"]] == ["Rescaling", "RandomCrop", "Dense"]
    clone = layers.Pipeline.from_config(config)
    assert [type(layer).__name__ for layer in clone.layers] == ["Rescaling", "RandomCrop", "Dense"]
    model = hl.Sequential([hl.Input((6, 8, 2)), pipeline, layers.Flatten(), layers.Dense(1)])
    path = tmp_path / "pipeline.keras"
    model.save(str(path))
    loaded = hl.saving.load_model(str(path))
    x = images()
    np.testing.assert_allclose(to_numpy(loaded.predict(x, verbose=0)), to_numpy(model.predict(x, verbose=0)), atol=1e-5)


def test_in_tf_data_map(backend):
    tf = pytest.importorskip("tensorflow")
    x = np.repeat(images()[:1], 6, axis=0)
    pipeline = layers.Pipeline([layers.Rescaling(2.0), layers.RandomCrop(4, 5, seed=4), layers.RandomFlip(seed=5)])
    out = np.concatenate([np.asarray(v) for v in tf.data.Dataset.from_tensor_slices(x).batch(1).map(pipeline)])
    assert out.shape == (6, 4, 5, 2)
    assert len({o.tobytes() for o in out}) >= 2, "every batch came out the same"
    still = layers.Pipeline([layers.Rescaling(2.0), layers.CenterCrop(4, 6)])
    mapped = np.concatenate([np.asarray(v) for v in tf.data.Dataset.from_tensor_slices(x).batch(3).map(still)])
    np.testing.assert_allclose(mapped, to_numpy(still(x)), rtol=1e-6)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="list of layers"):
        layers.Pipeline(layers.Rescaling(2.0))
    with pytest.raises(ValueError, match="list of layers"):
        layers.Pipeline([lambda x: x])
    with pytest.raises(ValueError, match="layers"):
        layers.Pipeline.from_config({"name": "p"})
