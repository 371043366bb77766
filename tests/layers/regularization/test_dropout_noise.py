"""Dropout, SpatialDropout1D/2D/3D, GaussianNoise, GaussianDropout, ActivityRegularization: identity at
inference, statistics in training (rate, scaling), seeded determinism, gradients, Keras agreement,
configs and argument checks."""

import math

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers

from ..core.keras_oracle import assert_config_round_trip, assert_symbolic_shape, keras_module, to_numpy

N = 20000


def _ones(*shape):
    return np.ones(shape, "float32")


def _x(*shape):
    return np.random.default_rng(2).normal(size=shape).astype("float32")


NOISE_LAYERS = [
    lambda: layers.Dropout(0.3, seed=1),
    lambda: layers.SpatialDropout1D(0.3, seed=1),
    lambda: layers.SpatialDropout2D(0.3, seed=1),
    lambda: layers.SpatialDropout3D(0.3, seed=1),
    lambda: layers.GaussianNoise(0.5, seed=1),
    lambda: layers.GaussianDropout(0.3, seed=1),
    lambda: layers.ActivityRegularization(l1=0.1),
]
RANK = {"SpatialDropout1D": 3, "SpatialDropout2D": 4, "SpatialDropout3D": 5}


@pytest.mark.parametrize("make", NOISE_LAYERS)
def test_identity_at_inference_and_no_weights(backend, make):
    layer = make()
    x = _x(*(2, 3, 4, 2, 3)[: RANK.get(type(layer).__name__, 2)])
    for kwargs in ({}, {"training": False}, {"training": None}):
        np.testing.assert_array_equal(to_numpy(layer(x, **kwargs)), x)
    assert layer.weights == [] and layer.non_trainable_weights == []
    assert layer.supports_masking
    assert_config_round_trip(layer, x)


@pytest.mark.parametrize("rate", [0.1, 0.5, 0.8])
def test_dropout_rate_and_scaling(backend, rate):
    y = to_numpy(layers.Dropout(rate, seed=3)(_ones(N), training=True))
    dropped = np.mean(y == 0)
    assert abs(dropped - rate) < 4 * math.sqrt(rate * (1 - rate) / N), dropped
    np.testing.assert_allclose(y[y != 0], 1 / (1 - rate), rtol=1e-6)
    assert abs(y.mean() - 1.0) < 0.05


def test_dropout_matches_keras_statistics(backend):
    keras = keras_module()
    ours = to_numpy(layers.Dropout(0.4, seed=0)(_ones(N), training=True))
    theirs = np.asarray(keras.layers.Dropout(0.4, seed=0)(_ones(N), training=True))
    np.testing.assert_allclose(np.unique(ours), [0.0, 1 / 0.6], rtol=1e-6)
    np.testing.assert_allclose(np.unique(theirs), np.unique(ours), rtol=1e-6)
    assert abs(np.mean(ours == 0) - np.mean(theirs == 0)) < 0.03
    np.testing.assert_array_equal(
        np.asarray(keras.layers.Dropout(0.4)(_ones(5))), to_numpy(layers.Dropout(0.4)(_ones(5)))
    )


def test_seeded_determinism_and_fresh_masks(backend):
    x = _ones(64)
    a, b = layers.Dropout(0.5, seed=7), layers.Dropout(0.5, seed=7)
    first_a, first_b = to_numpy(a(x, training=True)), to_numpy(b(x, training=True))
    np.testing.assert_array_equal(first_a, first_b)  # same seed, same mask
    second_a = to_numpy(a(x, training=True))
    assert not np.array_equal(first_a, second_a)  # each call draws a new mask
    np.testing.assert_array_equal(second_a, to_numpy(b(x, training=True)))
    other = to_numpy(layers.Dropout(0.5, seed=8)(x, training=True))
    assert not np.array_equal(first_a, other)
    for make in (lambda: layers.GaussianNoise(1.0, seed=4), lambda: layers.GaussianDropout(0.5, seed=4)):
        np.testing.assert_array_equal(to_numpy(make()(x, training=True)), to_numpy(make()(x, training=True)))


