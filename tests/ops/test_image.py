"""``hl.ops.image`` against Keras 3's ``keras.ops.image`` (TensorFlow backend, Keras's default), on every engine.

Where Keras's backends disagree, a test says which one we follow and why: TensorFlow's numerics, except where it
is wrong (map_coordinates' mirror/reflect, gaussian_blur with a non-square window), or refuses inputs (integer images).
"""

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


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"crop_to_aspect_ratio": True}, {"pad_to_aspect_ratio": True, "fill_value": 0.5}],
    ids=["plain", "crop", "pad"],
)
@pytest.mark.parametrize(
    "shape,data_format",
    [
        ((2, 5, 7, 3), "channels_last"),
        ((5, 7, 3), "channels_last"),
        ((2, 3, 5, 7), "channels_first"),
        ((3, 6, 4), "channels_first"),
    ],
)
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
        hl.ops.convert_to_tensor(x)
    )
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
    np.testing.assert_allclose(
        _np(again(IMAGES)), _keras("resize", IMAGES, (10, 14), crop_to_aspect_ratio=True), atol=2e-6
    )


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"size": (2,)}, "size"),
        ({"size": (0, 3)}, "size"),
        ({"size": (2, 2), "interpolation": "cubic"}, "interpolation"),
        ({"size": (2, 2), "crop_to_aspect_ratio": True, "pad_to_aspect_ratio": True}, "Only one"),
        ({"size": (2, 2), "fill_mode": "reflect"}, "fill_mode"),
    ],
)
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
        rows.append(
            [
                s * np.cos(a),
                -s * np.sin(a) + rng.uniform(-0.3, 0.3),
                rng.uniform(-9, 9),
                s * np.sin(a),
                s * np.cos(a),
                rng.uniform(-9, 9),
                rng.uniform(-0.02, 0.02) * (i % 2),
                rng.uniform(-0.02, 0.02) * (i % 2),
            ]
        )
    return np.array(rows, "float32")


# Integer shifts and flips put sample points exactly on pixels and borders.
EXACT = np.array(
    [[1, 0, 2, 0, 1, -3, 0, 0], [-1, 0, 8, 0, 1, 0, 0, 0], [1, 0, -0.5, 0, 1, 0.5, 0, 0], [1, 0, 9, 0, 1, -6, 0, 0]],
    "float32",
)


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
    g_t = hl.ops.grad(loss, argnums=1)(
        hl.ops.convert_to_tensor(x.astype("float32")), hl.ops.convert_to_tensor(transform)
    )
    assert np.all(_np(g_t) == 0)


def test_affine_transform_errors():
    with pytest.raises(ValueError, match="interpolation"):
        hl.ops.image.affine_transform(IMAGES, EXACT[:2], interpolation="bicubic")
    with pytest.raises(ValueError, match="fill_mode"):
        hl.ops.image.affine_transform(IMAGES, EXACT[:2], fill_mode="mirror")
    with pytest.raises(ValueError, match="transform"):
        hl.ops.image.affine_transform(IMAGES, np.zeros((2, 6), "float32"))


# ------------------------------------------------------------------------------- crop_images / pad_images
UINT8 = (np.random.default_rng(7).random((2, 5, 7, 3)) * 255).astype("uint8")
CROP_PAD_LAYOUTS = [
    ((2, 5, 7, 3), "channels_last"),
    ((5, 7, 3), "channels_last"),
    ((2, 3, 5, 7), "channels_first"),
    ((3, 5, 7), "channels_first"),
]


@pytest.mark.parametrize("shape,data_format", CROP_PAD_LAYOUTS)
def test_crop_and_pad_images_match_keras(backend, shape, data_format):
    x = np.random.default_rng(8).random(shape).astype("float32")
    crops = [
        dict(top_cropping=1, left_cropping=2, target_height=3, target_width=4),
        dict(top_cropping=0, bottom_cropping=2, left_cropping=1, right_cropping=3),
        dict(bottom_cropping=1, target_height=2, right_cropping=0, target_width=7),
    ]
    for kw in crops:
        got, want = (
            _np(hl.ops.image.crop_images(x, data_format=data_format, **kw)),
            _keras("crop_images", x, data_format=data_format, **kw),
        )
        assert got.shape == want.shape and np.array_equal(got, want), kw
    pads = [
        dict(top_padding=1, left_padding=2, target_height=8, target_width=9),
        dict(top_padding=0, bottom_padding=2, left_padding=3, right_padding=1),
        dict(bottom_padding=1, target_height=6, right_padding=0, target_width=7),
    ]
    for kw in pads:
        got, want = (
            _np(hl.ops.image.pad_images(x, data_format=data_format, **kw)),
            _keras("pad_images", x, data_format=data_format, **kw),
        )
        assert got.shape == want.shape and np.array_equal(got, want), kw


def test_crop_and_pad_images_keep_integer_dtypes(backend):
    cropped = hl.ops.image.crop_images(UINT8, 1, 1, target_height=3, target_width=4)
    padded = hl.ops.image.pad_images(UINT8, 1, 1, 1, 1)
    assert hl.ops.dtype(cropped) == hl.ops.dtype(padded) == "uint8"
    assert np.array_equal(_np(cropped), _keras("crop_images", UINT8, 1, 1, target_height=3, target_width=4))
    assert np.array_equal(_np(padded), _keras("pad_images", UINT8, 1, 1, 1, 1))


