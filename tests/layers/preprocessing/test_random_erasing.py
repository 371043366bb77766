"""RandomErasing: rectangles filled at random in training, Keras's transform given the same draws."""

import keras
import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .image_helpers import check_random_layer_basics, images, to_numpy


@pytest.mark.parametrize("training", [False, True])
def test_standard_checks(backend, training):
    run_layer_test(
        layers.RandomErasing,
        {"factor": 0.5, "seed": 1},
        input_shape=(2, 5, 6, 3),
        expected_output_shape=(2, 5, 6, 3),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
        call_kwargs={"training": training},
        run_config_check=not training,
        run_training_check=False,
    )


def test_random_basics(backend):
    check_random_layer_basics("RandomErasing", {"factor": (1.0, 1.0), "scale": (0.2, 0.5)})


def _erased(x, y):
    return np.any(x != y, axis=tuple(range(1, x.ndim)))


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_erases_one_rectangle_per_chosen_image(backend, data_format):
    x = np.full((64, 6, 8, 3), 100.0, "float32")
    if data_format == "channels_first":
        x = np.transpose(x, (0, 3, 1, 2))
    kw = {"scale": (0.2, 0.5), "fill_value": 7.0, "seed": 2, "data_format": data_format}
    always = to_numpy(layers.RandomErasing(factor=(1.0, 1.0), **kw)(x))
    assert _erased(x, always).all()
    assert set(np.unique(always)) == {7.0, 100.0}
    for image in always if data_format == "channels_last" else np.transpose(always, (0, 2, 3, 1)):
        hit = image[:, :, 0] == 7.0
        assert (image == 7.0).all(axis=-1)[hit].all(), "the channels were not erased together"
        rows, cols = np.flatnonzero(hit.any(axis=1)), np.flatnonzero(hit.any(axis=0))
        assert hit[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1].all(), "the erased pixels are not a rectangle"
        assert 1 <= len(rows) <= 6 and 2 <= len(cols) <= 6  # sqrt(0.2..0.5) of 6 and 8, rounded to pixels
    never = to_numpy(layers.RandomErasing(factor=0.0, **kw)(x))
    np.testing.assert_array_equal(never, x)
    # factor=1.0 draws the probability from [0, 1]: about half the images are erased.
    half = _erased(x, to_numpy(layers.RandomErasing(factor=1.0, **kw)(x))).sum()
    assert 16 <= half <= 48, f"{half} of 64 images erased"


def test_noise_fill_stays_in_value_range(backend):
    x = np.full((8, 6, 8, 3), 0.5, "float32")
    y = to_numpy(layers.RandomErasing(factor=(1.0, 1.0), scale=0.6, value_range=(0, 1), seed=3)(x))
    assert y.min() >= 0.0 and y.max() <= 1.0
    assert len(np.unique(y[y != 0.5])) > 10, "the fill is not noise"


def test_transform_images_matches_keras_given_the_same_draws(backend):
    x = images()
    ours = layers.RandomErasing(factor=(0.6, 0.9), scale=(0.1, 0.6), seed=4)
    theirs = keras.layers.RandomErasing(factor=(0.6, 0.9), scale=(0.1, 0.6), seed=4)
    drawn = {k: to_numpy(v) for k, v in ours.get_random_transformation(x).items()}
    assert drawn["batch_masks"].shape == x.shape and drawn["apply_erasing"].shape == (3,)
    want = keras.ops.convert_to_numpy(theirs.transform_images(x, drawn, training=True))
    np.testing.assert_array_equal(to_numpy(ours.transform_images(x, drawn)), want)
    keras_drawn = {k: keras.ops.convert_to_numpy(v) for k, v in theirs.get_random_transformation(x).items()}
    want = keras.ops.convert_to_numpy(theirs.transform_images(x, keras_drawn, training=True))
    np.testing.assert_array_equal(to_numpy(ours.transform_images(x, keras_drawn)), want)
    assert ours.get_random_transformation(x, training=False) is None


def test_config_and_saved_model_round_trip(backend, tmp_path):
    layer = layers.RandomErasing(factor=0.7, scale=(0.1, 0.3), fill_value=[1, 2, 3], value_range=(0, 1), seed=5)
    config = layer.get_config()
    assert {k: config[k] for k in ("factor", "scale", "fill_value", "value_range", "seed")} == {
        "factor": 0.7,
        "scale": [0.1, 0.3],
        "fill_value": [1, 2, 3],
        "value_range": [0.0, 1.0],
        "seed": 5,
    }
    assert layers.RandomErasing.from_config(config).get_config() == config
    model = hl.Sequential([hl.Input((6, 8, 2)), layers.RandomErasing(seed=1), layers.Flatten(), layers.Dense(2)])
    path = tmp_path / "erasing.keras"
    model.save(str(path))
    loaded = hl.saving.load_model(str(path))
    x = images()
    np.testing.assert_allclose(to_numpy(loaded.predict(x, verbose=0)), to_numpy(model.predict(x, verbose=0)), atol=1e-5)


def test_in_tf_data_map(backend):
    tf = pytest.importorskip("tensorflow")
    x = np.full((8, 6, 8, 3), 100.0, "float32")
    layer = layers.RandomErasing(factor=(1.0, 1.0), fill_value=0.0, seed=6)
    out = np.concatenate([np.asarray(v) for v in tf.data.Dataset.from_tensor_slices(x).batch(4).map(layer)])
    assert _erased(x, out).all() and len({o.tobytes() for o in out}) >= 4


def test_invalid_arguments():
    with pytest.raises(ValueError, match="factor"):
        layers.RandomErasing(factor=1.5)
    with pytest.raises(ValueError, match="scale"):
        layers.RandomErasing(scale=(0.1, 2.0))
    with pytest.raises(ValueError, match="fill_value"):
        layers.RandomErasing(fill_value=[1, 2])
    with pytest.raises(ValueError, match="value_range"):
        layers.RandomErasing(value_range=(1, 0))
