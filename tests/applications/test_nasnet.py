"""NASNet against real Keras: NASNetMobile's outputs with Keras's weights on every backend (at 32x32, the smallest
size), read from Keras 2's by-layer ``.h5`` layout (the one of the published ImageNet files) and from Keras 3's
``.weights.h5``; NASNetLarge's structure (parameter count, weighted layer names, weight shapes); the arguments'
checks and Keras's weight file names."""

import pytest

import highlevel as hl

from . import _oracle

pytest.importorskip("keras")
pytest.importorskip("h5py")

#: The smallest NASNetMobile, with a tiny top (logits, so that the comparison sees every difference).
MOBILE = {
    "model_name": "NASNetMobile",
    "kwargs": {"input_shape": (32, 32, 3), "classes": 6, "classifier_activation": None},
    "legacy": True,
    "describe": [("NASNetLarge", {"input_shape": (32, 32, 3), "classes": 7})],
}


def _by_name(name):
    return getattr(hl.applications, name)


def test_nasnet_mobile_matches_keras(backend):
    model = _oracle.check_family(backend, hl.applications.NASNetMobile, **MOBILE)
    assert model.name == "nasnet_mobile"
    assert model.output_shape == (None, 6)


def test_nasnet_mobile_reads_kerass_weights_h5(backend):
    # The same randomized weights in Keras 3's layout, which names layers by class and position, not by name:
    # every weight must land where Keras 2's by-name file puts it.
    import os

    import h5py
    import numpy as np

    folder = _oracle.keras_reference(**{k: MOBILE[k] for k in ("model_name", "kwargs", "describe", "legacy")})
    model = hl.applications.NASNetMobile(weights=None, **MOBILE["kwargs"])
    model.load_weights(os.path.join(folder, "model.weights.h5"))
    checked = 0
    with h5py.File(os.path.join(folder, "legacy.h5"), "r") as f:
        for layer in model.layers:
            if not layer.weights:
                continue
            group = f[layer.name]
            names = [n.decode() if isinstance(n, bytes) else n for n in group.attrs["weight_names"]]
            assert len(names) == len(layer.weights), layer.name
            for name, variable in zip(names, layer.weights):
                np.testing.assert_array_equal(
                    hl.ops.convert_to_numpy(variable), group[name][()], err_msg=f"{layer.name}: {name}"
                )
                checked += 1
    assert checked == len(model.weights) > 1000


def test_nasnet_mobile_layer_names_are_kerass():
    # Every layer, the unnamed ones too (activation_12, zero_padding2d_3, add_7, ...), as a fresh Keras session names
    # them, in Keras's order: Keras 2's file lists them all.
    import os

    import h5py

    folder = _oracle.keras_reference(**{k: MOBILE[k] for k in ("model_name", "kwargs", "describe", "legacy")})
    with h5py.File(os.path.join(folder, "legacy.h5"), "r") as f:
        theirs = [n.decode() if isinstance(n, bytes) else n for n in f.attrs["layer_names"]]
    hl.utils.clear_session()
    model = hl.applications.NASNetMobile(weights=None, **MOBILE["kwargs"])
    assert len(theirs) == 771
    assert [layer.name for layer in model.layers] == theirs


def test_nasnet_large_has_kerass_structure():
    _oracle.check_described(_by_name, **MOBILE)


def test_nasnet_paths_and_output_sizes():
    from highlevel.applications import nasnet

    assert hl.applications.nasnet.NASNetMobile is hl.applications.NASNetMobile
    assert hl.applications.nasnet.NASNetLarge is hl.applications.NASNetLarge
    assert nasnet.decode_predictions is hl.applications.imagenet_utils.decode_predictions
    mobile = hl.applications.NASNetMobile(weights=None, include_top=False)
    assert mobile.input_shape == (None, 224, 224, 3)
    assert mobile.output_shape == (None, 7, 7, 1056)


def test_preprocess_input_scales_to_minus_one_one():
    import numpy as np

    x = np.array([[[[0.0, 127.5, 255.0]]]], dtype="float32")
    np.testing.assert_allclose(hl.applications.nasnet.preprocess_input(x), [[[[-1.0, 0.0, 1.0]]]])


def test_imagenet_file_names_are_kerass():
    from highlevel.applications import nasnet

    url = "https://storage.googleapis.com/tensorflow/keras-applications/nasnet/"
    assert nasnet.imagenet_file(224, True) == (
        "nasnet_mobile.h5",
        url + "NASNet-mobile.h5",
        "020fb642bf7360b370c678b08e0adf61",
    )
    assert nasnet.imagenet_file(224, False)[:2] == ("nasnet_mobile_no_top.h5", url + "NASNet-mobile-no-top.h5")
    assert nasnet.imagenet_file(331, True)[2] == "11577c9a518f0070763c2b964a382f17"
    assert nasnet.imagenet_file(331, False) == (
        "nasnet_large_no_top.h5",
        url + "NASNet-large-no-top.h5",
        "d81d89dc07e6e56530c4e77faddd61b5",
    )
    assert nasnet.imagenet_file(300, True) is None


def test_arguments_are_checked():
    from highlevel.applications import nasnet

    with pytest.raises(ValueError, match=r"must be \(224, 224, 3\); received input_shape=\(32, 32, 3\)"):
        hl.applications.NASNetMobile(weights="imagenet", input_shape=(32, 32, 3))
    with pytest.raises(ValueError, match=r"must be \(331, 331, 3\)"):
        hl.applications.NASNetLarge(weights="imagenet", input_shape=(224, 224, 3))
    with pytest.raises(ValueError, match="at least 32x32; received input_shape=\\(31, 64, 3\\)"):
        hl.applications.NASNetMobile(weights=None, include_top=False, input_shape=(31, 64, 3))
    with pytest.raises(ValueError, match="fully known input shape; received input_shape=\\(None, None, 3\\)"):
        hl.applications.NASNetMobile(weights="imagenet", include_top=False, input_shape=(None, None, 3))
    with pytest.raises(ValueError, match="classes must be 1000"):
        hl.applications.NASNetLarge(weights="imagenet", classes=10)
    with pytest.raises(ValueError, match="pooling must be None, 'avg' or 'max'; received pooling='mean'"):
        hl.applications.NASNetMobile(weights=None, include_top=False, input_shape=(32, 32, 3), pooling="mean")
    with pytest.raises(ValueError, match="multiple of 24 \\* filter_multiplier \\*\\* 2 = 96; received"):
        nasnet.NASNet((32, 32, 3), penultimate_filters=100, weights=None)
    with pytest.raises(ValueError, match="only for NASNetMobile .* received default_size=256"):
        nasnet.NASNet(weights="imagenet", default_size=256)
    with pytest.raises(ValueError, match="classifier_activation must be 'softmax' or None"):
        hl.applications.NASNetMobile(weights="imagenet", classifier_activation="relu")


def test_channels_first_is_refused():
    previous = hl.config.image_data_format()
    hl.config.set_image_data_format("channels_first")
    try:
        with pytest.raises(ValueError, match="supports only the channels_last image data format"):
            hl.applications.NASNetMobile(weights=None, input_shape=(3, 32, 32))
    finally:
        hl.config.set_image_data_format(previous)
