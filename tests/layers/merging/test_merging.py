"""Merge layers: outputs and gradients vs Keras 3 on every backend, broadcasting, masks, configs, shapes and
the shape errors."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.core.keras_oracle import (
    assert_config_round_trip,
    assert_grads_match_keras,
    assert_matches_keras,
    assert_symbolic_shape,
    keras_module,
    to_numpy,
)

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.normal(size=shape).astype("float32")


ELEMENTWISE = ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum"]


@pytest.mark.parametrize("name", ELEMENTWISE)
@pytest.mark.parametrize("shapes", [[(2, 3, 4), (2, 3, 4)], [(2, 3, 4), (2, 1, 4)], [(2, 4), (2, 3, 4)]])
def test_elementwise_matches_keras(backend, name, shapes):
    keras = keras_module()
    inputs = [_x(*s) for s in shapes]
    layer = getattr(layers, name)()
    out = assert_matches_keras(layer, getattr(keras.layers, name)(), inputs)
    assert out.shape == layer.compute_output_shape(shapes)
    assert_grads_match_keras(getattr(layers, name)(), getattr(keras.layers, name)(), inputs)


@pytest.mark.parametrize("name", ["Add", "Multiply", "Average", "Maximum", "Minimum"])
def test_three_inputs(backend, name):
    keras = keras_module()
    inputs = [_x(2, 5) for _ in range(3)]
    assert_matches_keras(getattr(layers, name)(), getattr(keras.layers, name)(), inputs)
    fn = getattr(layers, name.lower())
    np.testing.assert_allclose(
        to_numpy(fn([hl.ops.convert_to_tensor(v) for v in inputs])),
        to_numpy(getattr(layers, name)()(inputs)),
        atol=1e-6,
    )


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_elementwise_symbolic_and_config(backend, name):
    assert_symbolic_shape(getattr(layers, name)(), [(None, 3, 4), (None, 3, 4)])
    assert_symbolic_shape(getattr(layers, name)(), [(None, 4), (None, 3, 4)])
    layer = getattr(layers, name)(name=f"m_{name.lower()}")
    assert_config_round_trip(layer, [_x(2, 3), _x(2, 3)])


def test_subtract_takes_exactly_two(backend):
    with pytest.raises(ValueError, match="exactly 2 inputs"):
        layers.Subtract()([_x(2, 3), _x(2, 3), _x(2, 3)])
    with pytest.raises(ValueError, match="exactly 2 inputs"):
        layers.Subtract()([_x(2, 3)])


def test_shape_errors_name_both_shapes(backend):
    with pytest.raises(ValueError, match=r"incompatible shapes.*\(2, 3\).*\(2, 4\)"):
        layers.Add()([_x(2, 3), _x(2, 4)])
    with pytest.raises(ValueError, match="different batch sizes"):
        layers.Add()([_x(2, 3), _x(5, 3)])
    with pytest.raises(ValueError, match="list of inputs"):
        layers.Add()(_x(2, 3))
    with pytest.raises(ValueError, match=r"incompatible shapes"):
        layers.Maximum().compute_output_shape([(None, 3), (None, 5)])


def _keras_masked(x, mask):
    """A TensorFlow tensor carrying a Keras mask (how Keras passes masks to merge layers)."""
    import tensorflow as tf
    from keras.src.backend import set_keras_mask

    t = tf.constant(x)
    set_keras_mask(t, tf.constant(mask))
    return t


def test_masked_merges_match_keras(backend):
    """Masks arrive as a list; Maximum/Minimum ignore masked entries, Multiply treats them as 1."""
    keras = keras_module()
    a, b = _x(2, 3, 4), _x(2, 3, 4)
    ma = np.array([[True, False, True], [False, False, True]])
    mb = np.array([[True, True, False], [False, True, True]])
    for name in ["Maximum", "Minimum", "Multiply", "Add"]:
        ours = to_numpy(
            getattr(layers, name)()(
                [hl.ops.convert_to_tensor(a), hl.ops.convert_to_tensor(b)],
                mask=[hl.ops.convert_to_tensor(ma), hl.ops.convert_to_tensor(mb)],
            )
        )
        theirs = np.asarray(getattr(keras.layers, name)()([_keras_masked(a, ma), _keras_masked(b, mb)]))
        np.testing.assert_allclose(ours, theirs, atol=1e-6, err_msg=name)
        mask = getattr(layers, name)().compute_mask(
            [a, b], [hl.ops.convert_to_tensor(ma), hl.ops.convert_to_tensor(mb)]
        )
        np.testing.assert_array_equal(to_numpy(mask), ma | mb)
    assert layers.Add().compute_mask([a, b], [hl.ops.convert_to_tensor(ma), None]) is None


@pytest.mark.parametrize(
    "axis,shapes", [(-1, [(2, 3, 4), (2, 3, 2)]), (1, [(2, 3, 4), (2, 1, 4), (2, 2, 4)]), (0, [(2, 3), (1, 3)])]
)
def test_concatenate_matches_keras(backend, axis, shapes):
    keras = keras_module()
    inputs = [_x(*s) for s in shapes]
    layer = layers.Concatenate(axis=axis)
    out = assert_matches_keras(layer, keras.layers.Concatenate(axis=axis), inputs)
    assert out.shape == layer.compute_output_shape(shapes)
    assert_grads_match_keras(layers.Concatenate(axis=axis), keras.layers.Concatenate(axis=axis), inputs)


def test_concatenate_symbolic_config_mask_errors(backend):
    out = assert_symbolic_shape(layers.Concatenate(axis=1), [(None, 2, 5), (None, 3, 5)])
    assert out.shape == (None, 5, 5)
    assert layers.Concatenate().compute_output_shape([(None, 2, None), (None, 2, 3)]) == (None, 2, None)
    layer = layers.Concatenate(axis=1, name="cat")
    assert layer.get_config()["axis"] == 1
    assert_config_round_trip(layer, [_x(2, 3), _x(2, 2)])
    keras = keras_module()
    a, b = _x(2, 3, 4), _x(2, 3, 2)
    ma = np.array([[True, False, True], [False, False, True]])
    ours = layers.Concatenate().compute_mask([a, b], [hl.ops.convert_to_tensor(ma), None])
    theirs = keras.layers.Concatenate().compute_mask([a, b], [ma, None])
    np.testing.assert_array_equal(to_numpy(ours), np.asarray(theirs))
    with pytest.raises(ValueError, match=r"matching shapes except for the concatenation.*\(2, 3, 1\).*\(2, 4, 2\)"):
        layers.Concatenate(axis=1)([_x(2, 3, 1), _x(2, 4, 2)])
    with pytest.raises(ValueError, match="different ranks"):
        layers.Concatenate()([_x(2, 3), _x(2, 3, 1)])


DOT_CASES = [
    ((1, 2), [(2, 3, 5), (2, 10, 3)], False),
    (1, [(4, 5), (4, 5)], False),
    (-1, [(4, 5), (4, 5)], True),
    ((2, 1), [(2, 3, 4), (2, 4)], False),
    ((1, 1), [(2, 4), (2, 4, 3)], True),
    ((2, 2), [(2, 3, 4), (2, 5, 4)], True),
    ((3, 1), [(2, 2, 3, 4), (2, 4, 5)], False),
]


@pytest.mark.parametrize("axes,shapes,normalize", DOT_CASES)
def test_dot_matches_keras(backend, axes, shapes, normalize):
    keras = keras_module()
    inputs = [_x(*s) for s in shapes]
    layer = layers.Dot(axes=axes, normalize=normalize)
    out = assert_matches_keras(layer, keras.layers.Dot(axes=axes, normalize=normalize), inputs)
    assert out.shape == layer.compute_output_shape(shapes)
    assert_grads_match_keras(
        layers.Dot(axes=axes, normalize=normalize), keras.layers.Dot(axes=axes, normalize=normalize), inputs
    )


def test_dot_symbolic_config_errors(backend):
    out = assert_symbolic_shape(layers.Dot(axes=(1, 2)), [(None, 3, 5), (None, 10, 3)])
    assert out.shape == (None, 5, 10)
    layer = layers.Dot(axes=(1, 2), normalize=True, name="dot")
    assert layer.get_config()["axes"] == (1, 2) and layer.get_config()["normalize"] is True
    assert_config_round_trip(layer, [_x(2, 3, 5), _x(2, 10, 3)])
    assert layers.Dot(axes=1).compute_mask([_x(2, 3)] * 2, [None, None]) is None
    with pytest.raises(ValueError, match=r"Incompatible input shapes.*\(2, 3\), \(2, 4\)"):
        layers.Dot(axes=1)([_x(2, 3), _x(2, 4)])
    with pytest.raises(ValueError, match="exactly 2 inputs"):
        layers.Dot(axes=1)([_x(2, 3)] * 3)
    with pytest.raises(ValueError, match="batch axis 0"):
        layers.Dot(axes=0)([_x(2, 3), _x(2, 3)])
    with pytest.raises(ValueError, match="pair of ints"):
        layers.Dot(axes=(1, 2, 3))
    with pytest.raises(TypeError, match="axes"):
        layers.Dot(axes="1")