@pytest.mark.parametrize(
    "fn,kwargs,message",
    [
        ("crop_images", {"top_cropping": 1, "left_cropping": 1}, "exactly two of top_cropping"),
        (
            "crop_images",
            {"top_cropping": 1, "bottom_cropping": 1, "target_height": 3, "left_cropping": 1, "target_width": 2},
            "exactly two of top_cropping",
        ),
        (
            "crop_images",
            {"top_cropping": -1, "target_height": 2, "left_cropping": 1, "target_width": 2},
            "top_cropping must be >= 0",
        ),
        ("crop_images", {"top_cropping": 4, "target_height": 3, "left_cropping": 1, "target_width": 2}, "exceeds"),
        (
            "crop_images",
            {"top_cropping": 3, "bottom_cropping": 3, "left_cropping": 1, "target_width": 2},
            "target_height must be >= 0",
        ),
        (
            "pad_images",
            {"top_padding": 1, "target_height": 4, "left_padding": 0, "right_padding": 0},
            "bottom_padding must be >= 0",
        ),
        ("pad_images", {"top_padding": 1, "bottom_padding": 1, "left_padding": 0}, "exactly two of left_padding"),
    ],
)
def test_crop_and_pad_images_errors(fn, kwargs, message):
    with pytest.raises(ValueError, match=message):
        getattr(hl.ops.image, fn)(IMAGES, **kwargs)
    with pytest.raises(ValueError, match="rank"):
        getattr(hl.ops.image, fn)(IMAGES[0, 0], 1, 1, 1, 1)


# ------------------------------------------------------------------------------------------- color spaces
@pytest.mark.parametrize("shape,data_format", CROP_PAD_LAYOUTS)
def test_color_conversions_match_keras(backend, shape, data_format):
    x = np.random.default_rng(9).random(shape).astype("float32")
    x.flat[:6] = [0.0, 0.0, 0.0, 0.5, 0.5, 0.5]  # black and gray pixels somewhere (no chroma)
    for fn in ("rgb_to_grayscale", "rgb_to_hsv", "hsv_to_rgb"):
        got, want = _np(getattr(hl.ops.image, fn)(x, data_format=data_format)), _keras(fn, x, data_format=data_format)
        assert got.shape == want.shape and got.dtype == want.dtype, fn
        np.testing.assert_allclose(got, want, atol=1e-6, err_msg=fn)
    hsv = _np(hl.ops.image.rgb_to_hsv(x, data_format=data_format))
    np.testing.assert_allclose(_np(hl.ops.image.hsv_to_rgb(hsv, data_format=data_format)), x, atol=2e-6)


def test_rgb_to_grayscale_integer_images_truncate_like_keras(backend):
    got = _np(hl.ops.image.rgb_to_grayscale(UINT8))
    want = _keras("rgb_to_grayscale", UINT8)
    assert got.dtype == np.uint8 and got.shape == (2, 5, 7, 1)
    # float32 sums in another order may land one ulp on the other side of an integer
    assert np.abs(got.astype(int) - want.astype(int)).max() <= 1 and (got == want).mean() > 0.95
    gray = UINT8[..., :1]
    assert np.array_equal(_np(hl.ops.image.rgb_to_grayscale(gray)), gray)


def test_hsv_to_rgb_hues_outside_the_unit_interval_follow_tensorflow(backend):
    """Keras's backends disagree on hues outside [0, 1]: TensorFlow clamps the color ramps (red at both ends),
    JAX wraps the hue. We follow TensorFlow, Keras's default, as the docstring says."""
    from keras.src.backend.jax import image as keras_jax

    hsv = np.array([[[1.2, 1.0, 1.0], [-0.3, 0.5, 0.8]]], "float32")
    got = _np(hl.ops.image.hsv_to_rgb(hsv))
    np.testing.assert_allclose(got, _keras("hsv_to_rgb", hsv), atol=1e-6)
    np.testing.assert_allclose(got[0, 0], [1.0, 0.0, 0.0], atol=1e-6)
    assert not np.allclose(np.asarray(keras_jax.hsv_to_rgb(hsv, data_format="channels_last")), got, atol=1e-3)


def test_color_conversion_errors():
    with pytest.raises(ValueError, match="channel size"):
        hl.ops.image.rgb_to_grayscale(np.zeros((2, 4, 4, 2), "float32"))
    with pytest.raises(ValueError, match="float dtype"):
        hl.ops.image.rgb_to_hsv(UINT8)
    with pytest.raises(ValueError, match="float dtype"):
        hl.ops.image.hsv_to_rgb(UINT8)
    with pytest.raises(ValueError, match="expected 3 channels"):
        hl.ops.image.rgb_to_hsv(np.zeros((4, 4, 4), "float32"))
    with pytest.raises(ValueError, match="data_format"):
        hl.ops.image.rgb_to_hsv(IMAGES, data_format="NHWC")


# ------------------------------------------------------------------------------------------ extract_patches
PATCH_ARGS = [
    ((2, 3), {}),
    (3, {"strides": 1}),
    ((2, 2), {"strides": (1, 2), "padding": "same"}),
    ((3, 2), {"strides": 1, "dilation_rate": 2}),
    ((4, 4), {"padding": "same"}),
    ((3, 3), {"strides": 2, "padding": "SAME"}),
    ([5, 7], {}),
]


@pytest.mark.parametrize("size,kwargs", PATCH_ARGS, ids=[f"{s}-{sorted(k.items())}" for s, k in PATCH_ARGS])
def test_extract_patches_match_keras(backend, size, kwargs):
    x = RNG.random((2, 7, 9, 3)).astype("float32")
    for images, data_format in [
        (x, "channels_last"),
        (np.transpose(x, (0, 3, 1, 2)), "channels_first"),
        (x[0], "channels_last"),
    ]:
        got = _np(hl.ops.image.extract_patches(images, size, data_format=data_format, **kwargs))
        want = _keras("extract_patches", images, size, data_format=data_format, **kwargs)
        assert got.shape == want.shape, (data_format, got.shape, want.shape)
        assert np.array_equal(got, want), data_format  # gathered, not convolved: exact


