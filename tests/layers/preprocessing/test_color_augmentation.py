"""The color/intensity augmentation layers: RandomBrightness, RandomGrayscale, RandomInvert, Solarization,
RandomPosterization, AutoContrast, RandomSaturation, RandomColorDegeneration, RandomSharpness,
RandomHue, RandomColorJitter,
RandomGaussianBlur and Equalization.

Keras 3 is the oracle for the transform itself: both layers get the same drawn parameters through
``transform_images``, and single-point factor ranges pin the draw of a whole call. The draws are checked for
range, per-call freshness and a repeatable sequence from a seed on each engine (each engine's own
generator draws, as for the other random image layers, so the sequences differ between engines).
"""

import keras
import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .categorical_oracle import save_and_load

#: Four 8x8 RGB images in [0, 255).
RGB = (np.random.default_rng(1).random((4, 8, 8, 3)) * 255).astype("float32")

#: name -> constructor arguments of a random case, used by the generic checks.
RANDOM_CASES = {
    "RandomBrightness": {"factor": 0.4},
    "RandomGrayscale": {"factor": 0.5},
    "RandomInvert": {"factor": (0.3, 0.9)},
    "Solarization": {"addition_factor": (0.0, 0.4), "threshold_factor": (0.2, 0.9)},
    "RandomPosterization": {"factor": (1, 8)},
    # Keras clips the scaled saturation to value_range; with (0, 1) that is the valid range, as here always.
    "RandomSaturation": {"factor": (0.2, 0.8), "value_range": (0, 1)},
    "RandomColorDegeneration": {"factor": 0.8},
    "RandomSharpness": {"factor": (0.0, 1.0)},
    "RandomHue": {"factor": 0.8},
    "RandomColorJitter": {
        "value_range": (0, 1),
        "brightness_factor": 0.2,
        "contrast_factor": 0.3,
        "saturation_factor": (0.3, 0.7),
        "hue_factor": 0.3,
    },
    # A square kernel: Keras's engines disagree among themselves on the axes of a non-square one.
    "RandomGaussianBlur": {"factor": (0.3, 1.0), "kernel_size": 5, "sigma": (0.3, 1.0)},
}

#: The layers that draw nothing.
DETERMINISTIC = ["AutoContrast", "Equalization"]

#: Keras's RandomColorJitter draws inside its transform, so it is compared by pinned draws only.
NO_SHARED_DRAW = {"RandomColorJitter"}


def _np(x):
    return np.asarray(hl.ops.convert_to_numpy(x))


def _ours(name, kwargs, x, **call):
    return _np(getattr(layers, name)(**kwargs)(hl.ops.convert_to_tensor(x), **call))


def _transformation_to_numpy(t):
    if t is None:
        return None
    if isinstance(t, dict):
        return {k: _np(v) for k, v in t.items()}
    return _np(t)


def _keras_transform(name, kwargs, x, transformation):
    layer = getattr(keras.layers, name)(**kwargs)
    out = layer.transform_images(keras.ops.convert_to_tensor(x), transformation, training=True)
    return np.asarray(keras.ops.convert_to_numpy(out))


@pytest.mark.parametrize("name", sorted(RANDOM_CASES) + DETERMINISTIC)
def test_standard_checks(backend, name):
    kwargs = {} if name in DETERMINISTIC else dict(RANDOM_CASES[name], seed=1)
    run_layer_test(
        getattr(layers, name),
        kwargs,
        input_shape=(2, 5, 6, 3),
        expected_output_shape=(2, 5, 6, 3),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
        call_kwargs={"training": False},
        atol=1e-5,
        rtol=1e-5,
    )


