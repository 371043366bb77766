"""RandomShear: a random shear per image in training, Keras's transform given the same shear factors."""

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
        layers.RandomShear,
        {"x_factor": 0.3, "y_factor": 0.2, "seed": 1},
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
    check_random_layer_basics("RandomShear", {"x_factor": 0.5, "y_factor": 0.5})


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"fill_mode": "constant", "fill_value": 3.0, "interpolation": "nearest"},
        {"fill_mode": "wrap", "data_format": "channels_first"},
    ],
)
def test_transform_images_matches_keras_given_the_same_factors(backend, kwargs):
    x = images(kwargs.get("data_format", "channels_last"))
    factors = np.array([[0.3, 0.0], [-0.4, 0.2], [0.0, -0.5]], "float32")
    ours = layers.RandomShear(x_factor=0.5, y_factor=0.5, **kwargs)
    theirs = keras.layers.RandomShear(x_factor=0.5, y_factor=0.5, **kwargs)
    transformation = {"shear_factor": factors, "input_shape": x.shape}
    want = keras.ops.convert_to_numpy(theirs.transform_images(x, transformation, training=True))
    np.testing.assert_allclose(to_numpy(ours.transform_images(x, transformation)), want, rtol=1e-5, atol=1e-3)


def test_drawn_factors_lie_in_the_ranges_with_both_signs(backend):
    x = np.zeros((64, 4, 4, 1), "float32")
    drawn = to_numpy(
        layers.RandomShear(x_factor=(0.2, 0.4), y_factor=0.1, seed=2).get_random_transformation(x)["shear_factor"]
    )
    assert drawn.shape == (64, 2)
    assert np.all((np.abs(drawn[:, 0]) >= 0.2 - 1e-6) & (np.abs(drawn[:, 0]) <= 0.4 + 1e-6))
    assert np.all(np.abs(drawn[:, 1]) <= 0.1 + 1e-6)
    negative = (drawn[:, 0] < 0).sum()
    assert 16 <= negative <= 48, f"{negative} of 64 shears were negative"
    assert len(np.unique(drawn[:, 0])) == 64
    # One sign draw negates both shears together.
    both = layers.RandomShear(x_factor=(0.2, 0.4), y_factor=(0.2, 0.4), seed=2).get_random_transformation(x)
    both = to_numpy(both["shear_factor"])
    np.testing.assert_array_equal(np.sign(both[:, 0]), np.sign(both[:, 1]))


def test_fixed_shear_moves_rows(backend):
    x = np.tile(np.arange(8, dtype="float32"), (8, 1))[None, :, :, None]  # column index as the value
    layer = layers.RandomShear(x_factor=(0.25, 0.25), fill_mode="nearest", seed=3)
    y = to_numpy(layer(x))[0, :, :, 0]
    shift = y[4, 2] - x[0, 4, 2, 0]  # the row y=4 reads x + s*4 with s = +-0.25: a shift of +-1
    assert abs(abs(shift) - 1.0) < 1e-5
    np.testing.assert_allclose(y[0], x[0, 0, :, 0])  # the top row stays


def test_config_and_saved_model_round_trip(backend, tmp_path):
    layer = layers.RandomShear(x_factor=(0.1, 0.3), y_factor=0.2, fill_mode="constant", fill_value=1.0, seed=5)
    config = layer.get_config()
    assert {k: config[k] for k in ("x_factor", "y_factor", "fill_mode", "fill_value", "interpolation", "seed")} == {
        "x_factor": [0.1, 0.3],
        "y_factor": 0.2,
        "fill_mode": "constant",
        "fill_value": 1.0,
        "interpolation": "bilinear",
        "seed": 5,
    }
    assert layers.RandomShear.from_config(config).get_config() == config
    model = hl.Sequential([hl.Input((6, 8, 2)), layer, layers.Flatten(), layers.Dense(2)])
    path = tmp_path / "shear.keras"
    model.save(str(path))
    loaded = hl.saving.load_model(str(path))
    x = images()
    np.testing.assert_allclose(to_numpy(loaded.predict(x, verbose=0)), to_numpy(model.predict(x, verbose=0)), atol=1e-5)


def test_in_tf_data_map(backend):
    tf = pytest.importorskip("tensorflow")
    x = np.repeat(images()[:1], 8, axis=0)
    layer = layers.RandomShear(x_factor=0.5, seed=6)
    out = np.concatenate([np.asarray(v) for v in tf.data.Dataset.from_tensor_slices(x).batch(4).map(layer)])
    assert out.shape == x.shape and len({o.tobytes() for o in out}) == 8


def test_invalid_arguments():
    with pytest.raises(ValueError, match="x_factor"):
        layers.RandomShear(x_factor=-0.2)
    with pytest.raises(ValueError, match="y_factor"):
        layers.RandomShear(y_factor=(0.1, 1.5))
    with pytest.raises(ValueError, match="fill_mode"):
        layers.RandomShear(fill_mode="mirror")