def test_dropout_rate_zero_and_noise_shape(backend):
    x = _x(4, 5)
    np.testing.assert_array_equal(to_numpy(layers.Dropout(0.0)(x, training=True)), x)
    y = to_numpy(layers.Dropout(0.5, noise_shape=(None, 1, 6), seed=2)(_ones(50, 7, 6), training=True))
    assert (y == y[:, :1, :]).all()  # one mask for every timestep
    assert 0.3 < np.mean(y == 0) < 0.7
    with pytest.raises(ValueError, match="noise_shape"):
        layers.Dropout(0.5, noise_shape=(1, 6))(_ones(2, 7, 6), training=True)


def test_dropout_gradient(backend):
    layer = layers.Dropout(0.25, seed=5)
    x = hl.ops.convert_to_tensor(_x(200))
    # The seed generator's state is not a weight, but it is state that a pure step carries.
    assert layer.weights == [] and len(layer.non_trainable_variables) == 1
    state = [v.value for v in layer.non_trainable_variables]
    before = to_numpy(state[0])

    def f(x):
        out, new_state = layer.stateless_call([], state, x, training=True)
        return hl.ops.sum(out), (out, new_state)

    (_, (out, new_state)), grad = hl.ops.value_and_grad(f, has_aux=True)(x)
    np.testing.assert_array_equal(layer.non_trainable_variables[0].numpy(), before)  # untouched
    assert not np.array_equal(to_numpy(new_state[0]), before)  # the returned state advanced
    out, grad = to_numpy(out), to_numpy(grad)
    kept = out != 0
    np.testing.assert_allclose(grad[kept], 1 / 0.75, rtol=1e-6)
    np.testing.assert_array_equal(grad[~kept], 0.0)


def test_training_flag_reaches_dropout_in_sequential(backend):
    model = hl.models.Sequential([layers.Dense(64, kernel_initializer="ones"), layers.Dropout(0.5, seed=0)])
    x = _ones(4, 3)
    np.testing.assert_array_equal(to_numpy(model(x)), 3.0)
    y = to_numpy(model(x, training=True))
    assert set(np.unique(y).tolist()) == {0.0, 6.0}
    assert_symbolic_shape(layers.Dropout(0.5), (None, 3))


@pytest.mark.parametrize(
    "cls,shape,kwargs,axes",
    [
        ("SpatialDropout1D", (400, 6, 3), {}, (1,)),
        ("SpatialDropout2D", (400, 3, 4, 5), {}, (1, 2)),
        ("SpatialDropout2D", (400, 5, 3, 4), {"data_format": "channels_first"}, (2, 3)),
        ("SpatialDropout3D", (200, 2, 2, 3, 4), {}, (1, 2, 3)),
        ("SpatialDropout3D", (200, 4, 2, 2, 3), {"data_format": "channels_first"}, (2, 3, 4)),
    ],
)
def test_spatial_dropout_drops_whole_channels(backend, cls, shape, kwargs, axes):
    layer = getattr(layers, cls)(0.4, seed=1, **kwargs)
    y = to_numpy(layer(_ones(*shape), training=True))
    first = y[tuple(slice(0, 1) if d in axes else slice(None) for d in range(len(shape)))]
    assert (y == first).all()
    assert abs(np.mean(y == 0) - 0.4) < 0.06
    np.testing.assert_allclose(y[y != 0], 1 / 0.6, rtol=1e-6)
    config = layer.get_config()
    assert config["rate"] == 0.4 and config["seed"] == 1 and "noise_shape" not in config
    assert ("data_format" in config) == (cls != "SpatialDropout1D")


def test_spatial_dropout_errors(backend):
    with pytest.raises(ValueError, match="expected ndim=3"):
        layers.SpatialDropout1D(0.5)(_ones(2, 3))
    with pytest.raises(ValueError, match="expected ndim=4"):
        layers.SpatialDropout2D(0.5)(_ones(2, 3, 4))
    with pytest.raises(ValueError, match="data_format"):
        layers.SpatialDropout2D(0.5, data_format="channels_middle")
    with pytest.raises(ValueError, match="rate"):
        layers.SpatialDropout2D(1.5)


