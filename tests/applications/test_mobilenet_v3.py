"""MobileNetV3 against real Keras: outputs with Keras's weights on every backend, the structure of every variant,
the published weight files' names, and the argument checks."""

import pytest

import highlevel as hl

from . import _oracle

pytest.importorskip("keras")
pytest.importorskip("h5py")

_SMALL_INPUT = {"include_top": False, "input_shape": (32, 32, 3)}
MOBILENET_V3 = {
    "model_name": "MobileNetV3Small",
    "kwargs": {"input_shape": (32, 32, 3), "classes": 5, "classifier_activation": None},
    "describe": [
        ("MobileNetV3Large", _SMALL_INPUT),
    ],
}


def test_mobilenet_v3_small_matches_keras(backend):
    _oracle.check_family(backend, hl.applications.MobileNetV3Small, **MOBILENET_V3)


def test_every_mobilenet_v3_has_keras_structure():
    _oracle.check_described(lambda n: getattr(hl.applications, n), **MOBILENET_V3)


def test_imagenet_file_is_kerass(monkeypatch):
    from highlevel.applications import mobilenet_v3, weights

    asked = []
    monkeypatch.setattr(weights, "fetch", lambda *a: asked.append(a) or (_ for _ in ()).throw(RuntimeError("x")))
    with pytest.raises(RuntimeError):
        mobilenet_v3.MobileNetV3Large(include_top=False, input_shape=(224, 224, 3))
    name, url, md5 = asked[0]
    assert name == "weights_mobilenet_v3_large_224_1.0_float_no_top_v2.h5"
    assert url == "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v3/" + name
    assert md5 == "07fb09a5933dd0c8eaafa16978110389"


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="alpha"):
        hl.applications.MobileNetV3Small(alpha=0.5)
    with pytest.raises(ValueError, match="at least 32x32"):
        hl.applications.MobileNetV3Small(weights=None, input_shape=(16, 16, 3))
    with pytest.raises(ValueError, match="classes must be 1000"):
        hl.applications.MobileNetV3Small(classes=3)


def test_preprocess_input_is_the_identity():
    assert hl.applications.mobilenet_v3.preprocess_input(200.0) == 200.0
    assert hl.applications.mobilenet_v3.decode_predictions is hl.applications.imagenet_utils.decode_predictions
