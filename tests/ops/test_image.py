"""``hl.ops.image.resize`` and ``affine_transform`` against Keras 3's ops (TensorFlow backend), on every engine."""

import keras
import numpy as np
import pytest

import highlevel as hl


def _np(x):
    return np.asarray(hl.ops.convert_to_numpy(x))


def _keras(fn, *args, **kwargs):
    return np.asarray(keras.ops.convert_to_numpy(getattr(keras.ops.image, fn)(*args, **kwargs)))


RNG = np.random.default_rng(0)
IMAGES = RNG.random((2, 5, 7, 3)).astype("float32")


# ------------------------------------------------------------------------------------------------ resize
@pytest.mark.parametrize("interpolation", ["bilinear", "nearest", "bicubic", "lanczos3", "lanczos5"])
@pytest.mark.parametrize("antialias", [False, True])
def test_resize_matches_keras(backend, interpolation, antialias):
    for size in [(3, 4), (10, 13), (5, 7), (1, 1), (17, 2)]:
        got = _np(hl.ops.image.resize(IMAGES, size, interpolation=interpolation, antialias=antialias))
        want = _keras("resize", IMAGES, size, interpolation=interpolation, antialias=antialias)
        assert got.shape == want.shape and got.dtype == np.float32
        np.testing.assert_allclose(got, want, atol=2e-6, err_msg=f"{interpolation} antialias={antialias} {size}")


@pytest.mark.parametrize("kwargs", [{}, {"crop_to_aspect_ratio": True},
                                    {"pad_to_aspect_ratio": True, "fill_value": 0.5}], ids=["plain", "crop", "pad"])
@pytest.mark.parametrize("shape,data_format", [((2, 5, 7, 3), "channels_last"), ((5, 7, 3), "channels_last"),
                                               ((2, 3, 5, 7), "channels_first"), ((3, 6, 4), "channels_first")])
def test_resize_layouts_and_aspect_ratio(backend, kwargs, shape, data_format):
    x = np.random.default_rng(1).random(shape).astype("float32")
    for size in [(3, 4), (10, 13), (4, 2), (8, 8)]:
        got = _np(hl.ops.image.resize(x, size, data_format=data_format, **kwargs))
        want = _keras("resize", x, size, data_format=data_format, **kwargs)
        assert got.shape == want.shape, (size, got.shape, want.shape)
        np.testing.assert_allclose(got, want, atol=2e-6, err_msg=str(size))


@pytest.mark.parametrize("interpolation", ["bilinear", "nearest", "bicubic"])
def test_resize_integer_images_keep_dtype(backend, interpolation):
    x = (np.random.default_rng(2).random((2, 5, 7, 3)) * 255).astype("uint8")
    got = _np(hl.ops.image.resize(x, (9, 4), interpolation=interpolation))
    want = _keras("resize", x, (9, 4), interpolation=interpolation)
    assert got.dtype == np.uint8
    # Rounding of exact .5 results may go either way by one float32 ulp of summation order.
    assert np.abs(got.astype(int) - want.astype(int)).max() <= (0 if interpolation == "nearest" else 1)


def test_resize_float64_keeps_dtype(backend):
    got = hl.ops.image.resize(IMAGES.astype("float64"), (4, 4))
    assert hl.ops.dtype(got) == "float64"
    np.testing.assert_allclose(_np(got), _keras("resize", IMAGES, (4, 4)), atol=2e-6)


@pytest.mark.parametrize("interpolation", ["bilinear", "bicubic", "nearest"])
@pytest.mark.parametrize("antialias", [False, True])
def test_resize_gradient_matches_tensorflow(backend, interpolation, antialias):
    import tensorflow as tf

    x = RNG.random((2, 6, 5, 2)).astype("float32")
    cot = RNG.normal(size=(2, 3, 8, 2)).astype("float32")
    kw = {"interpolation": interpolation, "antialias": antialias}
    g = hl.ops.grad(lambda t: hl.ops.sum(hl.ops.multiply(hl.ops.image.resize(t, (3, 8), **kw), cot)))(
        hl.ops.convert_to_tensor(x))
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        loss = tf.reduce_sum(keras.ops.image.resize(xt, (3, 8), **kw) * cot)
    want = tape.gradient(loss, xt).numpy()
    assert g is not None and np.all(np.isfinite(_np(g)))
    np.testing.assert_allclose(_np(g), want, atol=1e-5)


def test_resize_symbolic(backend):
    inp = hl.Input((5, 7, 3))
    out = hl.ops.image.resize(inp, (10, 14), crop_to_aspect_ratio=True)
    assert tuple(out.shape) == (None, 10, 14, 3)
    model = hl.Model(inp, out)
    again = hl.Model.from_config(model.get_config())
    np.testing.assert_allclose(_np(again(IMAGES)), _keras("resize", IMAGES, (10, 14), crop_to_aspect_ratio=True),
                               atol=2e-6)