def test_gaussian_noise_statistics(backend):
    x = _x(N)
    y = to_numpy(layers.GaussianNoise(0.3, seed=2)(x, training=True))
    noise = y - x
    assert abs(noise.mean()) < 0.02 and abs(noise.std() - 0.3) < 0.02
    ints = to_numpy(layers.GaussianNoise(0.3, seed=2)(np.ones((10,), "int32"), training=True))
    assert ints.dtype == np.float32


@pytest.mark.parametrize("rate", [0.2, 0.6])
def test_gaussian_dropout_statistics(backend, rate):
    y = to_numpy(layers.GaussianDropout(rate, seed=2)(_ones(N), training=True))
    assert abs(y.mean() - 1.0) < 0.05
    assert abs(y.std() - math.sqrt(rate / (1 - rate))) < 0.05


def test_noise_layers_match_keras_at_inference_and_in_distribution(backend):
    keras = keras_module()
    x = _x(3, 4)
    for ours, theirs in (
        (layers.GaussianNoise(0.2), keras.layers.GaussianNoise(0.2)),
        (layers.GaussianDropout(0.2), keras.layers.GaussianDropout(0.2)),
    ):
        np.testing.assert_array_equal(to_numpy(ours(x)), np.asarray(theirs(x)))
    ours = to_numpy(layers.GaussianDropout(0.5, seed=1)(_ones(N), training=True))
    theirs = np.asarray(keras.layers.GaussianDropout(0.5, seed=1)(_ones(N), training=True))
    assert abs(ours.std() - theirs.std()) < 0.05


def test_activity_regularization_matches_keras(backend):
    keras = keras_module()
    x = _x(4, 3)
    ours = layers.ActivityRegularization(l1=0.01, l2=0.2)
    theirs = keras.layers.ActivityRegularization(l1=0.01, l2=0.2)
    np.testing.assert_array_equal(to_numpy(ours(x)), x)
    theirs(x)
    assert len(ours.losses) == 1
    np.testing.assert_allclose(to_numpy(ours.losses[0]), np.asarray(theirs.losses[0]), rtol=1e-5)
    expected = (0.01 * np.abs(x).sum() + 0.2 * np.square(x).sum()) / 4  # Keras 3 divides by the batch size
    np.testing.assert_allclose(to_numpy(ours.losses[0]), expected, rtol=1e-5)
    ours(x)
    assert len(ours.losses) == 1  # losses of the last call only
    config = ours.get_config()
    assert config["l1"] == 0.01 and config["l2"] == 0.2 and "activity_regularizer" not in config

    def f(x):
        _, _, losses = ours.stateless_call([], [], x, return_losses=True)
        return losses[0]

    grad = to_numpy(hl.ops.grad(f)(hl.ops.convert_to_tensor(x)))
    np.testing.assert_allclose(grad, (0.01 * np.sign(x) + 0.4 * x) / 4, rtol=1e-5)


@pytest.mark.parametrize(
    "make,match",
    [
        (lambda: layers.Dropout(1.0), "rate"),
        (lambda: layers.Dropout(-0.1), "rate"),
        (lambda: layers.Dropout("0.5"), "rate"),
        (lambda: layers.Dropout(True), "rate"),
        (lambda: layers.Dropout(0.5, noise_shape="abc"), "noise_shape"),
        (lambda: layers.Dropout(0.5, noise_shape=(None, 0)), "noise_shape"),
        (lambda: layers.Dropout(0.5, seed=-1), "seed"),
        (lambda: layers.Dropout(0.5, seed=1.5), "seed"),
        (lambda: layers.GaussianNoise(-1.0), "stddev"),
        (lambda: layers.GaussianNoise(float("nan")), "stddev"),
        (lambda: layers.GaussianDropout(1.0), "rate"),
        (lambda: layers.ActivityRegularization(l1=-1.0), "l1"),
    ],
)
def test_argument_errors(make, match):
    with pytest.raises(ValueError, match=match):
        make()
