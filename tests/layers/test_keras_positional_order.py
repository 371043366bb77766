"""Positional arguments in Keras's order: Conv3DTranspose (``data_format`` before ``output_padding``) and
LayerNormalization (``rms_scaling`` keyword-only, after Keras's arguments); older configs still load."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.core.keras_oracle import keras_module

X5 = np.random.default_rng(0).normal(size=(1, 2, 3, 3, 2)).astype("float32")
X2 = np.random.default_rng(1).normal(size=(2, 4)).astype("float32")


@pytest.mark.parametrize("name", ["Conv3DTranspose", "Convolution3DTranspose"])
def test_conv3d_transpose_positional_order_matches_keras(backend, name):
    keras = keras_module()
    args = (
        3,
        2,
        2,
        "valid",
        "channels_first",
        1,
    )  # filters, kernel_size, strides, padding, data_format, output_padding
    ours = getattr(layers, name)(*args)
    theirs = getattr(keras.layers, name)(*args)
    assert ours.data_format == "channels_first" and ours.output_padding == (1, 1, 1)
    out = ours(X5)  # channels_first: spatial (3, 3, 2), each size n becomes (n-1)*2 + 2 + 1
    assert tuple(hl.ops.shape(out)) == tuple(theirs(X5).shape) == (1, 3, 7, 7, 5)


def test_conv3d_transpose_config_still_loads(backend):
    config = layers.Conv3DTranspose(2, 3, strides=2, output_padding=1).get_config()
    clone = layers.Conv3DTranspose.from_config(config)
    assert clone.output_padding == (1, 1, 1) and clone.data_format == "channels_last"


def test_layer_normalization_positional_order_matches_keras(backend):
    keras = keras_module()
    # axis, epsilon, center, scale, beta_initializer, gamma_initializer: Keras's positions
    args = (-1, 1e-3, True, True, "ones", "zeros")
    ours = layers.LayerNormalization(*args)
    theirs = keras.layers.LayerNormalization(*args)
    out = hl.ops.convert_to_numpy(ours(X2))
    np.testing.assert_allclose(out, np.asarray(theirs(X2)), atol=1e-5)
    np.testing.assert_allclose(out, np.ones_like(X2))  # gamma 0, beta 1
    assert ours.rms_scaling is False


def test_layer_normalization_rms_scaling_is_keyword_only(backend):
    with pytest.raises(ValueError, match="initializer"):
        layers.LayerNormalization(-1, 1e-3, True, True, True)  # the 5th position is beta_initializer now
    # an older config (rms_scaling stored by name) loads and keeps it
    with pytest.warns(UserWarning, match="rms_scaling"):
        config = layers.LayerNormalization(rms_scaling=True).get_config()
    with pytest.warns(UserWarning, match="rms_scaling"):
        clone = layers.LayerNormalization.from_config(config)
    assert clone.rms_scaling is True