@pytest.mark.parametrize("kwargs,message", [
    ({"size": (2,)}, "size"), ({"size": (0, 3)}, "size"), ({"size": (2, 2), "interpolation": "cubic"}, "interpolation"),
    ({"size": (2, 2), "crop_to_aspect_ratio": True, "pad_to_aspect_ratio": True}, "Only one"),
    ({"size": (2, 2), "fill_mode": "reflect"}, "fill_mode"),
])
def test_resize_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        hl.ops.image.resize(IMAGES, **kwargs)
    with pytest.raises(ValueError, match="rank"):
        hl.ops.image.resize(IMAGES[0, 0], (2, 2))


# -------------------------------------------------------------------------------------- affine_transform
def _random_transforms(rng, n):
    rows = []
    for i in range(n):
        a, s = rng.uniform(-3, 3), rng.uniform(0.3, 2.5)
        rows.append([s * np.cos(a), -s * np.sin(a) + rng.uniform(-0.3, 0.3), rng.uniform(-9, 9),
                     s * np.sin(a), s * np.cos(a), rng.uniform(-9, 9),
                     rng.uniform(-0.02, 0.02) * (i % 2), rng.uniform(-0.02, 0.02) * (i % 2)])
    return np.array(rows, "float32")


# Integer shifts and flips put sample points exactly on pixels and borders.
EXACT = np.array([[1, 0, 2, 0, 1, -3, 0, 0], [-1, 0, 8, 0, 1, 0, 0, 0], [1, 0, -0.5, 0, 1, 0.5, 0, 0],
                  [1, 0, 9, 0, 1, -6, 0, 0]], "float32")


@pytest.mark.parametrize("interpolation", ["bilinear", "nearest"])
@pytest.mark.parametrize("fill_mode", ["constant", "reflect", "wrap", "nearest"])
def test_affine_transform_matches_keras(backend, interpolation, fill_mode):
    rng = np.random.default_rng(3)
    x = rng.random((4, 6, 9, 2)).astype("float32")
    for transform in [_random_transforms(rng, 4), _random_transforms(rng, 1)[0], EXACT]:
        kw = {"interpolation": interpolation, "fill_mode": fill_mode, "fill_value": 0.7}
        got = _np(hl.ops.image.affine_transform(x, transform, **kw))
        want = _keras("affine_transform", x, transform, **kw)
        np.testing.assert_allclose(got, want, atol=1e-5, err_msg=str(transform))


@pytest.mark.parametrize("shape,data_format", [((6, 9, 2), "channels_last"), ((2, 2, 6, 9), "channels_first")])
def test_affine_transform_layouts(backend, shape, data_format):
    x = np.random.default_rng(4).random(shape).astype("float32")
    transform = _random_transforms(np.random.default_rng(5), 1)[0]
    got = _np(hl.ops.image.affine_transform(x, transform, data_format=data_format, fill_mode="reflect"))
    want = _keras("affine_transform", x, transform, data_format=data_format, fill_mode="reflect")
    np.testing.assert_allclose(got, want, atol=1e-5)


def test_affine_transform_gradient(backend):
    """Gradients reach the images (not the transform) and agree with a finite difference on native float64."""
    rng = np.random.default_rng(6)
    x = rng.random((2, 5, 6, 2))
    transform = _random_transforms(rng, 2)
    cot = rng.normal(size=x.shape)

    def loss(t, tr):
        return hl.ops.sum(hl.ops.multiply(hl.ops.image.affine_transform(t, tr, fill_mode="wrap"), cot))

    g = _np(hl.ops.grad(loss)(hl.ops.convert_to_tensor(x.astype("float32")), transform))
    with hl.config.backend_scope("native"):
        want = _np(hl.ops.grad(loss)(hl.ops.convert_to_tensor(x), transform))
        eps, i = 1e-6, (1, 2, 3, 1)
        bumped = x.copy()
        bumped[i] += eps
        fd = (_np(loss(bumped, transform)) - _np(loss(x, transform))) / eps
    assert abs(want[i] - fd) < 1e-4
    np.testing.assert_allclose(g, want, atol=1e-4)
    g_t = hl.ops.grad(loss, argnums=1)(hl.ops.convert_to_tensor(x.astype("float32")),
                                       hl.ops.convert_to_tensor(transform))
    assert np.all(_np(g_t) == 0)


def test_affine_transform_errors():
    with pytest.raises(ValueError, match="interpolation"):
        hl.ops.image.affine_transform(IMAGES, EXACT[:2], interpolation="bicubic")
    with pytest.raises(ValueError, match="fill_mode"):
        hl.ops.image.affine_transform(IMAGES, EXACT[:2], fill_mode="mirror")
    with pytest.raises(ValueError, match="transform"):
        hl.ops.image.affine_transform(IMAGES, np.zeros((2, 6), "float32"))
