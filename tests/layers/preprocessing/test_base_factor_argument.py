"""The ``factor`` keyword of Keras's image-layer base class, for the layers without a ``factor`` of their own:
refused with a clear error where Keras refuses it, stored (and unused) where Keras stores it."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.core.keras_oracle import keras_module

ARGS = {"CenterCrop": (2, 2), "RandomCrop": (2, 2), "Resizing": (2, 2), "MaxNumBoundingBoxes": (3,)}
ARGS.update({"RandomTranslation": (0.1, 0.1), "RandomZoom": (0.1,)})
REFUSED = ["AutoContrast", "CenterCrop", "RandomFlip", "RandomShear", "RandomTranslation", "RandomZoom"]
REFUSED += ["Resizing", "Solarization"]
STORED = ["ContrastLimitedAdaptiveHistogramEqualization", "Equalization", "MaxNumBoundingBoxes", "MixUp"]
STORED += ["RandomColorJitter", "RandomCrop"]
IMAGES = np.random.default_rng(0).uniform(0, 255, size=(2, 4, 4, 3)).astype("float32")


@pytest.mark.parametrize("name", REFUSED)
def test_refused_like_keras(backend, name):
    keras = keras_module()
    with pytest.raises(ValueError, match=f"{name} does not take a `factor` argument; received factor=0.5"):
        getattr(layers, name)(*ARGS.get(name, ()), factor=0.5)
    with pytest.raises(ValueError, match="does not take a `factor`"):
        getattr(keras.layers, name)(*ARGS.get(name, ()), factor=0.5)
    layer = getattr(layers, name)(*ARGS.get(name, ()), factor=None)  # None is the default: fine
    assert not hasattr(layer, "factor")


@pytest.mark.parametrize("name", STORED)
@pytest.mark.parametrize("factor", [None, 0.5, (0.2, -0.3)])
def test_stored_like_keras(backend, name, factor):
    keras = keras_module()
    ours = getattr(layers, name)(*ARGS.get(name, ()), factor=factor)
    theirs = getattr(keras.layers, name)(*ARGS.get(name, ()), factor=factor)
    assert tuple(ours.factor) == pytest.approx(tuple(theirs.factor))


@pytest.mark.parametrize("name", ["Equalization", "ContrastLimitedAdaptiveHistogramEqualization", "RandomCrop"])
def test_stored_factor_changes_nothing(backend, name):
    plain = getattr(layers, name)(*ARGS.get(name, ()), seed=3) if name == "RandomCrop" else getattr(layers, name)()
    given = (
        getattr(layers, name)(*ARGS.get(name, ()), seed=3, factor=0.9)
        if name == "RandomCrop"
        else getattr(layers, name)(factor=0.9)
    )
    a = hl.ops.convert_to_numpy(plain(IMAGES, training=True))
    b = hl.ops.convert_to_numpy(given(IMAGES, training=True))
    np.testing.assert_allclose(a, b)


def test_stored_factor_out_of_range_is_refused(backend):
    with pytest.raises(ValueError, match="factor"):
        layers.Equalization(factor=2.0)
