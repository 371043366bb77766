"""The TensorFlow engine's own kernels for image composites (``ImageProjectiveTransformV3``, ``tf.image``'s HSV
conversions): a traced call is a handful of graph ops instead of hundreds, the values are the composite's (run
as the oracle) in every mode routed to a kernel, and the composite still runs for float64, under a gradient tape
and for invalid arguments (its own errors)."""

import itertools

import numpy as np
import pytest

import highlevel as hl
from highlevel.ops import image as image_ops

RNG = np.random.default_rng(11)
IMAGES = RNG.uniform(size=(3, 7, 9, 2)).astype("float32")
COS, SIN = np.cos(0.4), np.sin(0.4)
TRANSFORMS = {
    "rotation": np.array([COS, -SIN, 2.0, SIN, COS, -1.5, 0.0, 0.0], "float32"),
    "projective": np.array([1.1, 0.2, -1.0, -0.1, 0.9, 0.5, 0.01, -0.02], "float32"),
    "zoom-out": np.array([2.3, 0.0, -3.0, 0.0, 1.7, -4.0, 0.0, 0.0], "float32"),
}
MODES = list(itertools.product(image_ops.AFFINE_TRANSFORM_FILL_MODES, image_ops.AFFINE_TRANSFORM_INTERPOLATIONS))


def _graph(tf, fn, *args):
    """The values of ``fn(*args)`` inside ``tf.function`` and the op types of its graph."""
    traced = tf.function(fn, autograph=False)
    concrete = traced.get_concrete_function(*args)
    return traced(*args).numpy(), [op.type for op in concrete.graph.get_operations()]


def _layout(x, data_format, batched):
    x = x if batched else x[0]
    if data_format == "channels_first":
        x = np.moveaxis(x, -1, -3)
    return x


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("fill_mode,interpolation", MODES)
def test_affine_transform_is_one_kernel_and_agrees_with_the_composite(tf, data_format, fill_mode, interpolation):
    with hl.config.backend_scope("tensorflow"):
        for (name, transform), batched in itertools.product(TRANSFORMS.items(), [True, False]):
            images = tf.constant(_layout(IMAGES, data_format, batched))
            # One transform per image (slightly different ones) or one for all.
            rows = np.stack([transform, transform * 1.01, transform * 0.97]) if batched else transform
            args = (images, tf.constant(rows))
            kw = dict(interpolation=interpolation, fill_mode=fill_mode, fill_value=0.5, data_format=data_format)
            got, op_types = _graph(tf, lambda x, t: hl.ops.image.affine_transform(x, t, **kw), *args)
            want = hl.ops.convert_to_numpy(image_ops._affine_transform(*args, **kw))
            assert op_types.count("ImageProjectiveTransformV3") == 1, name
            assert len(op_types) < 30, (name, len(op_types))
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=f"{name} batched={batched}")


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_affine_transform_half_precision_uses_the_kernel_and_agrees(tf, dtype):
    with hl.config.backend_scope("tensorflow"):
        images = tf.cast(tf.constant(IMAGES), dtype)
        transform = tf.constant(TRANSFORMS["rotation"])
        got, op_types = _graph(
            tf, lambda x, t: hl.ops.image.affine_transform(x, t, fill_mode="reflect"), images, transform
        )
        want = image_ops._affine_transform(images, transform, fill_mode="reflect")
        assert "ImageProjectiveTransformV3" in op_types
        # The kernel interpolates in float32 and rounds once; the composite works in the half dtype.
        np.testing.assert_allclose(got.astype("float32"), np.asarray(tf.cast(want, "float32")), atol=2e-2)


def test_affine_transform_float64_keeps_the_composite(tf):
    # The kernel interpolates in float32, an error of ~1e-8 where float64 promises ~1e-15.
    with hl.config.backend_scope("tensorflow"):
        images, transform = tf.constant(IMAGES.astype("float64")), tf.constant(TRANSFORMS["projective"])
        _, op_types = _graph(tf, lambda x, t: hl.ops.image.affine_transform(x, t), images, transform)
        assert "ImageProjectiveTransformV3" not in op_types
        # Eagerly (a graph's rewrites may round the float32 grid differently): the composite's very values.
        got = hl.ops.image.affine_transform(images, transform).numpy()
        np.testing.assert_array_equal(got, image_ops._affine_transform(images, transform).numpy())


