"""Image files and arrays (``load_img``, ``save_img``, ``img_to_array``, ``array_to_img``, ``smart_resize``)
against Keras, and the error when Pillow is missing."""

import io
import sys

import numpy as np
import pytest

import highlevel as hl

pytest.importorskip("PIL")
RNG = np.random.default_rng(0)
IMAGE = RNG.integers(0, 256, (9, 12, 3)).astype("float32")


@pytest.mark.parametrize("suffix", ["png", "bmp"])
def test_save_then_load_is_lossless(tmp_path, suffix):
    path = tmp_path / f"image.{suffix}"
    hl.utils.save_img(path, IMAGE, scale=False)
    back = hl.utils.img_to_array(hl.utils.load_img(path))
    np.testing.assert_array_equal(back, IMAGE)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"color_mode": "grayscale"},
        {"color_mode": "rgba"},
        {"target_size": (5, 7)},
        {"target_size": (5, 7), "interpolation": "bilinear"},
        {"target_size": (6, 6), "keep_aspect_ratio": True, "interpolation": "bicubic"},
    ],
)
def test_load_img_matches_keras(keras, tmp_path, kwargs):
    path = tmp_path / "image.png"
    hl.utils.save_img(path, IMAGE, scale=False)
    ours = hl.utils.img_to_array(hl.utils.load_img(path, **kwargs))
    theirs = keras.utils.img_to_array(keras.utils.load_img(path, **kwargs))
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("kwargs", [{}, {"scale": False}, {"data_format": "channels_first"}])
@pytest.mark.parametrize("channels", [1, 3, 4])
def test_array_to_img_matches_keras(keras, kwargs, channels):
    x = RNG.random((4, 5, channels)) * 3 - 1
    if kwargs.get("data_format") == "channels_first":
        x = np.transpose(x, (2, 0, 1))
    if kwargs.get("scale") is False:
        x = np.abs(x) * 80
    ours, theirs = hl.utils.array_to_img(x, **kwargs), keras.utils.array_to_img(x, **kwargs)
    assert ours.mode == theirs.mode and ours.size == theirs.size
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
    for data_format in ("channels_last", "channels_first"):
        np.testing.assert_array_equal(
            hl.utils.img_to_array(ours, data_format=data_format),
            keras.utils.img_to_array(theirs, data_format=data_format),
        )


def test_sixteen_bit_grayscale_and_file_objects():
    x = np.arange(0, 60000, 5000, dtype="float64").reshape(3, 4, 1)
    image = hl.utils.array_to_img(x, scale=False)
    assert image.mode == "I"
    buffer = io.BytesIO()
    hl.utils.save_img(buffer, x, scale=False, file_format="tiff")
    buffer.seek(0)
    back = hl.utils.img_to_array(hl.utils.load_img(buffer, color_mode="grayscale"), dtype="float64")
    np.testing.assert_array_equal(back, x)


def test_jpeg_drops_alpha_with_a_warning(tmp_path):
    with pytest.warns(UserWarning, match="alpha"):
        hl.utils.save_img(tmp_path / "a.jpg", RNG.random((4, 4, 4)))
    assert hl.utils.load_img(tmp_path / "a.jpg").mode == "RGB"


def test_errors(tmp_path):
    with pytest.raises(ValueError, match="rank 3"):
        hl.utils.array_to_img(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="1, 3 or 4 channels"):
        hl.utils.array_to_img(np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="color_mode"):
        hl.utils.load_img(tmp_path / "x.png", color_mode="cmyk")
    with pytest.raises(TypeError, match="io.BytesIO"):
        hl.utils.load_img(42)
    with pytest.raises(ValueError, match="file_format"):
        hl.utils.save_img(io.BytesIO(), IMAGE)
    hl.utils.save_img(tmp_path / "x.png", IMAGE)
    with pytest.raises(ValueError, match="Pillow's filters"):
        hl.utils.load_img(tmp_path / "x.png", target_size=(2, 2), interpolation="area")


def test_missing_pillow_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    for call in (
        lambda: hl.utils.load_img("x.png"),
        lambda: hl.utils.array_to_img(IMAGE),
        lambda: hl.utils.save_img("x.png", IMAGE),
    ):
        with pytest.raises(ImportError, match=r"pip install pillow"):
            call()


@pytest.mark.parametrize("size", [(4, 4), (3, 8), (10, 5)])
@pytest.mark.parametrize("interpolation", ["bilinear", "nearest", "bicubic", "area"])
def test_smart_resize_matches_keras_on_numpy(keras, size, interpolation):
    from keras.preprocessing.image import smart_resize as keras_smart_resize

    from highlevel.utils.image_utils import smart_resize

    pytest.importorskip("tensorflow")
    from keras.src.backend import tensorflow as keras_tf_backend

    batch = RNG.random((2, 9, 12, 3)).astype("float32")
    ours = smart_resize(batch, size, interpolation=interpolation)
    # Keras resizes with the backend it is given; its image datasets give it TensorFlow's, as here (its JAX
    # backend has no "area" and rounds "bicubic" differently).
    theirs = np.asarray(keras_smart_resize(batch, size, interpolation=interpolation, backend_module=keras_tf_backend))
    assert isinstance(ours, np.ndarray) and ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, atol=2e-5)
    one = smart_resize(batch[0], size, interpolation=interpolation)
    np.testing.assert_allclose(one, ours[0], atol=1e-6)
    first = smart_resize(
        np.transpose(batch, (0, 3, 1, 2)), size, interpolation=interpolation, data_format="channels_first"
    )
    np.testing.assert_allclose(np.transpose(first, (0, 2, 3, 1)), ours, atol=1e-6)


def test_smart_resize_on_tensors(backend):
    from highlevel.utils.image_utils import smart_resize

    batch = RNG.random((2, 9, 12, 3)).astype("float32")
    out = smart_resize(hl.ops.convert_to_tensor(batch), (4, 4))
    assert hl.ops.is_tensor(out)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(out), smart_resize(batch, (4, 4)), atol=1e-5)
