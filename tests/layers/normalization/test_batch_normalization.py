"""BatchNormalization vs Keras 3: training and inference outputs, moving statistics, masks, renorm, frozen
layers, gradients and the stateless path, configs and argument checks."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers

from ..core.keras_oracle import (
    assert_config_round_trip,
    assert_grads_match_keras,
    assert_symbolic_shape,
    keras_module,
    to_numpy,
)

RNG = np.random.default_rng(0)
ATOL = 1e-5


def _x(*shape, loc=0.5, scale=2.0):
    return (RNG.normal(size=shape) * scale + loc).astype("float32")


def _random_weights(layer):
    """Non-trivial gamma/beta/moving statistics (the variance positive)."""
    weights = []
    for v in layer.weights:
        w = RNG.normal(size=tuple(v.shape)).astype("float32")
        weights.append(np.abs(w) + 0.5 if "variance" in v.path or "stddev" in v.path else w)
    layer.set_weights(weights)
    return weights


def _pair(x, **kwargs):
    """Our layer and a Keras layer with the same (random) weights, both built on ``x``."""
    keras = keras_module()
    ours = layers.BatchNormalization(**kwargs)
    ours(x)
    weights = _random_weights(ours)
    theirs = keras.layers.BatchNormalization(**kwargs)
    theirs(x)
    theirs.set_weights(weights)
    return ours, theirs


@pytest.mark.parametrize(
    "shape,axis", [((8, 3), -1), ((4, 5, 3), -1), ((4, 3, 5), 1), ((2, 3, 4, 5), 1), ((2, 4, 4, 3), 3)]
)
def test_training_and_inference_match_keras(backend, shape, axis):
    x = _x(*shape)
    ours, theirs = _pair(x, axis=axis, momentum=0.9, epsilon=1e-3)
    # Inference: moving statistics.
    np.testing.assert_allclose(to_numpy(ours(x)), np.asarray(theirs(x)), atol=ATOL, rtol=ATOL)
    np.testing.assert_allclose(
        to_numpy(ours(x, training=False)), np.asarray(theirs(x, training=False)), atol=ATOL, rtol=ATOL
    )
    # Training: batch statistics, and one update of the moving statistics.
    np.testing.assert_allclose(
        to_numpy(ours(x, training=True)), np.asarray(theirs(x, training=True)), atol=ATOL, rtol=ATOL
    )
    for v, k in zip(ours.weights, theirs.weights):
        np.testing.assert_allclose(v.numpy(), np.asarray(k), atol=ATOL, rtol=ATOL, err_msg=v.path)
    # Inference afterwards uses the updated statistics.
    np.testing.assert_allclose(to_numpy(ours(x)), np.asarray(theirs(x)), atol=ATOL, rtol=ATOL)


def test_moving_statistics_formula(backend):
    x = _x(16, 4)
    layer = layers.BatchNormalization(momentum=0.8)
    layer(x, training=True)
    np.testing.assert_allclose(layer.moving_mean.numpy(), 0.2 * x.mean(0), atol=1e-5)
    np.testing.assert_allclose(layer.moving_variance.numpy(), 0.8 + 0.2 * x.var(0), atol=1e-5)
    y = to_numpy(layer(x, training=True))
    np.testing.assert_allclose(y.mean(0), 0.0, atol=1e-5)
    np.testing.assert_allclose(y.var(0), x.var(0) / (x.var(0) + 1e-3), atol=1e-4)


def test_weights_and_trainability(backend):
    layer = layers.BatchNormalization()
    layer(_x(2, 3))
    assert [w.path for w in layer.weights] == [
        f"{layer.name}/{n}" for n in ("gamma", "beta", "moving_mean", "moving_variance")
    ]
    assert [w.path for w in layer.trainable_weights] == [f"{layer.name}/gamma", f"{layer.name}/beta"]
    assert [w.path for w in layer.non_trainable_weights] == [
        f"{layer.name}/moving_mean",
        f"{layer.name}/moving_variance",
    ]
    bare = layers.BatchNormalization(center=False, scale=False)
    bare(_x(2, 3))
    assert [w.path.split("/")[-1] for w in bare.weights] == ["moving_mean", "moving_variance"]
    assert bare.trainable_weights == []


@pytest.mark.parametrize("center,scale", [(False, True), (True, False), (False, False)])
def test_center_scale_variants_match_keras(backend, center, scale):
    x = _x(6, 4)
    ours, theirs = _pair(x, center=center, scale=scale)
    for training in (False, True):
        np.testing.assert_allclose(
            to_numpy(ours(x, training=training)), np.asarray(theirs(x, training=training)), atol=ATOL, rtol=ATOL
        )


def test_frozen_layer_runs_in_inference_mode(backend):
    x = _x(8, 3)
    ours, theirs = _pair(x)
    ours.trainable = False
    theirs.trainable = False
    before = ours.get_weights()
    y = to_numpy(ours(x, training=True))
    np.testing.assert_allclose(y, np.asarray(theirs(x, training=True)), atol=ATOL, rtol=ATOL)
    np.testing.assert_allclose(y, to_numpy(ours(x, training=False)), atol=1e-6)
    for a, b in zip(before, ours.get_weights()):
        np.testing.assert_array_equal(a, b)
    assert ours.trainable_weights == [] and len(ours.non_trainable_weights) == 4


def test_mask_matches_keras(backend):
    x = _x(3, 5, 4)
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 0, 0, 0]], dtype=bool)
    ours, theirs = _pair(x, momentum=0.5)
    got = to_numpy(ours(x, training=True, mask=hl.ops.convert_to_tensor(mask)))
    np.testing.assert_allclose(got, np.asarray(theirs(x, training=True, mask=mask)), atol=ATOL, rtol=ATOL)
    for v, k in zip(ours.weights, theirs.weights):
        np.testing.assert_allclose(v.numpy(), np.asarray(k), atol=ATOL, rtol=ATOL, err_msg=v.path)
    with pytest.raises(ValueError, match="one dimension less"):
        ours(x, training=True, mask=hl.ops.convert_to_tensor(np.ones((3, 5, 4), bool)))


def test_renorm_matches_keras(backend):
    x = _x(8, 3)
    kwargs = dict(
        renorm=True, renorm_clipping={"rmax": 1.5, "rmin": 0.5, "dmax": 0.3}, renorm_momentum=0.7, momentum=0.6
    )
    ours, theirs = _pair(x, **kwargs)
    assert [w.path.split("/")[-1] for w in ours.weights] == [w.path.split("/")[-1] for w in theirs.weights]
    for _ in range(2):
        np.testing.assert_allclose(
            to_numpy(ours(x, training=True)), np.asarray(theirs(x, training=True)), atol=ATOL, rtol=ATOL
        )
    for v, k in zip(ours.weights, theirs.weights):
        np.testing.assert_allclose(v.numpy(), np.asarray(k), atol=ATOL, rtol=ATOL, err_msg=v.path)
    np.testing.assert_allclose(to_numpy(ours(x)), np.asarray(theirs(x)), atol=ATOL, rtol=ATOL)


@pytest.mark.parametrize("training", [False, True])
def test_gradients_match_keras(backend, training):
    keras = keras_module()
    x = _x(6, 2, 3)
    layer = layers.BatchNormalization(axis=1, gamma_initializer="random_normal", beta_initializer="random_normal")
    layer(x)
    assert_grads_match_keras(layer, keras.layers.BatchNormalization(axis=1), x, atol=2e-4, training=training)


def test_stateless_call_returns_new_statistics(backend):
    x = _x(10, 3)
    layer = layers.BatchNormalization(momentum=0.5)
    layer(x)
    before = layer.get_weights()
    trainable = [v.value for v in layer.trainable_variables]
    non_trainable = [v.value for v in layer.non_trainable_variables]

    def loss(tv):
        out, new_ntv = layer.stateless_call(tv, non_trainable, hl.ops.convert_to_tensor(x), training=True)
        return hl.ops.sum(hl.ops.square(out)), new_ntv

    (value, new_stats), grads = hl.ops.value_and_grad(loss, has_aux=True)(trainable)
    for a, b in zip(before, layer.get_weights()):
        np.testing.assert_array_equal(a, b)  # the variables did not move
    np.testing.assert_allclose(to_numpy(new_stats[0]), 0.5 * x.mean(0), atol=1e-5)
    np.testing.assert_allclose(to_numpy(new_stats[1]), 0.5 + 0.5 * x.var(0), atol=1e-5)
    assert len(grads) == 2 and all(g is not None for g in grads)
    # d/dgamma sum((gamma * xhat + beta)^2) = 2 * gamma * sum(xhat^2) = 2 * n * var / (var + eps)
    var = x.var(0)
    np.testing.assert_allclose(to_numpy(grads[0]), 2 * 10 * var / (var + 1e-3), rtol=1e-4)
    np.testing.assert_allclose(to_numpy(grads[1]), 0.0, atol=1e-4)
    # In inference mode nothing changes.
    _, same = layer.stateless_call(trainable, non_trainable, hl.ops.convert_to_tensor(x))
    np.testing.assert_array_equal(to_numpy(same[0]), before[2])


def test_training_flag_from_sequential(backend):
    x = _x(8, 3)
    model = hl.models.Sequential([layers.Dense(3), layers.BatchNormalization(momentum=0.0)])
    y = to_numpy(model(x, training=True))
    np.testing.assert_allclose(y.mean(0), 0.0, atol=1e-5)
    bn = model.layers[-1]
    assert not np.allclose(bn.moving_mean.numpy(), 0.0)  # momentum 0: the statistics of the Dense output
    np.testing.assert_allclose(to_numpy(model(x)), y, atol=1e-2)  # ... which inference now uses


def test_config_and_shapes(backend):
    layer = layers.BatchNormalization(
        axis=1,
        momentum=0.9,
        epsilon=1e-4,
        center=False,
        gamma_regularizer="l2",
        moving_variance_initializer="zeros",
        name="bn",
    )
    config = layer.get_config()
    assert config["axis"] == 1 and config["momentum"] == 0.9 and config["center"] is False
    assert config["moving_variance_initializer"]["class_name"] == "Zeros"
    assert config["renorm"] is False and config["synchronized"] is False
    assert_config_round_trip(layer, _x(2, 3, 4))
    assert_symbolic_shape(layers.BatchNormalization(), (None, 5, 3))
    assert layers.BatchNormalization(axis=1).compute_output_shape((None, 3, 4)) == (None, 3, 4)
    assert len(layer.losses) == 1  # gamma's penalty


def test_errors(backend):
    with pytest.raises(TypeError, match="axis"):
        layers.BatchNormalization(axis=[1, 2])
    with pytest.raises(ValueError, match="momentum"):
        layers.BatchNormalization(momentum=1.5)
    with pytest.raises(ValueError, match="epsilon"):
        layers.BatchNormalization(epsilon=-1.0)
    with pytest.raises(ValueError, match="renorm_clipping"):
        layers.BatchNormalization(renorm=True, renorm_clipping={"rmaxx": 1.0})
    with pytest.raises(ValueError, match="out of bounds"):
        layers.BatchNormalization(axis=3)(_x(2, 3))
    layer = layers.BatchNormalization()
    layer(_x(2, 3))
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3"):
        layer(_x(2, 4))