@pytest.mark.parametrize(
    "size,kwargs",
    [((2, 3, 2), {}), (2, {"strides": 1, "padding": "same"}), ((2, 2, 3), {"strides": (1, 2, 2), "dilation_rate": 1})],
)
def test_extract_patches_3d_match_keras(backend, size, kwargs):
    v = RNG.random((2, 5, 6, 7, 2)).astype("float32")
    for volumes, data_format in [
        (v, "channels_last"),
        (np.moveaxis(v, -1, 1), "channels_first"),
        (v[0], "channels_last"),
    ]:
        got = _np(hl.ops.image.extract_patches_3d(volumes, size, data_format=data_format, **kwargs))
        want = _keras("extract_patches_3d", volumes, size, data_format=data_format, **kwargs)
        assert got.shape == want.shape and np.array_equal(got, want), data_format
        if not isinstance(size, int):  # a 3-tuple size sends extract_patches to the 3D version
            got2 = _np(hl.ops.image.extract_patches(volumes, size, data_format=data_format, **kwargs))
            assert np.array_equal(got2, want)


def test_extract_patches_any_dtype_and_dilation_with_strides(backend):
    ints = (RNG.random((2, 8, 8, 3)) * 1000).astype("int32")
    got = hl.ops.image.extract_patches(ints, 4)
    assert hl.ops.dtype(got) == "int32" and np.array_equal(_np(got), _keras("extract_patches", ints, 4))
    u8 = hl.ops.image.extract_patches(UINT8, 2)  # TensorFlow's conv refuses uint8; a gather does not care
    assert hl.ops.dtype(u8) == "uint8" and np.array_equal(_np(u8)[0, 0, 0], UINT8[0, :2, :2].ravel())
    # Keras's TensorFlow backend refuses dilation_rate > 1 with strides > 1; the gather needs no such limit
    x = RNG.random((1, 9, 9, 1)).astype("float32")
    got = _np(hl.ops.image.extract_patches(x, 2, strides=3, dilation_rate=2))
    assert got.shape == (1, 3, 3, 4)
    np.testing.assert_array_equal(got[0, 1, 2], x[0, [3, 3, 5, 5], [6, 8, 6, 8], 0])
    nan = np.zeros((1, 4, 4, 1), "float32")
    nan[0, 0, 0, 0] = np.nan  # a NaN stays in its own place (an identity-kernel convolution spreads it)
    assert np.isnan(_np(hl.ops.image.extract_patches(nan, 2))).sum() == 1


def test_extract_patches_vit_model(backend):
    """The patch embedding of a vision transformer, in a functional model (the Keras ViT example's shape)."""
    hl.utils.set_random_seed(1)  # the learning check below starts from the same weights whatever ran before
    inp = hl.Input((32, 32, 3))
    patches = hl.ops.image.extract_patches(inp, (8, 8))
    assert tuple(patches.shape) == (None, 4, 4, 192)
    tokens = hl.ops.reshape(patches, (-1, 16, 192))
    model = hl.Model(inp, hl.layers.Dense(8)(tokens))
    x = np.random.default_rng(10).random((3, 32, 32, 3)).astype("float32")
    out = _np(model.predict(x, verbose=0))
    assert out.shape == (3, 16, 8)
    dense = model.layers[-1]
    kernel, bias = (_np(w) for w in dense.weights)
    want = _keras("extract_patches", x, (8, 8)).reshape(3, 16, 192) @ kernel + bias
    np.testing.assert_allclose(out, want, atol=1e-4)
    # and it trains in each engine's compiled step: a patch-mean target is learned
    model.compile(optimizer=hl.optimizers.Adam(0.01), loss="mse")
    target = x.reshape(3, 4, 8, 4, 8, 3).mean(axis=(2, 4, 5)).reshape(3, 16, 1).repeat(8, axis=-1)
    history = model.fit(x, target, epochs=8, batch_size=3, verbose=0).history["loss"]
    assert history[-1] < 0.5 * history[0], history


def test_extract_patches_gradient_is_a_scatter(backend):
    """Each pixel's gradient is the sum of the cotangents of the patch taps that read it."""
    x = RNG.random((1, 4, 5, 2)).astype("float32")
    g = _np(
        hl.ops.grad(lambda t: hl.ops.sum(hl.ops.image.extract_patches(t, (2, 2), strides=1)))(
            hl.ops.convert_to_tensor(x)
        )
    )
    taps = np.array([1, 2, 2, 2, 1])
    np.testing.assert_array_equal(g[0, :, :, 0], np.outer([1, 2, 2, 1], taps))


@pytest.mark.parametrize(
    "call,error,message",
    [
        (lambda: hl.ops.image.extract_patches(IMAGES, "2"), TypeError, "Expected an int or a tuple"),
        (lambda: hl.ops.image.extract_patches(IMAGES, (2, 2, 2, 2)), ValueError, "length 2"),
        (lambda: hl.ops.image.extract_patches(IMAGES[0], (2, 2, 2)), ValueError, "rank 4"),
        (lambda: hl.ops.image.extract_patches(IMAGES, 6), ValueError, "spans more than"),
        (lambda: hl.ops.image.extract_patches(IMAGES, 2, padding="full"), ValueError, "padding"),
        (lambda: hl.ops.image.extract_patches(IMAGES, 2, strides=0), ValueError, "strides"),
        (lambda: hl.ops.image.extract_patches_3d(IMAGES[0], 2), ValueError, "rank 4"),
    ],
)
def test_extract_patches_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ------------------------------------------------------------------------------------------ map_coordinates
MAP_INPUT = np.random.default_rng(11).random((5, 6)).astype("float32")
MAP_COORDS = np.random.default_rng(12).uniform(-3, 8, (2, 4, 5)).astype("float32")