@pytest.mark.parametrize("name", sorted(set(RANDOM_CASES) - NO_SHARED_DRAW))
def test_same_parameters_give_keras_output(backend, name):
    """Our draw, fed to Keras's ``transform_images``, gives our output."""
    layer = getattr(layers, name)(seed=4, **RANDOM_CASES[name])
    rgb = RGB / 255.0 if RANDOM_CASES[name].get("value_range") == (0, 1) else RGB
    x = hl.ops.convert_to_tensor(rgb)
    changed = False
    for _ in range(3):  # three draws: some image changes in one of them
        transformation = layer.get_random_transformation(x, training=True)
        ours = _np(layer.transform_images(x, transformation, training=True))
        theirs_t = _transformation_to_numpy(transformation)
        if name == "RandomPosterization":  # Keras shifts bits of uint8 values
            theirs_t = {"shift_factor": theirs_t["shift_factor"].astype("uint8")}
        theirs = _keras_transform(name, RANDOM_CASES[name], rgb, theirs_t)
        np.testing.assert_allclose(ours, theirs, atol=1e-3)
        changed = changed or not np.allclose(ours, rgb)
    assert changed


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("RandomBrightness", {"factor": (0.2, 0.2)}),
        ("RandomBrightness", {"factor": (-0.5, -0.5), "value_range": (0, 1)}),
        ("RandomGrayscale", {"factor": 1.0}),
        ("RandomGrayscale", {"factor": 0.0}),
        ("RandomInvert", {"factor": (1.0, 1.0)}),
        # Keras scales only the upper end of a Solarization factor by 255, so only zero ranges pin its draw.
        ("Solarization", {}),
        ("Solarization", {"value_range": (0, 1)}),
        ("RandomPosterization", {"factor": (3, 3)}),
        ("RandomPosterization", {"factor": (5, 5), "value_range": (0, 1)}),
        ("AutoContrast", {}),
        ("RandomSaturation", {"factor": (0.0, 0.0), "value_range": (0, 1)}),
        ("RandomSaturation", {"factor": (0.3, 0.3), "value_range": (0, 1)}),
        ("RandomColorDegeneration", {"factor": (0.6, 0.6)}),
        ("RandomColorDegeneration", {"factor": (-0.4, -0.4), "data_format": "channels_last"}),
        ("RandomSharpness", {"factor": (0.9, 0.9)}),
        ("RandomHue", {"factor": (0.0, 0.0), "value_range": (0, 1)}),
        (
            "RandomColorJitter",
            {
                "value_range": (0, 1),
                "brightness_factor": (0.1, 0.1),
                "contrast_factor": (-0.3, 0.3),
                "saturation_factor": (0.3, 0.3),
                "hue_factor": (0.0, 0.0),
            },
        ),
        ("RandomColorJitter", {"brightness_factor": (-0.2, -0.2), "contrast_factor": (-0.5, 0.5)}),
        ("RandomGaussianBlur", {"factor": (1.0, 1.0), "sigma": (0.8, 0.8)}),
        ("RandomGaussianBlur", {"factor": (1.0, 1.0), "kernel_size": 5, "sigma": (0.5, 0.5), "value_range": (0, 1)}),
        ("RandomSharpness", {"factor": (0.1, 0.1), "value_range": (0, 1)}),
        ("AutoContrast", {"value_range": (0, 1)}),
        ("Equalization", {}),
        ("Equalization", {"value_range": (0, 1), "bins": 16}),
        ("Equalization", {"data_format": "channels_first"}),
    ],
)
def test_pinned_draw_matches_keras_call(backend, name, kwargs):
    x = RGB / 255.0 if kwargs.get("value_range") == (0, 1) else RGB
    if kwargs.get("data_format") == "channels_first":
        x = np.transpose(x, (0, 3, 1, 2))
    if name in DETERMINISTIC:  # skew and stretch something that does not already fill the range
        x = (x / x.max()) ** 2 * 0.5 * x.max() + 0.1 * x.max()
    want = np.asarray(keras.ops.convert_to_numpy(getattr(keras.layers, name)(**kwargs)(x, training=True)))
    np.testing.assert_allclose(_ours(name, kwargs, x, training=True), want, atol=1e-4)
    if name != "Equalization":  # (whose histogram is the whole batch's)
        np.testing.assert_allclose(_ours(name, kwargs, x[0], training=True), want[0], atol=1e-4)


