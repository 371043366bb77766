"""Method arguments named as in Keras: ``Layer.compute_mask(inputs, previous_mask)``, ``Dense.call(inputs,
training)``, ``Sequential.compute_output_spec(inputs, training, mask)``, the optimizers' ``build`` argument."""

import inspect

import numpy as np
import pytest

import highlevel as hl
from tests.layers.core.keras_oracle import keras_module


def test_compute_mask_takes_previous_mask_by_name(backend):
    x = hl.ops.ones((2, 3, 4))
    mask = hl.ops.convert_to_tensor(np.array([[True, True, False], [True, False, False]]))
    passing = hl.layers.Layer()
    passing.supports_masking = True
    got = passing.compute_mask(x, previous_mask=mask)
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(got), hl.ops.convert_to_numpy(mask))
    assert hl.layers.Layer().compute_mask(x, previous_mask=mask) is None  # not supports_masking: dropped
    # the mask still flows through layers (the framework passes it by position)
    inputs = hl.Input((3,), dtype="int32")
    embedded = hl.layers.Embedding(5, 2, mask_zero=True)(inputs)
    model = hl.Model(inputs, hl.layers.LSTM(2, return_sequences=True)(embedded))
    out = hl.ops.convert_to_numpy(model(np.array([[1, 2, 0]])))
    np.testing.assert_allclose(out[0, 2], out[0, 1])  # the masked step repeats the previous output


@pytest.mark.parametrize("name", ["Layer", "MultiHeadAttention", "GroupQueryAttention"])
def test_compute_mask_argument_is_named_as_in_keras(name):
    keras = keras_module()
    ours = list(inspect.signature(getattr(hl.layers, name).compute_mask).parameters)
    theirs = list(inspect.signature(getattr(keras.layers, name).compute_mask).parameters)
    assert ours == theirs == ["self", "inputs", "previous_mask"]


def test_attention_keeps_the_query_mask_given_by_name(backend):
    query_mask = hl.ops.convert_to_tensor(np.array([[True, False]]))
    layer = hl.layers.MultiHeadAttention(2, 2)
    got = layer.compute_mask([hl.ops.ones((1, 2, 4))] * 2, previous_mask=[query_mask, None])
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(got), [[True, False]])


class _ShiftedInTraining(hl.layers.Dense):
    """A Dense subclass that hands ``training`` to ``Dense.call`` (as a Keras subclass may)."""

    def call(self, inputs, training=None):
        out = super().call(inputs, training=training)
        return out + 1.0 if training else out


def test_dense_call_takes_training(backend):
    assert list(inspect.signature(hl.layers.Dense.call).parameters) == ["self", "inputs", "training"]
    layer = _ShiftedInTraining(2, kernel_initializer="ones")
    x = np.ones((1, 3), "float32")
    np.testing.assert_allclose(hl.ops.convert_to_numpy(layer(x, training=False)), [[3.0, 3.0]])
    np.testing.assert_allclose(hl.ops.convert_to_numpy(layer(x, training=True)), [[4.0, 4.0]])
    np.testing.assert_allclose(
        hl.ops.convert_to_numpy(hl.layers.Dense(2, "relu", kernel_initializer="ones")(x, training=True)), [[3.0, 3.0]]
    )


def test_sequential_compute_output_spec_takes_training_and_mask(backend):
    keras = keras_module()
    ours = hl.Sequential([hl.layers.Dense(4), hl.layers.Dropout(0.5), hl.layers.Dense(2)])
    theirs = keras.Sequential([keras.layers.Dense(4), keras.layers.Dropout(0.5), keras.layers.Dense(2)])
    spec = ours.compute_output_spec(hl.KerasTensor((None, 3)), training=True, mask=None)
    kspec = theirs.compute_output_spec(keras.KerasTensor((None, 3)), training=True, mask=None)
    assert spec.shape == tuple(kspec.shape) == (None, 2)
    assert list(inspect.signature(hl.Sequential.compute_output_spec).parameters)[1:] == ["inputs", "training", "mask"]


OPTIMIZERS = [
    "Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "Ftrl", "Lamb", "Lion",
    "LossScaleOptimizer", "Muon", "Nadam", "RMSprop", "SGD",
]  # fmt: skip


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_optimizer_build_argument_is_named_as_in_keras(name):
    keras = keras_module()
    ours = list(inspect.signature(getattr(hl.optimizers, name).build).parameters)
    theirs = list(inspect.signature(getattr(keras.optimizers, name).build).parameters)
    assert ours == theirs


def test_build_by_keyword_creates_the_slots(backend):
    w = hl.Variable(np.ones(3, "float32"))
    adam = hl.optimizers.Adam()
    adam.build(var_list=[w])
    assert len(adam.momentums) == 1 and adam.momentums[0].shape == (3,)
    sgd = hl.optimizers.SGD(0.5, momentum=0.9)
    sgd.build(variables=[w])  # Keras's SGD keeps the base class's name
    sgd.apply([hl.ops.ones((3,))], [w])
    np.testing.assert_allclose(w.numpy(), [0.5, 0.5, 0.5])
