"""InceptionV3 and InceptionResNetV2 against real Keras: outputs with Keras's weights on every backend (at 75x75,
their smallest size), the names of all their layers in a fresh session, the published weight files, the input
checks, and InceptionResNetV2's scaled residual layer."""

import numpy as np
import pytest

import highlevel as hl

from . import _oracle

pytest.importorskip("keras")
pytest.importorskip("h5py")

INCEPTION_V3 = {
    "model_name": "InceptionV3",
    "kwargs": {"input_shape": (75, 75, 3), "classes": 5, "classifier_activation": None},
    "describe": [("InceptionV3", {"input_shape": (75, 75, 3), "include_top": False, "pooling": "avg"})],
    "engine": "numpy",
}
# Keras 2's by-layer file, as the published ImageNet weights are.
INCEPTION_RESNET_V2 = {
    "model_name": "InceptionResNetV2",
    "kwargs": {"input_shape": (75, 75, 3), "include_top": False, "pooling": "max"},
    "describe": [("InceptionResNetV2", {"input_shape": (75, 75, 3), "classes": 7})],
    "legacy": True,
    "engine": "numpy",
}


def _fresh(name):
    """The builder of ``name``, run in a fresh session as Keras's are in the worker, so that the unnamed
    convolutions, batch normalizations and activations get the names Keras gives them."""

    def build(**kwargs):
        hl.utils.clear_session()
        return getattr(hl.applications, name)(**kwargs)

    return build


def test_inception_v3_matches_keras(backend):
    _oracle.check_family(backend, hl.applications.InceptionV3, **INCEPTION_V3)


def test_inception_resnet_v2_matches_keras(backend):
    model = _oracle.check_family(backend, hl.applications.InceptionResNetV2, **INCEPTION_RESNET_V2)
    assert model.output_shape == (None, 1536)


def test_structure_and_layer_names_are_kerass():
    for family in (INCEPTION_V3, INCEPTION_RESNET_V2):
        _oracle.check_described(_fresh, **family, all_names=True)  # every layer's name, the unnamed ones too


def test_imagenet_files_are_kerass():
    from highlevel.applications import inception_resnet_v2, inception_v3

    name, url, md5 = inception_v3.imagenet_file(True)
    assert name == "inception_v3_weights_tf_dim_ordering_tf_kernels.h5"
    assert url == "https://storage.googleapis.com/tensorflow/keras-applications/inception_v3/" + name
    assert md5 == "9a0d58056eeedaa3f26cb7ebd46da564"
    assert inception_v3.imagenet_file(False)[2] == "bcbd6486424b2319ff4ef7d526e38f63"
    name, url, md5 = inception_resnet_v2.imagenet_file(False)
    assert name == "inception_resnet_v2_weights_tf_dim_ordering_tf_kernels_notop.h5"
    assert url == "https://storage.googleapis.com/tensorflow/keras-applications/inception_resnet_v2/" + name
    assert md5 == "d19885ff4a710c122648d3b5c3b684e4"
    assert inception_resnet_v2.imagenet_file(True)[2] == "e693bd0210a403b3192acc6073ad2e96"


@pytest.mark.parametrize("family", ["InceptionV3", "InceptionResNetV2"])
def test_arguments_are_checked(family):
    build = getattr(hl.applications, family)
    with pytest.raises(ValueError, match=r"at least 75x75; received input_shape=\(74, 90, 3\)"):
        build(weights=None, include_top=False, input_shape=(74, 90, 3))
    with pytest.raises(ValueError, match="received pooling='mean'"):
        build(weights=None, include_top=False, input_shape=(75, 75, 3), pooling="mean")
    with pytest.raises(ValueError, match="classes must be 1000"):
        build(weights="imagenet", classes=10)
    with pytest.raises(ValueError, match="received weights='nowhere.h5'"):
        build(weights="nowhere.h5")


def test_preprocess_input_scales_to_minus_one_one():
    from highlevel.applications import inception_resnet_v2, inception_v3

    for module in (inception_v3, inception_resnet_v2):
        out = module.preprocess_input(np.array([[[[0.0, 127.5, 255.0]]]], "float32"))
        np.testing.assert_allclose(out.ravel(), [-1.0, 0.0, 1.0])
        assert module.decode_predictions is hl.applications.imagenet_utils.decode_predictions


