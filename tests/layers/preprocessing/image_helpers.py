"""Shared pieces of the image preprocessing layer tests: sample images and the Keras 3 oracle."""

import keras
import numpy as np

import highlevel as hl

#: A batch of 3 channels-last 6x8 images with 2 channels, values in [0, 255).
IMAGES = (np.random.default_rng(0).random((3, 6, 8, 2)) * 255).astype("float32")


def images(data_format="channels_last", batched=True):
    x = IMAGES if data_format == "channels_last" else np.transpose(IMAGES, (0, 3, 1, 2))
    return x if batched else x[0]


def to_numpy(x):
    return np.asarray(hl.ops.convert_to_numpy(x))


def keras_output(cls_name, kwargs, x, **call_kwargs):
    """The output of the real Keras 3 layer (TensorFlow backend) on ``x``."""
    layer = getattr(keras.layers, cls_name)(**kwargs)
    return np.asarray(keras.ops.convert_to_numpy(layer(x, **call_kwargs)))


def ours(cls_name, kwargs, x, **call_kwargs):
    return to_numpy(getattr(hl.layers, cls_name)(**kwargs)(hl.ops.convert_to_tensor(x), **call_kwargs))


def check_random_layer_basics(cls_name, kwargs, changes=True):
    """Inference is the identity; training keeps the shape and (if ``changes``) changes the images; the same
    seed gives the same output on this backend; a second call draws anew; unbatched images work."""
    x = images()
    np.testing.assert_array_equal(ours(cls_name, dict(kwargs, seed=3), x, training=False), x)
    layer = getattr(hl.layers, cls_name)(seed=3, **kwargs)
    first = to_numpy(layer(hl.ops.convert_to_tensor(x), training=True))
    assert first.shape == x.shape and first.dtype == np.float32
    assert np.all(np.isfinite(first))
    again = ours(cls_name, dict(kwargs, seed=3), x, training=True)
    np.testing.assert_array_equal(first, again, err_msg="same seed, different output")
    if changes:
        assert not np.allclose(first, x), "training did not change the images"
        second = to_numpy(layer(hl.ops.convert_to_tensor(x), training=True))
        assert not np.array_equal(first, second), "two training calls drew the same transform"
    single = ours(cls_name, dict(kwargs, seed=3), x[0], training=True)
    assert single.shape == x[0].shape
    return first