def test_auto_contrast_fills_the_range_and_acts_at_inference(backend):
    x = RGB * 0.3 + 40.0
    x[1, :, :, 2] = 7.0  # a constant channel stays as it is
    y = _ours("AutoContrast", {}, x, training=False)
    np.testing.assert_allclose(y[0].min(axis=(0, 1)), 0.0, atol=1e-3)
    np.testing.assert_allclose(y[0].max(axis=(0, 1)), 255.0, atol=1e-3)
    np.testing.assert_array_equal(y[1, :, :, 2], 7.0)
    first = _ours("AutoContrast", {"data_format": "channels_first"}, np.transpose(x, (0, 3, 1, 2)))
    np.testing.assert_allclose(np.transpose(first, (0, 2, 3, 1)), y, atol=1e-3)


@pytest.mark.parametrize("name", sorted(RANDOM_CASES))
def test_random_draws(backend, name):
    """Identity at inference; in range; seeded repeatable; a second call draws anew."""
    kwargs = RANDOM_CASES[name]
    np.testing.assert_array_equal(_ours(name, dict(kwargs, seed=3), RGB, training=False), RGB)
    layer = getattr(layers, name)(seed=3, **kwargs)
    x = hl.ops.convert_to_tensor(np.concatenate([RGB, RGB]))
    first, second = _np(layer(x, training=True)), _np(layer(x, training=True))
    assert first.shape == (8, 8, 8, 3) and first.min() >= 0.0 and first.max() <= 255.0
    assert not np.array_equal(first, second), "two calls drew the same transform"
    changed = [not np.allclose(a, b) for a, b in zip(first, np.concatenate([RGB, RGB]))]
    assert any(changed)
    if name != "RandomBrightness":  # every image has its own draw: not all changed the same way
        assert len({a.tobytes() for a in first}) > 1
    np.testing.assert_array_equal(_ours(name, dict(kwargs, seed=3), np.concatenate([RGB, RGB])), first)


def test_probabilities_are_respected(backend):
    x = np.repeat(RGB[:1], 200, axis=0)[:, :2, :2]
    gray = _ours("RandomGrayscale", {"factor": 0.25, "seed": 5}, x, training=True)
    converted = np.mean([np.allclose(g[..., 0], g[..., 1]) for g in gray])
    assert 0.15 < converted < 0.35
    inv = _ours("RandomInvert", {"factor": (0.5, 0.5), "seed": 5}, x, training=True)
    inverted = np.mean([np.allclose(i, 255.0 - x[0, :2, :2]) for i in inv])
    assert 0.38 < inverted < 0.62


@pytest.mark.parametrize("name", sorted(RANDOM_CASES) + DETERMINISTIC)
def test_save_and_load(backend, tmp_path, name):
    kwargs = {} if name in DETERMINISTIC else dict(RANDOM_CASES[name], seed=9)
    model = hl.Sequential([hl.Input((8, 8, 3)), getattr(layers, name)(**kwargs)])
    loaded = save_and_load(model, tmp_path)
    assert loaded.layers[0].get_config() == model.layers[0].get_config()
    np.testing.assert_allclose(_np(loaded.predict(RGB, verbose=0)), _np(model.predict(RGB, verbose=0)), atol=1e-5)
    # A loaded seeded layer draws what a fresh one with the same arguments draws.
    fresh = getattr(layers, name)(**kwargs)
    np.testing.assert_allclose(_np(loaded.layers[0](RGB, training=True)), _np(fresh(RGB, training=True)), atol=1e-5)