def test_custom_scale_layer_computes_and_round_trips(backend, tmp_path):
    from highlevel.applications.inception_resnet_v2 import CustomScaleLayer

    shortcut = hl.Input((3,))
    residual = hl.Input((3,))
    model = hl.Model([shortcut, residual], CustomScaleLayer(0.17, name="scale")([shortcut, residual]))
    a = np.array([[1.0, 2.0, 3.0]], "float32")
    b = np.array([[10.0, -20.0, 0.5]], "float32")
    want = a + 0.17 * b
    np.testing.assert_allclose(hl.ops.convert_to_numpy(model([a, b])), want, rtol=1e-6)
    path = str(tmp_path / "scaled.hl.zip")  # highlevel's format: Keras's has no public class to write it as
    model.save(path)
    loaded = hl.saving.load_model(path)
    assert loaded.get_layer("scale").scale == pytest.approx(0.17)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(loaded([a, b])), want, rtol=1e-6)
    with pytest.raises(ValueError, match="received scale='big'"):
        CustomScaleLayer("big")


@pytest.mark.parametrize("family", ["InceptionV3", "InceptionResNetV2"])
def test_input_tensor_and_channels_first(family):
    def build(**kwargs):  # shapes only: the weights are not drawn
        with _oracle.no_random_draws():
            return getattr(hl.applications, family)(**kwargs)

    image = hl.Input((80, 96, 3))
    model = build(weights=None, include_top=False, input_tensor=image, pooling="avg")
    assert model.inputs[0] is image
    width = 2048 if family == "InceptionV3" else 1536
    assert model.output_shape == (None, width)
    before = hl.config.image_data_format()
    hl.config.set_image_data_format("channels_first")
    try:
        model = build(weights=None, include_top=False, input_shape=(3, 75, 75))
        assert model.output_shape == (None, width, 1, 1)
        with pytest.raises(ValueError, match="at least 75x75"):
            build(weights=None, include_top=False, input_shape=(3, 75, 70))
    finally:
        hl.config.set_image_data_format(before)


_KERAS_SIDE = """
import sys, numpy as np, keras
from keras.src.applications.inception_resnet_v2 import CustomScaleLayer
folder = sys.argv[1]
x = np.load(folder + "/x.npy")
theirs = keras.saving.load_model(folder + "/hl.keras")
assert type(theirs.get_layer("scale")) is CustomScaleLayer, type(theirs.get_layer("scale"))
np.save(folder + "/hl_in_keras.npy", np.asarray(theirs([x, x])))
a, b = keras.Input((3,)), keras.Input((3,))
model = keras.Model([a, b], CustomScaleLayer(0.17, name="scale")([a, keras.layers.Dense(3, name="d")(b)]))
model.save(folder + "/keras.keras")
np.save(folder + "/keras_out.npy", np.asarray(model([x, x])))
"""


@pytest.fixture(scope="module")
def keras_round_trip(tmp_path_factory):
    """A model with InceptionResNetV2's scaled residual, saved by highlevel in Keras's ``.keras`` format and
    loaded by Keras; and the same model saved by Keras. The applications' Keras worker (its numpy engine) does
    both."""
    from highlevel.applications.inception_resnet_v2 import CustomScaleLayer

    folder = tmp_path_factory.mktemp("custom_scale")
    x = np.linspace(-1.0, 1.0, 6, dtype="float32").reshape(2, 3)
    np.save(folder / "x.npy", x)
    a, b = hl.Input((3,)), hl.Input((3,))
    ours = hl.Model([a, b], CustomScaleLayer(0.17, name="scale")([a, hl.layers.Dense(3, name="d")(b)]))
    ours.save(str(folder / "hl.keras"))
    _oracle.run_keras_script(_KERAS_SIDE, folder)
    return folder, x, hl.ops.convert_to_numpy(ours([x, x]))


def test_custom_scale_layer_goes_to_and_from_kerass_format(backend, keras_round_trip):
    from highlevel.applications.inception_resnet_v2 import CustomScaleLayer

    folder, x, ours_out = keras_round_trip
    np.testing.assert_allclose(np.load(folder / "hl_in_keras.npy"), ours_out, rtol=1e-5, atol=1e-6)
    loaded = hl.saving.load_model(str(folder / "keras.keras"))
    assert isinstance(loaded.get_layer("scale"), CustomScaleLayer)
    assert loaded.get_layer("scale").scale == pytest.approx(0.17)
    got = hl.ops.convert_to_numpy(loaded([x, x]))
    np.testing.assert_allclose(got, np.load(folder / "keras_out.npy"), rtol=1e-5, atol=1e-6)
