"""The shared ``run_layer_test`` checks for every pooling layer, on every backend, plus argument checks,
configs and symbolic shapes."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

CF = "channels_first"

CASES = [
    (layers.MaxPooling1D, {}, (2, 5, 3), (2, 2, 3)),
    (layers.MaxPooling2D, {"padding": "same", "data_format": CF}, (1, 2, 5, 3), (1, 2, 3, 2)),
    (layers.MaxPooling3D, {"pool_size": (1, 2, 2), "strides": 1}, (1, 2, 3, 3, 2), (1, 2, 2, 2, 2)),
    (layers.AveragePooling1D, {"pool_size": 3, "strides": 2, "padding": "same"}, (2, 5, 3), (2, 3, 3)),
    (layers.AveragePooling2D, {"pool_size": 2}, (1, 4, 5, 2), (1, 2, 2, 2)),
    (layers.AveragePooling3D, {"pool_size": 2, "data_format": CF}, (1, 2, 4, 2, 2), (1, 2, 2, 1, 1)),
    (layers.GlobalMaxPooling1D, {"keepdims": True}, (2, 5, 3), (2, 1, 3)),
    (layers.GlobalMaxPooling2D, {"data_format": CF}, (2, 3, 4, 5), (2, 3)),
    (layers.GlobalMaxPooling3D, {}, (2, 2, 3, 2, 4), (2, 4)),
    (layers.GlobalAveragePooling1D, {}, (2, 5, 3), (2, 3)),
    (layers.GlobalAveragePooling2D, {"keepdims": True}, (2, 3, 4, 5), (2, 1, 1, 5)),
    (layers.GlobalAveragePooling3D, {"data_format": CF, "keepdims": True}, (2, 2, 3, 2, 4), (2, 2, 1, 1, 1)),
]


@pytest.mark.parametrize(
    "cls,kwargs,input_shape,output_shape", CASES, ids=lambda v: v.__name__ if isinstance(v, type) else None
)
def test_run_layer_test(backend, cls, kwargs, input_shape, output_shape):
    run_layer_test(
        cls,
        kwargs,
        input_shape=input_shape,
        expected_output_shape=output_shape,
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
    )


def test_defaults_and_configs_match_keras():
    import keras

    for name, args in [
        ("MaxPooling1D", ()),
        ("MaxPooling2D", ()),
        ("MaxPooling3D", ()),
        ("AveragePooling1D", (3,)),
        ("AveragePooling2D", (2,)),
        ("AveragePooling3D", ((1, 2, 2),)),
        ("GlobalMaxPooling1D", ()),
        ("GlobalAveragePooling2D", ()),
        ("GlobalMaxPooling3D", ()),
    ]:
        ours = getattr(layers, name)(*args).get_config()
        theirs = getattr(keras.layers, name)(*args).get_config()
        for key, value in ours.items():
            if key not in ("name", "dtype", "trainable"):
                assert value == theirs[key], (name, key, value, theirs[key])
    layer = layers.MaxPooling2D(3, strides=(1, 2), padding="SAME", data_format=CF, name="p")
    config = layer.get_config()
    assert config["pool_size"] == (3, 3) and config["strides"] == (1, 2) and config["padding"] == "same"
    assert layers.MaxPooling2D.from_config(config).get_config() == config
    assert hl.layers.deserialize(hl.layers.serialize(layer)).get_config() == config
    assert layers.MaxPool2D is layers.MaxPooling2D and layers.GlobalAvgPool1D is layers.GlobalAveragePooling1D


def test_shapes_with_unknown_sizes(backend):
    assert layers.MaxPooling2D(3, 2).compute_output_shape((None, None, 7, 2)) == (None, None, 3, 2)
    assert layers.AveragePooling1D(2, padding="same").compute_output_shape((None, 5, 2)) == (None, 3, 2)
    out = layers.MaxPooling2D()(hl.Input(shape=(None, 6, 3)))
    assert out.shape == (None, None, 3, 3)
    out = layers.GlobalAveragePooling2D(keepdims=True)(hl.Input(shape=(None, None, 3)))
    assert out.shape == (None, 1, 1, 3)


def test_bad_arguments_and_inputs(backend):
    with pytest.raises(ValueError, match="pool_size"):
        layers.MaxPooling2D((2, 2, 2))
    with pytest.raises(ValueError, match="pool_size"):
        layers.AveragePooling1D(0)
    with pytest.raises(TypeError, match="pool_size"):
        layers.AveragePooling2D()  # required in Keras 3
    with pytest.raises(ValueError, match="padding"):
        layers.MaxPooling1D(padding="causal")
    with pytest.raises(ValueError, match="data_format"):
        layers.GlobalMaxPooling2D(data_format="nhwc")
    with pytest.raises(ValueError, match="expected ndim=4, found ndim=3"):
        layers.MaxPooling2D()(np.zeros((1, 4, 4), "float32"))
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=4"):
        layers.GlobalAveragePooling1D()(np.zeros((1, 4, 4, 1), "float32"))
    with pytest.raises(ValueError, match="output would have size 0"):
        layers.MaxPooling2D(3).compute_output_shape((1, 2, 5, 1))