@pytest.mark.parametrize(
    "name,kwargs,match",
    [
        ("RandomBrightness", {"factor": 1.5}, "factor"),
        ("RandomBrightness", {"factor": 0.2, "value_range": (1, 1)}, "value_range"),
        ("RandomGrayscale", {"factor": 2.0}, "factor"),
        ("RandomInvert", {"factor": -0.5}, "factor"),
        ("Solarization", {"threshold_factor": 1.2}, "threshold_factor"),
        ("RandomPosterization", {"factor": 9}, "factor"),
        ("RandomPosterization", {"factor": 2.5}, "factor"),
        ("AutoContrast", {"value_range": 255}, "value_range"),
        ("Equalization", {"bins": 1}, "bins"),
        ("RandomSaturation", {"factor": 1.5}, "factor"),
        ("RandomColorDegeneration", {"factor": (0.2, 3.0)}, "factor"),
        ("RandomSharpness", {"factor": -0.5}, "factor"),
        ("RandomHue", {"factor": 1.5}, "factor"),
        ("RandomColorJitter", {"saturation_factor": 2.0}, "factor"),
        ("RandomGaussianBlur", {"kernel_size": 4}, "kernel_size"),
        ("RandomGaussianBlur", {"sigma": (0.5, 2.0)}, "sigma"),
    ],
)
def test_invalid_arguments(name, kwargs, match):
    with pytest.raises(ValueError, match=match):
        getattr(layers, name)(**kwargs)


def test_grayscale_needs_three_channels():
    with pytest.raises(ValueError, match="3 channels"):
        layers.RandomGrayscale(factor=1.0)(np.zeros((1, 4, 4, 2), "float32"), training=True)


def test_equalization_flattens_the_histogram_of_the_batch(backend):
    x = ((RGB / 255.0) ** 3 * 255.0).astype("float32")  # most values dark
    y = _ours("Equalization", {}, x, training=True)
    np.testing.assert_array_equal(_ours("Equalization", {}, x, training=False), x)
    for c in range(3):
        # Equalized, the values spread over the range: the median moves up to about the middle.
        assert np.median(x[..., c]) < 60 and 100 < np.median(y[..., c]) < 155
        order = np.argsort(x[..., c], axis=None)
        assert np.all(np.diff(y[..., c].ravel()[order]) >= 0), "equalization must keep the order of values"


def test_equalization_in_tf_data_equalizes_each_batch(backend):
    tf = pytest.importorskip("tensorflow")
    layer = layers.Equalization()
    out = [np.asarray(b) for b in tf.data.Dataset.from_tensor_slices(RGB).batch(2).map(lambda b: layer(b))]
    np.testing.assert_allclose(np.concatenate(out[:1]), _np(layer(RGB[:2])), atol=1e-4)
    np.testing.assert_allclose(out[1], _np(layer(RGB[2:])), atol=1e-4)


@pytest.mark.parametrize("name", ["RandomBrightness", "Equalization", "RandomColorJitter"])
def test_dict_input_changes_only_the_images(backend, name):
    kwargs = {} if name in DETERMINISTIC else dict(RANDOM_CASES[name], seed=2)
    boxes = {"boxes": np.array([[[1, 2, 5, 6]]] * 4, "float32"), "labels": np.array([[1]] * 4, "int32")}
    data = {"images": RGB, "labels": np.arange(4, dtype="int32"), "bounding_boxes": boxes}
    out = getattr(layers, name)(bounding_box_format="xyxy", **kwargs)(data, training=True)
    assert sorted(out) == ["bounding_boxes", "images", "labels"]
    np.testing.assert_allclose(_np(out["images"]), _ours(name, kwargs, RGB, training=True), atol=1e-5)
    assert not np.allclose(_np(out["images"]), RGB)
    np.testing.assert_array_equal(_np(out["bounding_boxes"]["boxes"]), boxes["boxes"])
    np.testing.assert_array_equal(_np(out["labels"]), data["labels"])
    with pytest.raises(ValueError, match="'images'"):
        getattr(layers, name)(**kwargs)({"pixels": RGB})
    layer = getattr(layers, name)(bounding_box_format="xyxy", **kwargs)
    assert type(layer).from_config(layer.get_config()).bounding_box_format == "xyxy"
