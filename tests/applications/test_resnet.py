"""ResNet and ResNetV2 against real Keras: outputs with Keras's weights on every backend, structure of every
variant, the published weight files' names, and the argument checks."""

import pytest

import highlevel as hl

from . import _oracle

pytest.importorskip("keras")
pytest.importorskip("h5py")

_OTHERS = [
    (name, {"include_top": False, "input_shape": (32, 32, 3)})
    for name in ("ResNet101", "ResNet152", "ResNet101V2", "ResNet152V2")
]
#: One Keras run for the family: ResNet50 with Keras 2's weight layout (what Keras publishes), written by Keras's
#: own legacy writer, and the structure of the other variants.
RESNET = {
    "model_name": "ResNet50",
    "kwargs": {"input_shape": (32, 32, 3), "classes": 7},
    "legacy": True,
    "describe": _OTHERS,
}
RESNET_V2 = {"model_name": "ResNet50V2", "kwargs": {"include_top": False, "input_shape": (32, 32, 3), "pooling": "avg"}}


def test_resnet50_matches_keras_with_keras_2_weights_file(backend):
    _oracle.check_family(backend, hl.applications.ResNet50, **RESNET)


def test_resnet50v2_matches_keras(backend):
    _oracle.check_family(backend, hl.applications.ResNet50V2, **RESNET_V2)


def test_every_resnet_has_keras_structure():
    _oracle.check_described(lambda n: getattr(hl.applications, n), **RESNET)


def test_imagenet_file_names_and_hashes_are_kerass():
    from highlevel.applications import resnet

    name, url, md5 = resnet.imagenet_file("resnet50", include_top=False)
    assert name == "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5"
    assert url == "https://storage.googleapis.com/tensorflow/keras-applications/resnet/" + name
    assert md5 == "4d473c1dd8becc155b73f8504c6f6626"


def test_namespaces_are_kerass():
    apps = hl.applications
    assert apps.resnet.ResNet101 is apps.ResNet101
    assert apps.resnet50.ResNet50 is apps.ResNet50
    assert apps.resnet_v2.ResNet152V2 is apps.ResNet152V2
    assert apps.resnet.decode_predictions is apps.imagenet_utils.decode_predictions
