"""RandomPerspective: random corner moves in training, Keras's warp given the same points."""

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
        layers.RandomPerspective,
        {"scale": 0.4, "seed": 1},
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
    check_random_layer_basics("RandomPerspective", {"factor": (1.0, 1.0), "scale": 0.5})


@pytest.mark.parametrize(
    "kwargs", [{}, {"interpolation": "nearest", "fill_value": 9.0, "data_format": "channels_first"}]
)
def test_transform_images_matches_keras_given_the_same_points(backend, kwargs):
    x = images(kwargs.get("data_format", "channels_last"))
    ours = layers.RandomPerspective(scale=0.6, seed=2, **kwargs)
    theirs = keras.layers.RandomPerspective(scale=0.6, seed=2, **kwargs)
    drawn = ours.get_random_transformation(x)
    drawn = {k: (v if k == "input_shape" else to_numpy(v)) for k, v in drawn.items()}
    drawn["apply_perspective"] = np.array([True, False, True])
    assert drawn["start_points"].shape == (3, 4, 2)
    want = keras.ops.convert_to_numpy(theirs.transform_images(x, drawn, training=True))
    got = to_numpy(ours.transform_images(x, drawn))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-2)
    np.testing.assert_array_equal(got[1], x[1])
    assert not np.allclose(got[0], x[0])


def test_probability_and_scale(backend):
    x = np.random.default_rng(0).random((64, 5, 6, 2)).astype("float32")
    changed = lambda y: np.any(np.abs(y - x) > 1e-5, axis=(1, 2, 3))  # noqa: E731
    always = to_numpy(layers.RandomPerspective(factor=(1.0, 1.0), scale=0.5, seed=3)(x))
    assert changed(always).all()
    np.testing.assert_allclose(always[:, 0, 0], x[:, 0, 0], atol=1e-5)  # the top-left corner stays
    np.testing.assert_array_equal(to_numpy(layers.RandomPerspective(factor=0.0, seed=3)(x)), x)
    still = to_numpy(layers.RandomPerspective(factor=(1.0, 1.0), scale=0.0, seed=3)(x))
    np.testing.assert_allclose(still, x, atol=1e-5)
    half = changed(to_numpy(layers.RandomPerspective(factor=1.0, scale=0.5, seed=3)(x))).sum()
    assert 16 <= half <= 48, f"{half} of 64 images warped"


def test_config_and_saved_model_round_trip(backend, tmp_path):
    layer = layers.RandomPerspective(factor=(0.2, 0.8), scale=0.3, interpolation="nearest", fill_value=2.0, seed=5)
    config = layer.get_config()
    assert {k: config[k] for k in ("factor", "scale", "interpolation", "fill_value", "seed")} == {
        "factor": [0.2, 0.8],
        "scale": 0.3,
        "interpolation": "nearest",
        "fill_value": 2.0,
        "seed": 5,
    }
    assert layers.RandomPerspective.from_config(config).get_config() == config
    model = hl.Sequential([hl.Input((6, 8, 2)), layer, layers.Flatten(), layers.Dense(2)])
    path = tmp_path / "perspective.keras"
    model.save(str(path))
    loaded = hl.saving.load_model(str(path))
    x = images()
    np.testing.assert_allclose(to_numpy(loaded.predict(x, verbose=0)), to_numpy(model.predict(x, verbose=0)), atol=1e-5)


def test_in_tf_data_map(backend):
    tf = pytest.importorskip("tensorflow")
    x = np.repeat(images()[:1], 8, axis=0)
    layer = layers.RandomPerspective(factor=(1.0, 1.0), scale=0.5, seed=6)
    out = np.concatenate([np.asarray(v) for v in tf.data.Dataset.from_tensor_slices(x).batch(4).map(layer)])
    assert out.shape == x.shape and len({o.tobytes() for o in out}) == 8


def test_invalid_arguments():
    with pytest.raises(ValueError, match="factor"):
        layers.RandomPerspective(factor=2.0)
    with pytest.raises(ValueError, match="scale"):
        layers.RandomPerspective(scale=1.5)
    with pytest.raises(ValueError, match="interpolation"):
        layers.RandomPerspective(interpolation="bicubic")
