"""SimpleRNN / LSTM / GRU expose their cell's arguments as read-only properties, as Keras does."""

import pytest

from highlevel import activations, layers
from tests.layers.core.keras_oracle import keras_module

COMMON = (
    "activation",
    "use_bias",
    "kernel_initializer",
    "recurrent_initializer",
    "bias_initializer",
    "kernel_regularizer",
    "recurrent_regularizer",
    "bias_regularizer",
    "kernel_constraint",
    "recurrent_constraint",
    "bias_constraint",
    "dropout",
    "recurrent_dropout",
)
EXTRA = {
    "SimpleRNN": (),
    "LSTM": ("recurrent_activation", "unit_forget_bias"),
    "GRU": ("recurrent_activation", "reset_after"),
}


@pytest.mark.parametrize("name", list(EXTRA))
def test_rnn_layer_reads_its_cell_arguments(backend, name):
    kwargs = {"activation": "relu", "use_bias": False, "dropout": 0.25, "recurrent_dropout": 0.5}
    kwargs["kernel_regularizer"] = "l2"
    if name == "LSTM":
        kwargs["unit_forget_bias"] = False
    if name == "GRU":
        kwargs["reset_after"] = False
    layer = getattr(layers, name)(3, **kwargs)
    assert layer.activation is activations.relu
    assert layer.use_bias is False and layer.dropout == 0.25 and layer.recurrent_dropout == 0.5
    assert type(layer.kernel_regularizer).__name__ == "L2"
    for attr in COMMON + EXTRA[name]:
        assert getattr(layer, attr) is getattr(layer.cell, attr), attr
    if name == "LSTM":
        assert layer.unit_forget_bias is False
    if name == "GRU":
        assert layer.reset_after is False
    with pytest.raises(AttributeError):
        layer.dropout = 0.1


@pytest.mark.parametrize("name", list(EXTRA))
def test_rnn_layer_properties_are_keras_s(name):
    keras_cls = getattr(keras_module().layers, name)
    ours = getattr(layers, name)
    keras_props = {k for k in dir(keras_cls) if isinstance(getattr(keras_cls, k, None), property)}
    for attr in COMMON + EXTRA[name]:
        assert attr in keras_props, attr
        assert isinstance(getattr(ours, attr), property), attr
