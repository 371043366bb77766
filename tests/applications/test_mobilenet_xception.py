"""MobileNet, MobileNetV2 and Xception against real Keras: outputs with Keras's weights on every backend (at their
smallest sizes), their family arguments (alpha, depth_multiplier), and Keras's weight file names."""

import pytest

import highlevel as hl

from . import _oracle

pytest.importorskip("keras")
pytest.importorskip("h5py")

MOBILENET = {
    "model_name": "MobileNet",
    "kwargs": {"input_shape": (32, 32, 3), "alpha": 0.25, "depth_multiplier": 2, "classes": 6},
    "describe": [("MobileNet", {"input_shape": (32, 32, 3), "alpha": 0.5, "include_top": False})],
}
MOBILENET_V2 = {
    "model_name": "MobileNetV2",
    "kwargs": {"input_shape": (32, 32, 3), "alpha": 0.35, "classes": 6},
    "describe": [("MobileNetV2", {"input_shape": (32, 32, 3), "alpha": 1.3, "include_top": False})],
}
XCEPTION = {"model_name": "Xception", "kwargs": {"input_shape": (71, 71, 3), "include_top": False, "pooling": "avg"}}


def _by_name(name):
    return getattr(hl.applications, name)


def test_mobilenet_matches_keras(backend):
    _oracle.check_family(backend, hl.applications.MobileNet, **MOBILENET)


def test_mobilenet_v2_matches_keras(backend):
    _oracle.check_family(backend, hl.applications.MobileNetV2, **MOBILENET_V2)


def test_xception_matches_keras(backend):
    _oracle.check_family(backend, hl.applications.Xception, **XCEPTION)


def test_other_widths_have_kerass_structure():
    _oracle.check_described(_by_name, **MOBILENET)
    _oracle.check_described(_by_name, **MOBILENET_V2)


def test_imagenet_file_names_are_kerass():
    from highlevel.applications import mobilenet, mobilenet_v2, xception

    assert mobilenet.imagenet_file(0.25, 128, False)[0] == "mobilenet_2_5_128_tf_no_top.h5"
    name, url, _ = mobilenet_v2.imagenet_file(1.4, 224, True)
    assert name == "mobilenet_v2_weights_tf_dim_ordering_tf_kernels_1.4_224.h5"
    assert url == "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v2/" + name
    assert xception.imagenet_file(False)[2] == "b0042744bf5b25fce3cb969f33bebb97"


def test_family_arguments_are_checked():
    with pytest.raises(ValueError, match="depth_multiplier=1; received depth_multiplier=2"):
        hl.applications.MobileNet(weights="imagenet", depth_multiplier=2)
    with pytest.raises(ValueError, match="received alpha=0.3"):
        hl.applications.MobileNetV2(weights="imagenet", alpha=0.3)
    with pytest.raises(ValueError, match="their widths differ"):
        hl.applications.MobileNetV2(weights=None, input_tensor=hl.Input((32, 40, 3)), input_shape=(32, 32, 3))
    with pytest.raises(ValueError, match="at least 71x71"):
        hl.applications.Xception(weights=None, include_top=False, input_shape=(64, 64, 3))
    assert hl.applications.MobileNetV2(weights=None, input_shape=(96, 96, 3), alpha=0.35).name == "mobilenetv2_0.35_96"
