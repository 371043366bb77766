"""AugMix: the input blended with a Dirichlet-weighted mix of random augmentation chains of it.

Keras 3 is the oracle for the transform: a transformation Keras draws (its layout names each link's
operation) is fed to both layers. The picks and weights are each engine's own draws, checked for their
ranges, their repeatability from a seed and their effect.
"""

import random

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
        layers.AugMix,
        {"seed": 1, "num_chains": 2, "chain_depth": 2},
        input_shape=(2, 8, 8, 3),
        expected_output_shape=(2, 8, 8, 3),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
        call_kwargs={"training": training},
        run_config_check=not training,
        run_training_check=False,
    )


@pytest.mark.parametrize(
    "kwargs", [{}, {"all_ops": False, "value_range": (0, 1), "factor": 0.6, "alpha": 0.5, "num_chains": 2}]
)
def test_matches_keras_given_a_keras_transformation(backend, kwargs):
    x = images(kwargs.get("value_range", (0, 255)))
    theirs = keras.layers.AugMix(seed=3, **kwargs)
    scale = 1.0 if "value_range" not in kwargs else 1 / 255.0
    for python_seed in (0, 1):
        random.seed(python_seed)  # Keras picks the operations with Python's `random`
        transformation = as_numpy(theirs.get_random_transformation(x))
        want = keras.ops.convert_to_numpy(theirs.transform_images(x, transformation))
        got = to_numpy(layers.AugMix(**kwargs).transform_images(hl.ops.convert_to_tensor(x), transformation))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=2e-3 * scale)
        assert np.abs(want - x).max() > 1.0 * scale


def test_a_fixed_transformation_in_our_layout(backend):
    layer = layers.AugMix(num_chains=2, chain_depth=2, all_ops=False)
    drawn = layer.get_random_transformation(RGB)
    nothing = len(layer.operations)
    # Every link empty: both chains are the input, and so is the blend.
    fixed = dict(drawn, layer_idxes=np.full((2, 2), nothing, "int32"))
    np.testing.assert_allclose(to_numpy(layer.transform_images(RGB, fixed)), RGB, rtol=1e-6, atol=1e-3)
    # One auto-contrast link in the first chain only, weights (1, 0) and blend 0: the auto-contrast of the input.
    picks = np.array([[5, nothing], [nothing, nothing]], "int32")  # 5: auto_contrast
    fixed = dict(drawn, layer_idxes=picks, chain_mixing_weights=np.array([1.0, 0.0], "float32"), weight_sample=0.0)
    want = keras.ops.convert_to_numpy(keras.layers.AutoContrast()(RGB))
    np.testing.assert_allclose(to_numpy(layer.transform_images(RGB, fixed)), want, rtol=1e-5, atol=1e-3)


def test_draws_lie_in_their_ranges(backend):
    layer = layers.AugMix(num_chains=4, chain_depth=30, seed=4)
    drawn = layer.get_random_transformation(RGB)
    weights = to_numpy(drawn["chain_mixing_weights"])
    assert weights.shape == (4,) and np.all(weights >= 0) and abs(weights.sum() - 1.0) < 1e-5
    assert 0.0 <= float(to_numpy(drawn["weight_sample"])) <= 1.0
    picks = to_numpy(drawn["layer_idxes"])
    assert picks.shape == (4, 30) and picks.min() >= 0 and picks.max() <= len(layer.operations)
    assert len(np.unique(picks)) >= 10  # 12 choices (11 operations or nothing) over 120 links
    assert len(drawn["chain_transforms"]) == 4 and len(drawn["chain_transforms"][0]) == 30
    assert layer.get_random_transformation(RGB, training=False) is None


def test_inference_is_the_identity_and_training_changes_plausibly(backend):
    np.testing.assert_array_equal(to_numpy(layers.AugMix(seed=5)(RGB, training=False)), RGB)
    layer = layers.AugMix(seed=5)
    outputs = [to_numpy(layer(RGB, training=True)) for _ in range(3)]
    for y in outputs:
        assert y.shape == RGB.shape and y.dtype == np.float32
        assert y.min() >= 0.0 and y.max() <= 255.0
    changes = [np.abs(y - RGB).mean() for y in outputs]
    # A blend with the input: a visible change, yet well short of replacing the images.
    assert all(c < 120.0 for c in changes) and max(changes) > 0.5, changes
    assert len({y.tobytes() for y in outputs}) == 3, "three calls drew the same augmentation"


def test_seeded_draws_repeat_per_engine(backend):
    first = to_numpy(layers.AugMix(seed=6)(RGB, training=True))
    np.testing.assert_array_equal(first, to_numpy(layers.AugMix(seed=6)(RGB, training=True)))
    single = to_numpy(layers.AugMix(seed=6, num_chains=1)(RGB[0], training=True))
    assert single.shape == RGB[0].shape


def test_dict_inputs_keep_labels_and_refuse_boxes_and_masks(backend):
    x = RGB
    labels = np.arange(3, dtype="float32")
    out = layers.AugMix(seed=11)({"images": x, "labels": labels}, training=True)
    assert sorted(out) == ["images", "labels"]
    np.testing.assert_array_equal(to_numpy(out["labels"]), labels)
    assert to_numpy(out["images"]).shape == x.shape
    with pytest.raises(NotImplementedError, match="segmentation_masks"):
        layers.AugMix(seed=11)({"images": x, "segmentation_masks": x[..., :1]}, training=True)


def test_config_and_saved_model_round_trip(backend, tmp_path):
    layer = layers.AugMix(value_range=(0, 1), num_chains=2, chain_depth=1, factor=0.2, alpha=0.5, all_ops=False, seed=7)
    config = layer.get_config()
    keys = ("value_range", "num_chains", "chain_depth", "factor", "alpha", "all_ops", "interpolation", "seed")
    assert {k: config[k] for k in keys} == {
        "value_range": [0.0, 1.0],
        "num_chains": 2,
        "chain_depth": 1,
        "factor": 0.2,
        "alpha": 0.5,
        "all_ops": False,
        "interpolation": "bilinear",
        "seed": 7,
    }
    assert layers.AugMix.from_config(config).get_config() == config
    model = hl.Sequential([hl.Input((8, 8, 3)), layer, layers.Flatten(), layers.Dense(2)])
    x = RGB[:2] / 255.0
    loaded = save_and_load(model, tmp_path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), atol=1e-5)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="num_chains"):
        layers.AugMix(num_chains=0)
    with pytest.raises(ValueError, match="chain_depth"):
        layers.AugMix(chain_depth=-1)
    with pytest.raises(ValueError, match="alpha"):
        layers.AugMix(alpha=0.0)
    with pytest.raises(ValueError, match="factor"):
        layers.AugMix(factor=(0.2, 1.2))