@pytest.mark.parametrize("order", [0, 1])
@pytest.mark.parametrize("fill_mode", ["constant", "nearest", "wrap"])
def test_map_coordinates_match_keras(backend, order, fill_mode):
    got = _np(hl.ops.image.map_coordinates(MAP_INPUT, MAP_COORDS, order, fill_mode=fill_mode, fill_value=0.5))
    want = _keras("map_coordinates", MAP_INPUT, MAP_COORDS, order, fill_mode=fill_mode, fill_value=0.5)
    np.testing.assert_allclose(got, want, atol=1e-6)
    volume = np.random.default_rng(13).random((3, 4, 5)).astype("float32")
    points = np.random.default_rng(14).uniform(-1, 5, (3, 7)).astype("float32")
    got = _np(hl.ops.image.map_coordinates(volume, points, order, fill_mode=fill_mode))
    np.testing.assert_allclose(got, _keras("map_coordinates", volume, points, order, fill_mode=fill_mode), atol=1e-6)


@pytest.mark.parametrize("order", [0, 1])
@pytest.mark.parametrize("fill_mode", ["mirror", "reflect"])
def test_map_coordinates_mirror_and_reflect_follow_jax_and_scipy(backend, order, fill_mode):
    """Keras's TensorFlow backend gets these two modes wrong: "mirror" indexes one past the end (an error) and
    "reflect" mirrors negative indices about the wrong point (index -1 reads b, not a, of ``a b c d``). We fold
    indices as the modes are documented, which is what Keras's JAX backend (jax.scipy.ndimage) and scipy do."""
    import scipy.ndimage
    from keras.src.backend.jax import image as keras_jax

    got = _np(hl.ops.image.map_coordinates(MAP_INPUT, MAP_COORDS, order, fill_mode=fill_mode))
    want = np.asarray(keras_jax.map_coordinates(MAP_INPUT, MAP_COORDS, order, fill_mode=fill_mode))
    np.testing.assert_allclose(got, want, atol=1e-6)
    # at integer coordinates interpolation plays no part, and scipy (whose border interpolation differs) agrees
    integer = np.round(MAP_COORDS)
    got = _np(hl.ops.image.map_coordinates(MAP_INPUT, integer, order, fill_mode=fill_mode))
    scipy_mode = {"mirror": "mirror", "reflect": "reflect"}[fill_mode]
    np.testing.assert_allclose(
        got, scipy.ndimage.map_coordinates(MAP_INPUT, integer, order=order, mode=scipy_mode), atol=1e-6
    )
    row = np.array([1.0, 2.0, 3.0, 4.0], "float32")
    at = np.array([[-1.0, 4.0, -2.0]], "float32")
    expect = {"reflect": [1.0, 4.0, 2.0], "mirror": [2.0, 3.0, 3.0]}[fill_mode]
    assert _np(hl.ops.image.map_coordinates(row, at, order, fill_mode=fill_mode)).tolist() == expect


def test_map_coordinates_dtypes_and_sequences(backend):
    u8 = (MAP_INPUT * 255).astype("uint8")
    got = hl.ops.image.map_coordinates(u8, MAP_COORDS, 1)
    assert hl.ops.dtype(got) == "uint8"
    assert np.abs(_np(got).astype(int) - _keras("map_coordinates", u8, MAP_COORDS, 1).astype(int)).max() <= 1
    as_list = hl.ops.image.map_coordinates(MAP_INPUT, [MAP_COORDS[0], MAP_COORDS[1]], 1)
    np.testing.assert_allclose(_np(as_list), _keras("map_coordinates", MAP_INPUT, MAP_COORDS, 1), atol=1e-6)
    # integer coordinates sample the float array (Keras's TensorFlow backend casts the array to their integer
    # dtype first, so it returns zeros for values in [0, 1))
    int_coords = np.round(MAP_COORDS).astype("int32")
    np.testing.assert_array_equal(
        _np(hl.ops.image.map_coordinates(MAP_INPUT, int_coords, 0)),
        _keras("map_coordinates", MAP_INPUT, int_coords.astype("float32"), 0),
    )
    wide = hl.ops.image.map_coordinates(MAP_INPUT.astype("float64"), MAP_COORDS, 1)
    assert hl.ops.dtype(wide) == "float64"


def test_map_coordinates_errors():
    with pytest.raises(ValueError, match="order"):
        hl.ops.image.map_coordinates(MAP_INPUT, MAP_COORDS, 3)
    with pytest.raises(ValueError, match="fill_mode"):
        hl.ops.image.map_coordinates(MAP_INPUT, MAP_COORDS, 1, fill_mode="symmetric")
    with pytest.raises(ValueError, match="rank of `inputs`"):
        hl.ops.image.map_coordinates(MAP_INPUT, MAP_COORDS[:1], 1)
    with pytest.raises(ValueError, match="at least rank 2"):
        hl.ops.image.map_coordinates(MAP_INPUT[0], np.zeros((1,), "float32"), 1)


# ------------------------------------------------------------------------------------- perspective_transform
START = np.array([[[0, 0], [0, 7], [9, 0], [9, 7]], [[0, 0], [0, 7], [9, 0], [9, 7]]], "float32")
END = np.array([[[1, 0.5], [0.3, 6.2], [8, -1], [9.5, 6]], [[2, 1], [1, 6.1], [6.5, 0.3], [8.8, 4.3]]], "float32")


