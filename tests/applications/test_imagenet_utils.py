"""The shared ImageNet helpers against Keras's: input scaling (arrays and tensors, both data formats), the
class-index download (its name, URL, hash and cache folder, and the offline error), and the argument checks."""

import json
import os

import numpy as np
import pytest

import highlevel as hl
from highlevel.applications import imagenet_utils

pytest.importorskip("keras")
os.environ.setdefault("KERAS_BACKEND", "jax")

MODES = ("caffe", "tf", "torch")


def _images(shape):
    return np.random.default_rng(0).uniform(0, 255, shape).astype("float32")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "data_format, shape",
    [
        ("channels_last", (2, 4, 5, 3)),
        ("channels_first", (2, 3, 4, 5)),
        ("channels_last", (4, 5, 3)),
        ("channels_first", (3, 4, 5)),
    ],
)
def test_numpy_scaling_is_kerass(mode, data_format, shape):
    from keras.src.applications import imagenet_utils as keras_utils

    want = keras_utils.preprocess_input(_images(shape), data_format=data_format, mode=mode)
    got = imagenet_utils.preprocess_input(_images(shape), data_format=data_format, mode=mode)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-5)


@pytest.mark.parametrize("mode", MODES)
def test_tensor_scaling_is_the_arrays(backend, mode):
    for data_format, shape in (("channels_last", (2, 4, 5, 3)), ("channels_first", (2, 3, 4, 5))):
        want = imagenet_utils.preprocess_input(_images(shape), data_format=data_format, mode=mode)
        tensor = hl.ops.convert_to_tensor(_images(shape))
        got = imagenet_utils.preprocess_input(tensor, data_format=data_format, mode=mode)
        np.testing.assert_allclose(hl.ops.convert_to_numpy(got), want, rtol=1e-6, atol=1e-4)


def test_a_symbolic_input_is_scaled_inside_a_model(backend):
    inp = hl.Input((4, 5, 3))
    model = hl.Model(inp, hl.applications.resnet.preprocess_input(inp))
    want = imagenet_utils.preprocess_input(_images((2, 4, 5, 3)), mode="caffe")
    np.testing.assert_allclose(hl.ops.convert_to_numpy(model(_images((2, 4, 5, 3)))), want, rtol=1e-6, atol=1e-4)


def test_integer_images_become_floats_and_float_arrays_are_scaled_in_place():
    out = imagenet_utils.preprocess_input(np.full((1, 2, 2, 3), 255, "uint8"), mode="tf")
    assert out.dtype == np.float32 and np.allclose(out, 1.0)
    x = np.full((1, 2, 2, 3), 255.0, "float32")
    imagenet_utils.preprocess_input(x, mode="torch")
    assert not np.allclose(x, 255.0)  # as Keras: the array given is overwritten


def test_bad_mode_and_data_format_are_named():
    with pytest.raises(ValueError, match="mode must be 'caffe', 'tf' or 'torch'; received mode='bgr'"):
        imagenet_utils.preprocess_input(np.zeros((1, 2, 2, 3)), mode="bgr")
    with pytest.raises(ValueError, match="received data_format='nhwc'"):
        imagenet_utils.preprocess_input(np.zeros((1, 2, 2, 3)), data_format="nhwc")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setattr(imagenet_utils, "CLASS_INDEX", None)
    return tmp_path


def test_decode_predictions_reads_the_class_index_from_the_models_cache(cache, monkeypatch):
    index = {str(i): [f"n{i:08d}", f"class_{i}"] for i in range(1000)}
    (cache / "models").mkdir()
    (cache / "models" / "imagenet_class_index.json").write_text(json.dumps(index))
    monkeypatch.setattr(imagenet_utils, "CLASS_INDEX_HASH", None)  # the hand-made index is not Keras's file
    preds = np.zeros((2, 1000), "float32")
    preds[0, [7, 3]] = (0.9, 0.5)
    preds[1, 999] = 1.0
    got = hl.applications.resnet50.decode_predictions(preds, top=2)
    assert [r[:2] for r in got[0]] == [("n00000007", "class_7"), ("n00000003", "class_3")]
    assert got[1][0][:2] == ("n00000999", "class_999") and float(got[1][0][2]) == 1.0


def test_decode_predictions_offline_says_which_file_goes_where(cache, monkeypatch):
    from highlevel.utils import file_utils

    def offline(origin, target, hint):
        raise file_utils.DownloadError(f"Could not download {origin}: no network. {hint}")

    monkeypatch.setattr(file_utils, "_fetch", offline)
    expected = os.path.join(str(cache), "models", "imagenet_class_index.json")
    with pytest.raises(OSError, match="imagenet_class_index.json") as err:
        imagenet_utils.decode_predictions(np.zeros((1, 1000)))
    assert imagenet_utils.CLASS_INDEX_URL in str(err.value) and expected in str(err.value)


def test_decode_predictions_refuses_other_shapes():
    with pytest.raises(ValueError, match=r"received shape \(3,\)"):
        imagenet_utils.decode_predictions(np.zeros(3))


def test_input_shape_checks_are_kerass():
    check = imagenet_utils.obtain_input_shape
    assert check(None, 224, 32, "channels_last", True) == (224, 224, 3)
    assert check(None, 224, 32, "channels_first", False) == (3, None, None)
    assert check(None, 224, 32, "channels_last", True, weights="imagenet") == (224, 224, 3)
    with pytest.raises(ValueError, match=r"input shape must be \(224, 224, 3\); received input_shape=\(64, 64, 3\)"):
        check((64, 64, 3), 224, 32, "channels_last", True, weights="imagenet")
    with pytest.raises(ValueError, match="at least 32x32"):
        check((16, 64, 3), 224, 32, "channels_last", False)
    with pytest.raises(ValueError, match="3 input channels"):
        check((64, 64, 1), 224, 32, "channels_last", False, weights="imagenet")
    with pytest.raises(ValueError, match="3 integers"):
        check((64, 64), 224, 32, "channels_last", False)
    with pytest.warns(UserWarning, match="1 or 3 input channels"):
        assert check((64, 64, 5), 224, 32, "channels_last", False) == (64, 64, 5)


def test_weights_argument_and_classes_are_checked():
    with pytest.raises(ValueError, match="received weights='imagenet21k'"):
        hl.applications.ResNet50(weights="imagenet21k")
    with pytest.raises(ValueError, match="classes must be 1000 .* received classes=10"):
        hl.applications.ResNet50(weights="imagenet", classes=10)
    with pytest.raises(ValueError, match="classifier_activation must be 'softmax' or None"):
        hl.applications.ResNet50(weights="imagenet", classifier_activation="relu")
    with pytest.raises(ValueError, match="pooling must be None, 'avg' or 'max'"):
        hl.applications.ResNet50(weights=None, include_top=False, pooling="mean")


def test_imagenet_weights_offline_say_which_file_goes_where(cache, monkeypatch):
    from highlevel.utils import file_utils

    def offline(origin, target, hint):
        raise file_utils.DownloadError(f"Could not download {origin}: no network. {hint}")

    monkeypatch.setattr(file_utils, "_fetch", offline)
    name = "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5"
    with pytest.raises(OSError, match=name) as err:
        hl.applications.ResNet50(weights="imagenet", include_top=False, input_shape=(32, 32, 3))
    assert os.path.join(str(cache), "models", name) in str(err.value)
    assert "4d473c1dd8becc155b73f8504c6f6626" in str(err.value)