def test_affine_transform_under_xla_keeps_the_composite(tf):
    # XLA cannot compile ImageProjectiveTransformV3; the composite's ops compile, also from a nested function.
    with hl.config.backend_scope("tensorflow"):
        images, transform = tf.constant(IMAGES), tf.constant(TRANSFORMS["projective"])
        kw = dict(interpolation="nearest", fill_mode="wrap")
        want = image_ops._affine_transform(images, transform, **kw).numpy()
        inner = tf.function(lambda x, t: hl.ops.image.affine_transform(x, t, **kw), autograph=False)
        for fn in (inner, lambda x, t: inner(x, t)):
            got = tf.function(fn, jit_compile=True, autograph=False)(images, transform).numpy()
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_affine_transform_under_a_tape_keeps_the_composites_exact_gradient(tf):
    # ImageProjectiveTransformV3's registered gradient resamples through the inverse map, not the exact adjoint.
    with hl.config.backend_scope("tensorflow"):
        images, transform = tf.constant(IMAGES), tf.constant(TRANSFORMS["zoom-out"])
        weights = tf.constant(RNG.uniform(size=IMAGES.shape).astype("float32"))

        def grad(fn):
            with tf.GradientTape() as tape:
                tape.watch(images)
                loss = tf.reduce_sum(fn(images, transform) * weights)
            return tape.gradient(loss, images).numpy()

        got = grad(hl.ops.image.affine_transform)
        want = grad(image_ops._affine_transform)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
        raw = grad(
            lambda x, t: tf.raw_ops.ImageProjectiveTransformV3(
                images=x,
                transforms=t[None],
                output_shape=[7, 9],
                fill_value=0.0,
                interpolation="BILINEAR",
                fill_mode="CONSTANT",
            )
        )
        assert np.abs(raw - want).max() > 1e-2  # why the tape keeps the composite


def test_affine_transform_errors_stay_the_composites(tf):
    with hl.config.backend_scope("tensorflow"):
        images = tf.constant(IMAGES)
        with pytest.raises(ValueError, match="Invalid value for argument `interpolation`"):
            hl.ops.image.affine_transform(images, TRANSFORMS["rotation"], interpolation="bicubic")
        with pytest.raises(ValueError, match="Invalid value for argument `fill_mode`"):
            hl.ops.image.affine_transform(images, TRANSFORMS["rotation"], fill_mode="mirror")
        with pytest.raises(ValueError, match="Invalid transform shape"):
            hl.ops.image.affine_transform(images, np.zeros((3, 6), "float32"))
        with pytest.raises(ValueError, match="Invalid images rank"):
            hl.ops.image.affine_transform(images[0, 0], TRANSFORMS["rotation"])


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("op,kernel", [("rgb_to_hsv", "RGBToHSV"), ("hsv_to_rgb", "HSVToRGB")])
def test_hsv_conversions_are_one_kernel_and_agree_with_the_composite(tf, data_format, op, kernel):
    pixels = RNG.uniform(size=(2, 5, 4, 3)).astype("float32")
    pixels[0, 0, :2] = 0.25  # gray pixels: hue 0
    with hl.config.backend_scope("tensorflow"):
        for batched in (True, False):
            images = tf.constant(_layout(pixels, data_format, batched))
            got, op_types = _graph(tf, lambda x: getattr(hl.ops.image, op)(x, data_format=data_format), images)
            want = getattr(image_ops, "_" + op)(images, data_format=data_format).numpy()
            assert op_types.count(kernel) == 1 and len(op_types) < 20, op_types
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_random_rotation_in_a_tf_data_map_runs_the_kernel(tf):
    layer = hl.layers.RandomRotation(0.3, seed=3)
    traced = tf.function(lambda x: layer(x), autograph=False)
    graph = traced.get_concrete_function(tf.TensorSpec((None, 7, 9, 2))).graph
    op_types = [op.type for op in graph.get_operations()]
    assert "ImageProjectiveTransformV3" in op_types
    assert len(op_types) < 150