@pytest.mark.parametrize("interpolation", ["bilinear", "nearest"])
def test_perspective_transform_matches_keras(backend, interpolation):
    x = RNG.random((2, 7, 9, 3)).astype("float32")
    cases = [
        (x, START, END, "channels_last"),
        (x[0], START[0], END[1], "channels_last"),
        (np.transpose(x, (0, 3, 1, 2)), START[0], END[0], "channels_first"),
        (x, END, START, "channels_last"),
    ]
    for images, start, end, data_format in cases:
        kw = {"interpolation": interpolation, "fill_value": 0.3, "data_format": data_format}
        got = _np(hl.ops.image.perspective_transform(images, start, end, **kw))
        want = _keras("perspective_transform", images, start, end, **kw)
        assert got.shape == want.shape
        # both solve for the map in float32 (TensorFlow by LU, we in closed form): sample points agree to ~1e-6
        np.testing.assert_allclose(got, want, atol=2e-5)


def test_perspective_transform_solves_the_four_point_equations(backend):
    """The closed-form map sends each end point to its start point, for points in any order."""
    rng = np.random.default_rng(15)
    start = rng.uniform(0, 10, (3, 4, 2)).astype("float32")
    end = (start + rng.uniform(-2, 2, (3, 4, 2))).astype("float32")
    from highlevel.ops.image import _homography

    t = _np(
        _homography(
            hl.ops.convert_to_tensor(start.astype("float64")),
            hl.ops.convert_to_tensor(end.astype("float64")),
            "float64",
        )
    )
    for i in range(3):
        for (xs, ys), (xe, ye) in zip(start[i], end[i]):
            k = t[i, 6] * xe + t[i, 7] * ye + 1
            np.testing.assert_allclose(
                [(t[i, 0] * xe + t[i, 1] * ye + t[i, 2]) / k, (t[i, 3] * xe + t[i, 4] * ye + t[i, 5]) / k],
                [xs, ys],
                atol=1e-9,
            )


def test_perspective_transform_errors():
    with pytest.raises(ValueError, match="start_points shape"):
        hl.ops.image.perspective_transform(IMAGES, START[0, :3], END[0, :3])
    with pytest.raises(ValueError, match="same shape"):
        hl.ops.image.perspective_transform(IMAGES, START, END[0])
    with pytest.raises(ValueError, match="interpolation"):
        hl.ops.image.perspective_transform(IMAGES, START, END, interpolation="bicubic")


# ------------------------------------------------------------------------------------------- gaussian_blur
@pytest.mark.parametrize(
    "kernel_size,sigma", [((3, 3), (1.0, 1.0)), ((5, 5), (0.7, 2.0)), ((4, 4), 1.5), (7, (2.0, 0.5))]
)
def test_gaussian_blur_matches_keras(backend, kernel_size, sigma):
    x = RNG.random((2, 7, 9, 3)).astype("float32")
    keras_kernel = (kernel_size,) * 2 if isinstance(kernel_size, int) else kernel_size
    keras_sigma = (sigma,) * 2 if isinstance(sigma, float) else sigma
    for images, data_format in [
        (x, "channels_last"),
        (np.transpose(x, (0, 3, 1, 2)), "channels_first"),
        (x[1], "channels_last"),
    ]:
        got = _np(hl.ops.image.gaussian_blur(images, kernel_size, sigma, data_format=data_format))
        want = _keras("gaussian_blur", images, keras_kernel, keras_sigma, data_format=data_format)
        np.testing.assert_allclose(got, want, atol=1e-6, err_msg=data_format)


def test_gaussian_blur_non_square_kernel_follows_jax(backend):
    """For a non-square ``kernel_size`` Keras's backends disagree: TensorFlow and PyTorch reshape the
    (height taps, width taps) window to the transposed shape, scrambling it (PyTorch's output even changes
    size); JAX and numpy use the separable window whose width has ``kernel_size[0]`` taps, the reading that
    agrees with every backend on square windows. We follow JAX."""
    from keras.src.backend.jax import image as keras_jax

    x = RNG.random((2, 7, 9, 3)).astype("float32")
    got = _np(hl.ops.image.gaussian_blur(x, (3, 5), (1.0, 2.0)))
    want = np.asarray(keras_jax.gaussian_blur(x, (3, 5), (1.0, 2.0), data_format="channels_last"))
    np.testing.assert_allclose(got, want, atol=1e-6)
    assert not np.allclose(got, _keras("gaussian_blur", x, (3, 5), (1.0, 2.0)), atol=1e-3)


def test_gaussian_blur_dtypes(backend):
    x = RNG.random((2, 6, 6, 3))
    blurred = hl.ops.image.gaussian_blur(x)
    assert hl.ops.dtype(blurred) == "float64"
    np.testing.assert_allclose(_np(blurred), _keras("gaussian_blur", x), atol=1e-12)
    u8 = hl.ops.image.gaussian_blur(UINT8)  # TensorFlow refuses uint8 images; we blur in float32 and round back
    want = np.clip(np.round(_keras("gaussian_blur", UINT8.astype("float32"))), 0, 255)
    assert hl.ops.dtype(u8) == "uint8" and np.abs(_np(u8).astype(int) - want).max() <= 1
    with pytest.raises(ValueError, match="sigma"):
        hl.ops.image.gaussian_blur(x, sigma=(1.0, 0.0))
    with pytest.raises(ValueError, match="kernel_size"):
        hl.ops.image.gaussian_blur(x, kernel_size=(3, 0))


