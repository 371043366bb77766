"""Convolution layers: Keras defaults and argument checks, weight names and shapes, configs, symbolic shapes
with unknown sizes, and the error messages for bad inputs."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers

CONV = [layers.Conv1D, layers.Conv2D, layers.Conv3D]
TRANSPOSE = [layers.Conv1DTranspose, layers.Conv2DTranspose, layers.Conv3DTranspose]


def test_defaults_match_keras():
    import keras

    for name in [
        "Conv1D",
        "Conv2D",
        "Conv3D",
        "Conv1DTranspose",
        "Conv2DTranspose",
        "Conv3DTranspose",
        "SeparableConv1D",
        "SeparableConv2D",
    ]:
        ours, theirs = getattr(layers, name)(4, 2).get_config(), getattr(keras.layers, name)(4, 2).get_config()
        for key, value in ours.items():
            if key in ("name", "dtype", "trainable"):
                continue
            want = theirs[key]
            if isinstance(value, dict):  # serialized initializers: same class name
                assert value["class_name"] == want["class_name"], (name, key)
            else:
                assert value == want, (name, key, value, want)
    for name in ["DepthwiseConv1D", "DepthwiseConv2D"]:
        ours, theirs = getattr(layers, name)(3).get_config(), getattr(keras.layers, name)(3).get_config()
        for key in (
            "kernel_size",
            "strides",
            "padding",
            "depth_multiplier",
            "data_format",
            "dilation_rate",
            "use_bias",
            "activation",
        ):
            assert ours[key] == theirs[key], (name, key)


@pytest.mark.parametrize("cls,rank", [(layers.Conv1D, 1), (layers.Conv2D, 2), (layers.Conv3D, 3)])
def test_conv_weights_and_symbolic_shapes(backend, cls, rank):
    layer = cls(6, 2, groups=3)
    out = layer(hl.Input(shape=(None,) * rank + (3,)))
    assert out.shape == (None,) * (rank + 1) + (6,)
    assert [w.path.split("/")[-1] for w in layer.weights] == ["kernel", "bias"]
    assert tuple(layer.kernel.shape) == (2,) * rank + (1, 6)
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3"):
        layer(np.zeros((1,) + (4,) * rank + (2,), "float32"))


def test_transpose_and_depthwise_weights(backend):
    t = layers.Conv2DTranspose(5, (2, 3))
    t(np.zeros((1, 3, 3, 4), "float32"))
    assert tuple(t.kernel.shape) == (2, 3, 5, 4)
    d = layers.DepthwiseConv2D(3, depth_multiplier=2)
    d(np.zeros((1, 4, 4, 3), "float32"))
    assert [w.path.split("/")[-1] for w in d.weights] == ["kernel", "bias"]
    assert tuple(d.kernel.shape) == (3, 3, 3, 2) and tuple(d.bias.shape) == (6,)
    s = layers.SeparableConv1D(4, 3, depth_multiplier=2)
    s(np.zeros((1, 5, 3), "float32"))
    assert [tuple(w.shape) for w in s.weights] == [(3, 3, 2), (1, 6, 4), (4,)]


def test_output_shapes_with_unknown_sizes():
    assert layers.Conv2D(2, 3, strides=2).compute_output_shape((None, None, 7, 3)) == (None, None, 3, 2)
    assert layers.Conv1D(2, 3, padding="causal", dilation_rate=4).compute_output_shape((None, 9, 1)) == (None, 9, 2)
    assert layers.Conv2DTranspose(2, 3, strides=2).compute_output_shape((None, 4, None, 1)) == (None, 9, None, 2)
    assert layers.Conv2DTranspose(2, 3, strides=2, padding="same").compute_output_shape((1, 4, 5, 1)) == (1, 8, 10, 2)
    assert layers.Conv1DTranspose(2, 3, strides=3, output_padding=2).compute_output_shape((1, 4, 1)) == (1, 14, 2)
    assert layers.DepthwiseConv1D(3, depth_multiplier=3, data_format="channels_first").compute_output_shape(
        (None, 2, 8)
    ) == (None, 6, 6)


@pytest.mark.parametrize(
    "make,message",
    [
        (lambda: layers.Conv2D(0, 3), "positive integer. Received: filters=0"),
        (lambda: layers.Conv2D(3, 3, groups=2), "evenly divisible by the number of groups"),
        (lambda: layers.Conv2D(4, 3, groups=0), "Received: groups=0"),
        (lambda: layers.Conv2D(4, (3, 3, 3)), "kernel_size"),
        (lambda: layers.Conv2D(4, 0), "kernel_size"),
        (lambda: layers.Conv1D(4, 3, strides=2, dilation_rate=2), "dilation_rate > 1"),
        (lambda: layers.Conv2D(4, 3, padding="causal"), "padding"),
        (lambda: layers.Conv2D(4, 3, padding="full"), "padding"),
        (lambda: layers.Conv2D(4, 3, data_format="channels_middle"), "data_format"),
        (lambda: layers.Conv2DTranspose(4, 3, strides=2, output_padding=2), "output_padding"),
        (lambda: layers.DepthwiseConv2D(3, depth_multiplier=0), "depth_multiplier"),
        (lambda: layers.SeparableConv2D(-1, 3), "filters"),
    ],
)
def test_bad_arguments(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_bad_inputs(backend):
    with pytest.raises(ValueError, match="expected ndim=4, found ndim=3"):
        layers.Conv2D(2, 3)(np.zeros((1, 4, 4), "float32"))
    with pytest.raises(ValueError, match="output would have size"):
        layers.Conv2D(2, 5)(np.zeros((1, 3, 3, 1), "float32"))
    with pytest.raises(ValueError, match="groups"):
        layers.Conv1D(4, 2, groups=2)(np.zeros((1, 5, 3), "float32"))
    with pytest.raises(ValueError, match="channel"):
        layers.Conv2D(2, 3)(hl.Input(shape=(5, 5, None)))


@pytest.mark.parametrize(
    "layer",
    [
        lambda: layers.Conv2D(
            4,
            (2, 3),
            strides=(2, 1),
            padding="same",
            data_format="channels_first",
            groups=2,
            activation="relu",
            use_bias=False,
            kernel_initializer="he_normal",
            kernel_regularizer=hl.regularizers.L2(0.1),
            activity_regularizer="l1",
            kernel_constraint="max_norm",
            name="c",
        ),
        lambda: layers.Conv1D(
            2, 3, padding="causal", dilation_rate=2, bias_initializer="ones", bias_constraint="non_neg"
        ),
        lambda: layers.Conv3DTranspose(2, 2, strides=2, output_padding=(1, 0, 1), bias_regularizer="l2"),
        lambda: layers.DepthwiseConv2D(
            3,
            depth_multiplier=2,
            depthwise_regularizer="l1",
            depthwise_constraint="unit_norm",
            depthwise_initializer="zeros",
        ),
        lambda: layers.SeparableConv1D(
            3,
            2,
            pointwise_initializer="ones",
            pointwise_regularizer="l2",
            pointwise_constraint="non_neg",
            depthwise_initializer="he_uniform",
        ),
    ],
)
def test_config_round_trip(layer):
    made = layer()
    config = made.get_config()
    again = type(made).from_config(config)
    assert again.get_config() == config
    assert hl.layers.deserialize(hl.layers.serialize(made)).get_config() == config


def test_regularizer_losses_and_aliases(backend):
    layer = layers.Conv2D(2, 2, kernel_regularizer="l2", bias_regularizer="l1", activity_regularizer="l2")
    layer(np.ones((1, 3, 3, 1), "float32"))
    assert len(layer.losses) == 3
    assert layers.Convolution2D is layers.Conv2D and layers.SeparableConvolution1D is layers.SeparableConv1D
