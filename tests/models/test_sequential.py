"""Sequential models: built from hl.Input, from a first layer's input_shape or on the first call; add and
pop; the same numbers as calling the layers one after another. Every test runs on every backend."""

import numpy as np
import pytest

import highlevel as hl

L = hl.layers


def _np(x):
    return np.asarray(hl.ops.convert_to_numpy(x))


def _x(*shape, seed=0):
    return np.random.default_rng(seed).normal(size=shape).astype("float32")


def _composed(layers, x):
    for layer in layers:
        x = layer(x)
    return _np(x)


def test_built_from_input(backend):
    model = hl.Sequential([hl.Input((3,)), L.Dense(4, activation="relu"), L.Dense(2)])
    assert model.built
    assert model.input_shape == (None, 3) and model.output_shape == (None, 2)
    assert [type(l).__name__ for l in model.layers] == ["Dense", "Dense"]
    assert len(model.weights) == 4 and len(model.trainable_weights) == 4
    assert model.count_params() == 3 * 4 + 4 + 4 * 2 + 2
    assert len(model.inputs) == 1 and model.inputs[0].shape == (None, 3)
    assert model.outputs[0].shape == (None, 2)
    x = _x(5, 3)
    np.testing.assert_allclose(_np(model(x)), _composed(model.layers, x), rtol=1e-6, atol=1e-6)


def test_built_from_input_shape_kwarg(backend):
    model = hl.Sequential([L.Dense(4, input_shape=(3,)), L.Dense(2)])
    assert model.built and model.input_shape == (None, 3) and model.output_shape == (None, 2)
    assert len(model.weights) == 4
    assert model(_x(2, 3)).shape == (2, 2)


def test_built_on_first_call(backend):
    model = hl.Sequential([L.Dense(4), L.BatchNormalization(), L.Dense(2)])
    assert not model.built and model.weights == []
    x = _x(6, 3)
    y = model(x)
    assert model.built and y.shape == (6, 2)
    assert len(model.trainable_weights) == 6 and len(model.non_trainable_weights) == 2
    np.testing.assert_allclose(_np(model(x)), _composed(model.layers, x), rtol=1e-6, atol=1e-6)


def test_build_method(backend):
    model = hl.Sequential([L.Dense(4), L.Dense(2)])
    model.build((None, 7))
    assert model.built and model.layers[0].kernel.shape == (7, 4)
    assert model.output_shape == (None, 2)


def test_add_and_pop(backend):
    model = hl.Sequential()
    assert not model.built and model.layers == []
    model.add(hl.Input((3,)))
    model.add(L.Dense(5, name="first"))
    assert model.built and model.output_shape == (None, 5)
    model.add(L.Dense(2, name="second"))
    assert model.output_shape == (None, 2) and [l.name for l in model.layers] == ["first", "second"]
    assert model(_x(4, 3)).shape == (4, 2)
    popped = model.pop()
    assert popped.name == "second" and [l.name for l in model.layers] == ["first"]
    assert model.output_shape == (None, 5) and model(_x(4, 3)).shape == (4, 5)
    assert len(model.weights) == 2
    model.pop()
    with pytest.raises(ValueError, match="no layers to pop"):
        model.pop()


def test_add_rejects_non_layers(backend):
    model = hl.Sequential()
    with pytest.raises(TypeError, match="takes a layer"):
        model.add("dense")
    model.add(L.Dense(2))
    with pytest.raises(ValueError, match="InputLayer can only be the first layer"):
        model.add(hl.Input((3,)))


def test_functional_use_of_a_sequential(backend):
    inner = hl.Sequential([hl.Input((3,)), L.Dense(4), L.Dense(2)])
    x = hl.Input((3,))
    y = L.Dense(1)(inner(x))
    outer = hl.Model(x, y)
    assert inner in outer.layers
    data = _x(2, 3)
    np.testing.assert_allclose(_np(outer(data)), _np(outer.layers[-1](inner(data))), rtol=1e-6, atol=1e-6)
    assert len(outer.weights) == 6


def test_config_round_trip(backend):
    model = hl.Sequential([hl.Input((3,)), L.Dense(4, activation="tanh"), L.Dropout(0.2), L.Dense(2)])
    clone = hl.Sequential.from_config(model.get_config())
    assert [type(l).__name__ for l in clone.layers] == ["Dense", "Dropout", "Dense"]
    assert clone.built and clone.output_shape == (None, 2)
    clone.set_weights(model.get_weights())
    x = _x(3, 3)
    np.testing.assert_allclose(_np(clone(x)), _np(model(x)), rtol=1e-6, atol=1e-6)


def test_training_flag_reaches_layers(backend):
    model = hl.Sequential([hl.Input((200,)), L.Dropout(0.5, seed=1)])
    x = np.ones((4, 200), "float32")
    np.testing.assert_array_equal(_np(model(x)), x)
    np.testing.assert_array_equal(_np(model(x, training=False)), x)
    dropped = _np(model(x, training=True))
    assert (dropped == 0).any() and set(np.unique(dropped)) <= {0.0, 2.0}