# --------------------------------------------------------------------------------------- elastic_transform
def _ramp_images(height, width):
    """Channels x, y and random noise: an elastic transform of the ramps reveals its displacement field."""
    ys, xs = np.meshgrid(np.arange(height), np.arange(width), indexing="ij")
    noise = np.random.default_rng(16).random((height, width))
    return np.stack([xs, ys, noise], axis=-1).astype("float32")


def test_elastic_transform_displaces_by_a_smooth_random_field(backend):
    from tests.conformance.cases_image import ref_map_coordinates

    image = _ramp_images(24, 28)
    out = _np(hl.ops.image.elastic_transform(image, alpha=2.0, sigma=2.0, seed=5, fill_mode="nearest"))
    assert out.shape == image.shape and out.dtype == np.float32
    inner = (slice(5, -5), slice(5, -5))
    dx, dy = out[..., 0] - image[..., 0], out[..., 1] - image[..., 1]  # linear ramps interpolate exactly
    for field in (dx[inner], dy[inner]):
        assert 0.05 < field.std() < 2.0 and np.abs(field).max() < 4.0
        # smooth: neighbours move together (white noise would give a correlation of 0)
        assert np.corrcoef(field[:, :-1].ravel(), field[:, 1:].ravel())[0, 1] > 0.8
    # two independent fields (Keras's TensorFlow and JAX backends draw both from one seed: dx == dy)
    assert abs(np.corrcoef(dx[inner].ravel(), dy[inner].ravel())[0, 1]) < 0.6
    # every channel is sampled at (y + dy, x + dx), as map_coordinates does
    want = ref_map_coordinates(
        image[..., 2].astype(np.float64), np.stack([image[..., 1] + dy, image[..., 0] + dx]), 1, fill_mode="nearest"
    )
    np.testing.assert_allclose(out[..., 2][inner], want[inner], atol=1e-4)


def test_elastic_transform_seeds_layouts_and_dtypes(backend):
    x = RNG.random((2, 12, 10, 3)).astype("float32")
    a = _np(hl.ops.image.elastic_transform(x, seed=1))
    assert np.array_equal(a, _np(hl.ops.image.elastic_transform(x, seed=1)))
    assert not np.allclose(a, _np(hl.ops.image.elastic_transform(x, seed=2)))
    assert not np.allclose(a[0], a[1])  # each image of the batch has its own field
    first = _np(hl.ops.image.elastic_transform(np.transpose(x, (0, 3, 1, 2)), seed=1, data_format="channels_first"))
    np.testing.assert_allclose(np.transpose(first, (0, 2, 3, 1)), a, atol=1e-6)
    for images in (x[0], x.astype("float64"), UINT8):
        out = hl.ops.image.elastic_transform(images, alpha=5.0, sigma=1.5, interpolation="nearest", seed=3)
        assert tuple(out.shape) == images.shape and hl.ops.dtype(out) == images.dtype.name
    generator = hl.random.SeedGenerator(7)
    b1 = _np(hl.ops.image.elastic_transform(x, seed=generator))
    assert not np.allclose(b1, _np(hl.ops.image.elastic_transform(x, seed=generator)))


def test_elastic_transform_takes_a_tensor_sigma(backend):
    x = RNG.random((2, 12, 10, 3)).astype("float32")
    want = _np(hl.ops.image.elastic_transform(x, alpha=3.0, sigma=1.5, seed=4))
    sigma = hl.ops.convert_to_tensor(1.5)
    got = _np(hl.ops.image.elastic_transform(x, alpha=hl.ops.convert_to_tensor(3.0), sigma=sigma, seed=4))
    np.testing.assert_allclose(got, want, atol=1e-5)
    # a known sigma sizes the window itself: max_sigma changes nothing then
    bounded = _np(hl.ops.image.elastic_transform(x, alpha=3.0, sigma=sigma, seed=4, max_sigma=3.0))
    np.testing.assert_allclose(bounded, want, atol=1e-5)


@pytest.mark.backends("jax")
def test_elastic_transform_with_a_traced_sigma(backend):
    import jax

    x = RNG.random((2, 12, 10, 3)).astype("float32")

    def deform(sigma, max_sigma):
        return hl.ops.image.elastic_transform(x, alpha=3.0, sigma=sigma, seed=4, max_sigma=max_sigma)

    with pytest.raises(ValueError, match="pass max_sigma="):
        jax.jit(lambda s: deform(s, None))(1.5)
    traced = np.asarray(jax.jit(lambda s: deform(s, 1.9))(1.5))  # the window of sigma 1.5 and 1.9: 7 taps
    np.testing.assert_allclose(traced, _np(deform(1.5, None)), atol=1e-5)
    wider = np.asarray(jax.jit(lambda s: deform(s, 3.0))(1.5))  # 19 taps: the tails of the Gaussian join in
    assert wider.shape == x.shape and not np.allclose(wider, x)


def test_elastic_transform_symbolic(backend):
    inp = hl.Input((12, 10, 3))
    out = hl.ops.image.elastic_transform(inp, alpha=3.0, sigma=1.0, seed=11)
    assert tuple(out.shape) == (None, 12, 10, 3)
    model = hl.Model(inp, out)
    again = hl.Model.from_config(model.get_config())
    x = RNG.random((3, 12, 10, 3)).astype("float32")
    want = _np(hl.ops.image.elastic_transform(x, alpha=3.0, sigma=1.0, seed=11))
    np.testing.assert_allclose(_np(model(x)), want, atol=1e-6)
    np.testing.assert_allclose(_np(again(x)), want, atol=1e-6)


