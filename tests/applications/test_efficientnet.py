"""EfficientNet and EfficientNetV2 against real Keras: outputs with Keras's weights on every backend (the
smallest variant of each), the structure of every other variant, and the published weight files' names."""

import pytest

import highlevel as hl

from . import _oracle

pytest.importorskip("keras")
pytest.importorskip("h5py")

_SMALL_INPUT = {"include_top": False, "input_shape": (32, 32, 3)}
EFFICIENTNET = {
    "model_name": "EfficientNetB0",
    "kwargs": {"input_shape": (32, 32, 3), "classes": 5, "classifier_activation": None},
    "describe": [(f"EfficientNetB{i}", _SMALL_INPUT) for i in range(1, 8)],
}
EFFICIENTNET_V2 = {
    "model_name": "EfficientNetV2B0",
    "kwargs": {"input_shape": (32, 32, 3), "classes": 5, "classifier_activation": None},
    "describe": [(f"EfficientNetV2{v}", _SMALL_INPUT) for v in ("B1", "B2", "B3", "S", "M", "L")],
}


def _fresh(name):
    """The builder of ``name``, run in a fresh session, as Keras's are in the worker: its unnamed layers
    (the final LayerNormalization, the input Normalization) get the names Keras gives them."""

    def build(**kwargs):
        hl.utils.clear_session()
        return getattr(hl.applications, name)(**kwargs)

    return build


def test_efficientnet_b0_matches_keras(backend):
    _oracle.check_family(backend, hl.applications.EfficientNetB0, **EFFICIENTNET)


def test_efficientnet_v2_b0_matches_keras(backend):
    _oracle.check_family(backend, hl.applications.EfficientNetV2B0, **EFFICIENTNET_V2)


def test_every_efficientnet_has_keras_structure():
    _oracle.check_described(_fresh, **EFFICIENTNET)


def test_every_efficientnet_v2_has_keras_structure():
    _oracle.check_described(_fresh, **EFFICIENTNET_V2)


def _asked_file(monkeypatch, build, **kwargs):
    from highlevel.applications import weights

    asked = []

    def fetch(*args):
        asked.append(args)
        raise RuntimeError("no download in tests")

    monkeypatch.setattr(weights, "fetch", fetch)
    with pytest.raises(RuntimeError), _oracle.no_random_draws():  # the file asked for, not the weights drawn
        build(**kwargs)
    return asked[0]


def test_imagenet_files_are_kerass(monkeypatch):
    name, url, md5 = _asked_file(monkeypatch, hl.applications.EfficientNetB0, include_top=False)
    assert (name, md5) == ("efficientnetb0_notop.h5", "50bc09e76180e00e4465e1a485ddc09d")
    assert url == "https://storage.googleapis.com/keras-applications/" + name
    name, url, md5 = _asked_file(monkeypatch, hl.applications.EfficientNetV2S)
    assert (name, md5) == ("efficientnetv2-s.h5", "e1d88a8495beba45748fedd0cecbe016")
    assert url == "https://storage.googleapis.com/tensorflow/keras-applications/efficientnet_v2/" + name


def test_namespaces_and_preprocessing():
    apps = hl.applications
    assert apps.efficientnet.EfficientNetB3 is apps.EfficientNetB3
    assert apps.efficientnet_v2.EfficientNetV2M is apps.EfficientNetV2M
    assert apps.efficientnet.preprocess_input(7.0) == 7.0
    assert apps.efficientnet_v2.preprocess_input(7.0) == 7.0
    with pytest.raises(ValueError, match="repeats"):
        apps.efficientnet.EfficientNet(
            1.0, 1.0, 32, weights=None, input_shape=(32, 32, 3), blocks_args=[{"repeats": 0}]
        )
