"""VGG16, VGG19 and the DenseNets against real Keras: outputs with Keras's weights on every backend (the smallest
model of each family), the structure of the others, and Keras's weight file names."""

import pytest

import highlevel as hl

from . import _oracle

pytest.importorskip("keras")
pytest.importorskip("h5py")

VGG = {
    "model_name": "VGG16",
    "kwargs": {"input_shape": (32, 32, 3), "classes": 5, "classifier_activation": None},
    "describe": [("VGG19", {"input_shape": (32, 32, 3)})],
}
DENSENET = {
    "model_name": "DenseNet121",
    "kwargs": {"include_top": False, "input_shape": (32, 32, 3), "pooling": "max"},
    "describe": [(name, {"include_top": False, "input_shape": (32, 32, 3)}) for name in ("DenseNet169", "DenseNet201")],
}


def _by_name(name):
    return getattr(hl.applications, name)


def test_vgg16_matches_keras(backend):
    _oracle.check_family(backend, hl.applications.VGG16, **VGG)


def test_densenet121_matches_keras(backend):
    _oracle.check_family(backend, hl.applications.DenseNet121, **DENSENET)


def test_vgg19_and_other_densenets_have_kerass_structure():
    _oracle.check_described(_by_name, **VGG)
    _oracle.check_described(_by_name, **DENSENET)


def test_imagenet_file_names_are_kerass():
    from highlevel.applications import densenet, vgg16

    name, url, md5 = vgg16.imagenet_file("vgg19", include_top=False)
    assert url == "https://storage.googleapis.com/tensorflow/keras-applications/vgg19/" + name
    assert (name, md5) == ("vgg19_weights_tf_dim_ordering_tf_kernels_notop.h5", "253f8cb515780f3b799900260a226db6")
    name, url, md5 = densenet.imagenet_file((6, 12, 48, 32), include_top=True)
    assert (name, md5) == ("densenet201_weights_tf_dim_ordering_tf_kernels.h5", "1ceb130c1ea1b78c3bf6114dbdfd8807")
    assert densenet.imagenet_file((1, 2, 3, 4), True) is None