def test_elastic_transform_errors():
    with pytest.raises(ValueError, match="interpolation"):
        hl.ops.image.elastic_transform(IMAGES, interpolation="bicubic")
    with pytest.raises(ValueError, match="fill_mode"):
        hl.ops.image.elastic_transform(IMAGES, fill_mode="symmetric")
    with pytest.raises(ValueError, match="sigma"):
        hl.ops.image.elastic_transform(IMAGES, sigma=0.0)


# ------------------------------------------------------------------------------------- scale_and_translate
@pytest.mark.parametrize("method", ["linear", "bilinear", "cubic", "tricubic", "lanczos3", "lanczos5"])
def test_scale_and_translate_matches_keras(backend, method):
    x = RNG.random((2, 7, 9, 3)).astype("float32")
    for scale, translation, out_shape in [
        ([1.6, 0.55], [0.3, -0.4], (2, 11, 5, 3)),
        ([0.5, 2.0], [0.0, 1.5], (2, 4, 20, 3)),
    ]:
        scale, translation = np.array(scale, "float32"), np.array(translation, "float32")
        for antialias in (True, False):
            got = _np(hl.ops.image.scale_and_translate(x, out_shape, scale, translation, (1, 2), method, antialias))
            want = _keras("scale_and_translate", x, out_shape, scale, translation, (1, 2), method, antialias)
            np.testing.assert_allclose(got, want, atol=2e-6, err_msg=f"{scale} {antialias}")


def test_scale_and_translate_examples_and_dtypes(backend):
    images = np.arange(9, dtype="float32").reshape((3, 3))
    scale = np.array([2.0, 2.0], "float32")
    got = _np(hl.ops.image.scale_and_translate(images, (5, 5), scale, -(scale / 2 - 0.5), (0, 1), "linear"))
    np.testing.assert_allclose(got, np.arange(5)[:, None] * 1.5 + np.arange(5)[None, :] * 0.5, atol=1e-6)
    # integer images (Keras's TensorFlow backend fails on them): rounded and clipped to the input's range
    from keras.src.backend.jax import image as keras_jax

    u8 = hl.ops.image.scale_and_translate(UINT8, (2, 9, 4, 3), [1.3, 0.7], [0.5, -0.2], (1, 2), "cubic")
    want = np.asarray(
        keras_jax.scale_and_translate(
            UINT8, (2, 9, 4, 3), np.array([1.3, 0.7], "float32"), np.array([0.5, -0.2], "float32"), (1, 2), "cubic"
        )
    )
    assert hl.ops.dtype(u8) == "uint8" and np.abs(_np(u8).astype(int) - want.astype(int)).max() <= 1
    # "triangle" is documented by Keras but refused by its backends; it is the linear kernel
    tri = hl.ops.image.scale_and_translate(images, (5, 5), scale, -(scale / 2 - 0.5), (0, 1), "triangle")
    np.testing.assert_array_equal(_np(tri), got)


def test_scale_and_translate_errors():
    with pytest.raises(ValueError, match="method"):
        hl.ops.image.scale_and_translate(IMAGES, (2, 5, 7, 3), [1.0, 1.0], [0.0, 0.0], (1, 2), "area")
    with pytest.raises(ValueError, match="one size per axis"):
        hl.ops.image.scale_and_translate(IMAGES, (5, 7), [1.0, 1.0], [0.0, 0.0], (1, 2), "linear")
    with pytest.raises(ValueError, match="not in spatial_dims"):
        hl.ops.image.scale_and_translate(IMAGES, (2, 5, 7, 4), [1.0, 1.0], [0.0, 0.0], (1, 2), "linear")
    with pytest.raises(ValueError, match="one value per spatial axis"):
        hl.ops.image.scale_and_translate(IMAGES, (2, 5, 7, 3), [1.0], [0.0, 0.0], (1, 2), "linear")


# ---------------------------------------------------------------------------------------------- sobel_edges
def test_sobel_edges_match_keras(backend):
    x = RNG.random((2, 7, 9, 3)).astype("float32")
    np.testing.assert_allclose(_np(hl.ops.image.sobel_edges(x)), _keras("sobel_edges", x), atol=2e-6)
    xc = np.transpose(x, (0, 3, 1, 2))
    got = _np(hl.ops.image.sobel_edges(xc, data_format="channels_first"))
    want = _keras("sobel_edges", xc, data_format="channels_first")
    assert got.shape == (2, 3, 7, 9, 2)
    np.testing.assert_allclose(got, want, atol=2e-6)


def test_sobel_edges_reflect_the_border_like_tensorflow(backend):
    """Keras's JAX backend pads the border with zeros, so its edges differ from TensorFlow's in the outer pixels
    (a constant image has edges there). We reflect the border, as tf.image.sobel_edges (Keras's default) does."""
    from keras.src.backend.jax import image as keras_jax

    ones = np.ones((1, 4, 5, 1), "float32")
    assert np.array_equal(_np(hl.ops.image.sobel_edges(ones)), np.zeros((1, 4, 5, 1, 2)))
    assert np.abs(np.asarray(keras_jax.sobel_edges(ones, data_format="channels_last"))).max() > 0
    ints = hl.ops.image.sobel_edges(UINT8[:, :4, :4])  # signed gradients of integer images: floatx
    assert hl.ops.dtype(ints) == "float32"
    np.testing.assert_allclose(_np(ints), _keras("sobel_edges", UINT8[:, :4, :4].astype("float32")), atol=1e-4)
    with pytest.raises(ValueError, match="rank 4"):
        hl.ops.image.sobel_edges(IMAGES[0])
    with pytest.raises(ValueError, match="at least 2x2"):
        hl.ops.image.sobel_edges(IMAGES[:, :1])


