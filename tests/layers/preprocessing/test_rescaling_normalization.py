"""Rescaling and Normalization vs Keras 3: outputs, adapt (arrays, tensors, iterables of batches, exact
streaming statistics), invert, weights saved with the layer, configs and argument checks."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers

from ..core.keras_oracle import (
    assert_config_round_trip,
    assert_matches_keras,
    assert_symbolic_shape,
    keras_module,
    to_numpy,
)

RNG = np.random.default_rng(3)


def _x(*shape, loc=3.0, scale=5.0):
    return (RNG.normal(size=shape) * scale + loc).astype("float32")


# --------------------------------------------------------------------------- Rescaling
@pytest.mark.parametrize(
    "kwargs",
    [{"scale": 1 / 255}, {"scale": 1 / 127.5, "offset": -1.0}, {"scale": [0.5, 2.0, 3.0], "offset": [1.0, 0.0, -1.0]}],
)
def test_rescaling_matches_keras(backend, kwargs):
    keras = keras_module()
    x = _x(2, 4, 3)
    assert_matches_keras(layers.Rescaling(**kwargs), keras.layers.Rescaling(**kwargs), x)
    ints = RNG.integers(0, 256, size=(2, 3)).astype("int32")
    ours = to_numpy(layers.Rescaling(**kwargs)(ints))
    assert ours.dtype == np.float32
    np.testing.assert_allclose(ours, np.asarray(keras.layers.Rescaling(**kwargs)(ints)), rtol=1e-6, atol=1e-6)


def test_rescaling_config_and_errors(backend):
    layer = layers.Rescaling(scale=np.array([1.0, 2.0]), offset=0.5, name="r")
    config = layer.get_config()
    assert config["scale"] == [1.0, 2.0] and config["offset"] == 0.5
    assert_config_round_trip(layer, _x(3, 2))
    assert_symbolic_shape(layers.Rescaling(2.0), (None, 4))
    with pytest.raises(ValueError, match="scale"):
        layers.Rescaling("big")
    with pytest.raises(ValueError, match="offset"):
        layers.Rescaling(1.0, offset=[1.0, float("nan")])


# ----------------------------------------------------------------------- Normalization
@pytest.mark.parametrize("axis,shape", [(-1, (50, 4)), (None, (30, 3)), ((1, 2), (20, 3, 4)), (1, (20, 3, 4))])
def test_adapt_matches_keras(backend, axis, shape):
    keras = keras_module()
    data = _x(*shape)
    ours = layers.Normalization(axis=axis)
    ours.adapt(data)
    theirs = keras.layers.Normalization(axis=axis)
    theirs.adapt(data)
    x = _x(*((5,) + shape[1:]))
    np.testing.assert_allclose(to_numpy(ours(x)), np.asarray(theirs(x)), rtol=1e-5, atol=1e-5)
    for w, k in zip(ours.get_weights()[:2], theirs.get_weights()[:2]):
        np.testing.assert_allclose(w, k, rtol=1e-5, atol=1e-5)
    # The inverse undoes it.
    inverse = layers.Normalization(axis=axis, invert=True)
    inverse.adapt(data)
    np.testing.assert_allclose(to_numpy(inverse(ours(x))), x, rtol=1e-4, atol=1e-4)
    keras_inverse = keras.layers.Normalization(axis=axis, invert=True)
    keras_inverse.adapt(data)
    np.testing.assert_allclose(to_numpy(inverse(x)), np.asarray(keras_inverse(x)), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("invert", [False, True])
def test_given_mean_and_variance_match_keras(backend, invert):
    keras = keras_module()
    kwargs = dict(mean=[1.0, -2.0, 3.0], variance=[4.0, 0.25, 1.0], invert=invert)
    x = _x(4, 2, 3)
    layer = layers.Normalization(**kwargs)
    assert_matches_keras(layer, keras.layers.Normalization(**kwargs), x)
    assert layer.weights == []  # the statistics live in the config
    scalar = dict(axis=None, mean=2.0, variance=9.0)
    assert_matches_keras(layers.Normalization(**scalar), keras.layers.Normalization(**scalar), x)


def test_streaming_adapt_is_exact(backend):
    # Large offset: a naive E[x^2] - E[x]^2 in float32 would lose the variance entirely.
    data = (RNG.normal(size=(1003, 3)) * np.array([1.0, 0.01, 100.0]) + 1e4).astype("float64")
    expected_mean, expected_var = data.mean(0), data.var(0)
    whole = layers.Normalization()
    whole.adapt(data)
    batches = [data[i : i + 97] for i in range(0, len(data), 97)]
    for source in (batches, iter(batches), ((b, np.zeros(len(b))) for b in batches)):
        layer = layers.Normalization()
        layer.adapt(source)
        mean, var, count = layer.get_weights()
        np.testing.assert_allclose(mean, expected_mean.astype("float32"), rtol=1e-7)
        np.testing.assert_allclose(var, expected_var.astype("float32"), rtol=1e-5)
        assert int(count) == len(data)
    chunked = layers.Normalization()
    chunked.adapt(data, batch_size=10)
    for a, b in zip(chunked.get_weights(), whole.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    # steps limits the batches used.
    limited = layers.Normalization()
    limited.adapt(batches, steps=2)
    np.testing.assert_allclose(limited.get_weights()[0], data[:194].mean(0).astype("float32"), rtol=1e-6)
    assert int(limited.get_weights()[2]) == 194


def test_adapt_from_tensors(backend):
    data = _x(40, 2)
    layer = layers.Normalization()
    layer.adapt(hl.ops.convert_to_tensor(data))
    np.testing.assert_allclose(layer.get_weights()[0], data.mean(0), rtol=1e-5)
    tensors = [hl.ops.convert_to_tensor(data[:15]), hl.ops.convert_to_tensor(data[15:])]
    streamed = layers.Normalization()
    streamed.adapt(tensors)
    np.testing.assert_allclose(streamed.get_weights()[1], data.astype("float64").var(0), rtol=1e-5)
    y = to_numpy(streamed(data))
    np.testing.assert_allclose(y.mean(0), 0.0, atol=1e-5)
    np.testing.assert_allclose(y.std(0), 1.0, atol=1e-4)


def test_adapted_statistics_are_saved_weights(backend):
    data = _x(30, 3)
    layer = layers.Normalization(name="norm")
    layer.adapt(data)
    assert [w.path for w in layer.weights] == ["norm/mean", "norm/variance", "norm/count"]
    assert layer.trainable_weights == [] and len(layer.non_trainable_weights) == 3
    clone = layers.deserialize(layers.serialize(layer))
    clone(data[:2])
    clone.set_weights(layer.get_weights())
    np.testing.assert_allclose(to_numpy(clone(data)), to_numpy(layer(data)), atol=1e-6)
    # Keras' own weights load into ours (the same order: mean, variance, count).
    keras = keras_module()
    theirs = keras.layers.Normalization()
    theirs.adapt(data * 2)
    layer.set_weights(theirs.get_weights())
    np.testing.assert_allclose(to_numpy(layer(data)), np.asarray(theirs(data)), rtol=1e-5, atol=1e-5)


def test_normalization_in_a_model(backend):
    data = _x(20, 3)
    norm = layers.Normalization()
    norm.adapt(data)
    inputs = hl.models.Input(shape=(3,))
    model = hl.models.Model(inputs, layers.Dense(2)(norm(inputs)))
    assert to_numpy(model(data)).shape == (20, 2)
    assert_symbolic_shape(layers.Normalization(mean=0.0, variance=1.0, axis=None), (None, 3))
    ints = to_numpy(layers.Normalization(mean=1.0, variance=4.0, axis=None)(np.array([3, 5], "int32")))
    np.testing.assert_allclose(ints, [1.0, 2.0])


def test_normalization_config(backend):
    layer = layers.Normalization(axis=(1, 2), mean=[1.0, 2.0], variance=[1.0, 4.0], invert=True)
    config = layer.get_config()
    assert config["axis"] == (1, 2) and config["invert"] is True
    assert config["mean"] == [1.0, 2.0] and config["variance"] == [1.0, 4.0]
    assert_config_round_trip(layer, _x(2, 3, 2))
    plain = layers.Normalization()
    assert plain.get_config()["mean"] is None
    assert_config_round_trip(plain)


def test_normalization_errors(backend):
    with pytest.raises(ValueError, match="both `mean` and `variance`"):
        layers.Normalization(mean=1.0)
    with pytest.raises(ValueError, match="same shape"):
        layers.Normalization(mean=[1.0, 2.0], variance=[1.0])
    with pytest.raises(ValueError, match="rank of `mean`"):
        layers.Normalization(axis=-1, mean=np.ones((2, 2)), variance=np.ones((2, 2)))
    with pytest.raises(TypeError, match="axis"):
        layers.Normalization(axis="features")
    with pytest.raises(ValueError, match=r"range \[-ndim, ndim\)"):
        layers.Normalization(axis=3).adapt(_x(4, 2))
    with pytest.raises(ValueError, match="empty iterable"):
        layers.Normalization().adapt([])
    with pytest.raises(ValueError, match="batch_size"):
        layers.Normalization().adapt(_x(4, 2), batch_size=0)
    with pytest.raises(ValueError, match="constructor"):
        layers.Normalization(mean=0.0, variance=1.0).adapt(_x(4, 2))
    layer = layers.Normalization()
    layer.adapt(_x(4, 2))
    with pytest.raises(ValueError, match="incompatible shape"):
        layer.adapt(_x(4, 3))
    with pytest.raises(ValueError, match="incompatible shape"):
        layers.Normalization().adapt([_x(4, 2), _x(4, 3)])
    with pytest.raises(TypeError, match="does not support"):
        layers.Normalization().adapt(42)
