"""ZeroPadding, Cropping and UpSampling (1D/2D/3D) against real Keras 3 on every backend (outputs and input
gradients), over symmetric and asymmetric amounts, channels_first, and UpSampling2D's interpolations."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.convolutional.keras_reference import assert_matches_keras

CF = "channels_first"

CASES = [
    ("ZeroPadding1D", {}, (2, 3, 2)),
    ("ZeroPadding1D", {"padding": (1, 2), "data_format": CF}, (1, 3, 4)),
    ("ZeroPadding2D", {"padding": ((1, 0), (2, 3))}, (1, 3, 4, 2)),
    ("ZeroPadding2D", {"padding": (2, 1), "data_format": CF}, (1, 2, 3, 3)),
    ("ZeroPadding3D", {"padding": 1}, (1, 2, 2, 2, 2)),
    ("ZeroPadding3D", {"padding": ((0, 1), 2, (1, 0)), "data_format": CF}, (1, 2, 2, 3, 2)),
    ("Cropping1D", {}, (2, 5, 2)),
    ("Cropping1D", {"cropping": (0, 2)}, (1, 5, 3)),
    ("Cropping2D", {"cropping": ((1, 0), (0, 2))}, (1, 4, 5, 2)),
    ("Cropping2D", {"cropping": 1, "data_format": CF}, (1, 2, 4, 5)),
    ("Cropping3D", {}, (1, 4, 4, 4, 2)),
    ("Cropping3D", {"cropping": ((0, 1), 1, (2, 0)), "data_format": CF}, (1, 2, 3, 4, 4)),
    ("UpSampling1D", {}, (2, 3, 2)),
    ("UpSampling1D", {"size": 3}, (1, 2, 2)),
    ("UpSampling2D", {"size": (2, 3)}, (1, 3, 2, 2)),
    ("UpSampling2D", {"size": 2, "data_format": CF}, (1, 2, 2, 3)),
    ("UpSampling2D", {"size": (2, 3), "interpolation": "bilinear"}, (1, 3, 4, 2)),
    ("UpSampling2D", {"size": 2, "interpolation": "bilinear", "data_format": CF}, (1, 2, 3, 4)),
    ("UpSampling2D", {"size": (3, 2), "interpolation": "bicubic"}, (1, 3, 4, 1)),
    ("UpSampling3D", {}, (1, 2, 2, 2, 2)),
    ("UpSampling3D", {"size": (1, 2, 3), "data_format": CF}, (1, 2, 2, 2, 2)),
]


def _id(case):
    name, kwargs, _ = case
    return name + "-" + "-".join(f"{k}={v}" for k, v in kwargs.items()).replace(" ", "")


@pytest.mark.parametrize("name,kwargs,shape", CASES, ids=[_id(c) for c in CASES])
def test_matches_keras(backend, name, kwargs, shape):
    layer, out = assert_matches_keras(name, kwargs, shape, atol=1e-5)
    assert out.shape == layer.compute_output_shape(shape)


def test_defaults_and_configs_match_keras():
    import keras

    for name in [
        "ZeroPadding1D",
        "ZeroPadding2D",
        "ZeroPadding3D",
        "Cropping1D",
        "Cropping2D",
        "Cropping3D",
        "UpSampling1D",
        "UpSampling2D",
        "UpSampling3D",
    ]:
        ours, theirs = getattr(layers, name)().get_config(), getattr(keras.layers, name)().get_config()
        assert set(ours) - {"trainable", "dtype", "name"} == set(theirs) - {"trainable", "dtype", "name"}, name
        for key, value in ours.items():
            if key not in ("name", "dtype", "trainable"):
                assert value == theirs[key], (name, key, value, theirs[key])
    for name, kwargs in [
        ("ZeroPadding2D", {"padding": (1, 2)}),
        ("Cropping3D", {"cropping": (1, (0, 2), 3)}),
        ("ZeroPadding1D", {"padding": 3}),
        ("UpSampling2D", {"size": 3, "interpolation": "BILINEAR"}),
    ]:
        ours = getattr(layers, name)(**kwargs).get_config()
        theirs = getattr(keras.layers, name)(**kwargs).get_config()
        assert {k: ours[k] for k in kwargs} == {k: theirs[k] for k in kwargs}, name


@pytest.mark.parametrize(
    "layer",
    [
        lambda: layers.ZeroPadding2D(((1, 2), (3, 4)), data_format=CF, name="z"),
        lambda: layers.Cropping1D((2, 1)),
        lambda: layers.Cropping3D(2, data_format=CF),
        lambda: layers.UpSampling2D((2, 1), interpolation="bilinear"),
        lambda: layers.UpSampling1D(4),
    ],
)
def test_config_round_trip(layer):
    made = layer()
    config = made.get_config()
    assert type(made).from_config(config).get_config() == config
    assert hl.layers.deserialize(hl.layers.serialize(made)).get_config() == config


def test_symbolic_shapes_with_unknown_sizes(backend):
    assert layers.Cropping2D(((3, 3), (1, 0)))(hl.Input(shape=(None, 5, 2))).shape == (None, None, 4, 2)
    assert layers.ZeroPadding2D(2)(hl.Input(shape=(None, 5, 2))).shape == (None, None, 9, 2)
    assert layers.UpSampling3D(2)(hl.Input(shape=(None, 2, 3, 1))).shape == (None, None, 4, 6, 1)
    model = hl.Model(*(lambda i: (i, layers.Cropping1D((2, 3))(i)))(hl.Input(shape=(None, 2))))
    out = model(np.arange(24, dtype="float32").reshape(1, 12, 2))
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(out), np.arange(24).reshape(1, 12, 2)[:, 2:9])


def test_integer_inputs_keep_their_dtype(backend):
    x = np.arange(8, dtype="int32").reshape(1, 2, 2, 2)
    for layer in [layers.ZeroPadding2D(), layers.Cropping2D(((1, 0), (0, 0))), layers.UpSampling2D()]:
        assert hl.ops.dtype(layer(x)) == "int32"
        assert layer(hl.Input(batch_shape=(1, 2, 2, 2), dtype="int32")).dtype == "int32"


def test_bad_arguments_and_inputs(backend):
    with pytest.raises(ValueError, match="padding"):
        layers.ZeroPadding2D((1, 2, 3))
    with pytest.raises(ValueError, match="padding"):
        layers.ZeroPadding1D(-1)
    with pytest.raises(ValueError, match="cropping"):
        layers.Cropping2D(-1)
    with pytest.raises(ValueError, match="2nd entry of cropping"):
        layers.Cropping3D((1, (1, 2, 3), 1))
    with pytest.raises(TypeError, match="integer value for `size`"):
        layers.UpSampling1D(2.0)
    with pytest.raises(ValueError, match="positive integer. Received: size=0"):
        layers.UpSampling1D(0)
    with pytest.raises(ValueError, match="interpolation"):
        layers.UpSampling2D(interpolation="area")
    with pytest.raises(ValueError, match="must be smaller than the input"):
        layers.Cropping2D(((2, 2), (0, 0)))(np.zeros((1, 4, 4, 1), "float32"))
    with pytest.raises(ValueError, match="expected ndim=5, found ndim=4"):
        layers.UpSampling3D()(np.zeros((1, 2, 2, 2), "float32"))