# ----------------------------------------------------------------------------------------------------- ssim
def test_ssim_matches_keras(backend):
    rng = np.random.default_rng(17)
    a = rng.random((2, 16, 14, 3)).astype("float32")
    b = np.clip(a + rng.normal(0, 0.1, a.shape), 0, 1).astype("float32")
    for kw in [{}, {"filter_size": 5, "filter_sigma": 1.0}, {"max_val": 2.0, "k1": 0.02, "k2": 0.05}]:
        np.testing.assert_allclose(_np(hl.ops.image.ssim(a, b, **kw)), _keras("ssim", a, b, **kw), atol=2e-6)
    got = hl.ops.image.ssim(a[0], b[0], filter_size=3)
    assert tuple(got.shape) == ()
    np.testing.assert_allclose(_np(got), _keras("ssim", a[0], b[0], filter_size=3), atol=2e-6)
    ac, bc = np.transpose(a, (0, 3, 1, 2)), np.transpose(b, (0, 3, 1, 2))
    np.testing.assert_allclose(
        _np(hl.ops.image.ssim(ac, bc, data_format="channels_first")),
        _keras("ssim", ac, bc, data_format="channels_first"),
        atol=2e-6,
    )
    np.testing.assert_allclose(_np(hl.ops.image.ssim(a, a)), [1.0, 1.0], atol=1e-6)


def test_ssim_gradient_matches_tensorflow(backend):
    import tensorflow as tf

    rng = np.random.default_rng(18)
    a, b = rng.random((2, 9, 8, 2)).astype("float32"), rng.random((2, 9, 8, 2)).astype("float32")
    g = _np(hl.ops.grad(lambda t: hl.ops.sum(hl.ops.image.ssim(t, b, filter_size=5)))(hl.ops.convert_to_tensor(a)))
    at = tf.constant(a)
    with tf.GradientTape() as tape:
        tape.watch(at)
        loss = tf.reduce_sum(keras.ops.image.ssim(at, b, filter_size=5))
    np.testing.assert_allclose(g, tape.gradient(loss, at).numpy(), atol=1e-5)


def test_ssim_of_integer_images_is_a_float(backend):
    """Keras casts the SSIM of integer images back to their dtype, which truncates every SSIM below 1 to 0 (its
    uint8 result is 0 or 1). We return floatx: the SSIM of the same images as float32."""
    other = UINT8[::-1]
    got = hl.ops.image.ssim(UINT8, other, max_val=255.0, filter_size=3)
    assert hl.ops.dtype(got) == "float32"
    want = _keras("ssim", UINT8.astype("float32"), other.astype("float32"), max_val=255.0, filter_size=3)
    np.testing.assert_allclose(_np(got), want, atol=1e-5)
    assert set(_keras("ssim", UINT8, other, max_val=255.0, filter_size=3).tolist()) <= {0, 1}


def test_ssim_errors():
    with pytest.raises(ValueError, match="same shape"):
        hl.ops.image.ssim(IMAGES, IMAGES[:1])
    with pytest.raises(ValueError, match="larger than"):
        hl.ops.image.ssim(IMAGES, IMAGES)  # 5x7 images, 11x11 window
    with pytest.raises(ValueError, match="image1 rank"):
        hl.ops.image.ssim(IMAGES[0, 0], IMAGES[0, 0])
    with pytest.raises(ValueError, match="filter_sigma"):
        hl.ops.image.ssim(IMAGES, IMAGES, filter_size=3, filter_sigma=-1.0)


# ------------------------------------------------------------------------------------------ symbolic models
def test_image_ops_in_a_functional_model(backend):
    """A functional model built from several image ops predicts what the ops give eagerly, and survives its
    config."""
    inp = hl.Input((10, 12, 3))
    gray = hl.ops.image.rgb_to_grayscale(inp)
    blurred = hl.ops.image.gaussian_blur(gray, (3, 3), (1.0, 1.0))
    cropped = hl.ops.image.crop_images(blurred, 1, 2, target_height=8, target_width=8)
    padded = hl.ops.image.pad_images(cropped, 0, 0, 2, 2)
    patches = hl.ops.image.extract_patches(padded, 5)
    edges = hl.ops.image.sobel_edges(hl.ops.image.rgb_to_hsv(inp))
    model = hl.Model(inp, [patches, edges, hl.ops.image.ssim(gray, blurred, filter_size=3)])
    assert tuple(patches.shape) == (None, 2, 2, 25) and tuple(edges.shape) == (None, 10, 12, 3, 2)
    again = hl.Model.from_config(model.get_config())
    x = np.random.default_rng(19).random((2, 10, 12, 3)).astype("float32")
    want_patches = _keras(
        "extract_patches",
        _keras(
            "pad_images",
            _keras(
                "crop_images",
                _keras("gaussian_blur", _keras("rgb_to_grayscale", x), (3, 3), (1.0, 1.0)),
                1,
                2,
                target_height=8,
                target_width=8,
            ),
            0,
            0,
            2,
            2,
        ),
        5,
    )
    for m in (model, again):
        p, e, s = (_np(t) for t in m.predict(x, verbose=0))
        np.testing.assert_allclose(p, want_patches, atol=1e-5)
        np.testing.assert_allclose(e, _keras("sobel_edges", _keras("rgb_to_hsv", x)), atol=1e-4)
        want_blur = _keras("gaussian_blur", _keras("rgb_to_grayscale", x), (3, 3), (1.0, 1.0))
        np.testing.assert_allclose(
            s, _keras("ssim", _keras("rgb_to_grayscale", x), want_blur, filter_size=3), atol=1e-5
        )
