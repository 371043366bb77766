"""ReLU, LeakyReLU, ELU, PReLU and Softmax: outputs and gradients vs Keras 3 on every backend, configs,
symbolic shapes and argument checks."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import initializers, layers
from tests.layers.core.keras_oracle import (
    assert_config_round_trip,
    assert_grads_match_keras,
    assert_matches_keras,
    assert_symbolic_shape,
    keras_module,
    to_numpy,
)

# Away from the kinks (0 and the thresholds) so gradients are unambiguous.
X = np.random.default_rng(0).uniform(-3.0, 3.0, size=(2, 3, 4)).astype("float32")
X[np.abs(X) < 0.05] = 0.5
X[np.abs(X - 0.5) < 0.05] = 0.7
X[np.abs(X - 2.0) < 0.05] = 2.2

RELU_ARGS = [
    {},
    {"max_value": 2.0},
    {"negative_slope": 0.1},
    {"threshold": 0.5},
    {"max_value": 6.0},
    {"max_value": 2.0, "negative_slope": 0.2, "threshold": 0.5},
]


@pytest.mark.parametrize("kwargs", RELU_ARGS)
def test_relu_matches_keras(backend, kwargs):
    keras = keras_module()
    assert_matches_keras(layers.ReLU(**kwargs), keras.layers.ReLU(**kwargs), X)
    assert_grads_match_keras(layers.ReLU(**kwargs), keras.layers.ReLU(**kwargs), X)


@pytest.mark.parametrize(
    "cls,kwargs", [("LeakyReLU", {}), ("LeakyReLU", {"negative_slope": 0.05}), ("ELU", {}), ("ELU", {"alpha": 0.5})]
)
def test_leaky_relu_and_elu_match_keras(backend, cls, kwargs):
    keras = keras_module()
    assert_matches_keras(getattr(layers, cls)(**kwargs), getattr(keras.layers, cls)(**kwargs), X)
    assert_grads_match_keras(getattr(layers, cls)(**kwargs), getattr(keras.layers, cls)(**kwargs), X)


def test_leaky_relu_default_slope_is_keras(backend):
    assert layers.LeakyReLU().negative_slope == 0.3
    with pytest.warns(DeprecationWarning, match="alpha"):
        assert layers.LeakyReLU(alpha=0.1).negative_slope == 0.1


@pytest.mark.parametrize("shared_axes", [None, [1], [1, 2], 2])
def test_prelu_matches_keras(backend, shared_axes):
    keras = keras_module()
    layer = layers.PReLU(alpha_initializer=initializers.RandomUniform(0.0, 0.5, seed=1), shared_axes=shared_axes)
    assert_matches_keras(layer, keras.layers.PReLU(shared_axes=shared_axes), X)
    expected = list(X.shape[1:])
    for a in [shared_axes] if isinstance(shared_axes, int) else shared_axes or []:
        expected[a - 1] = 1
    assert tuple(layer.alpha.shape) == tuple(expected)
    assert [w.path for w in layer.weights] == [f"{layer.name}/alpha"]
    assert_grads_match_keras(layer, keras.layers.PReLU(shared_axes=shared_axes), X)


def test_prelu_checks(backend):
    layer = layers.PReLU(shared_axes=[1])
    layer(X)
    with pytest.raises(ValueError, match="expected axis 2 of input shape to have value 4"):
        layer(np.ones((2, 3, 5), "float32"))
    with pytest.raises(ValueError, match="shared_axes"):
        layers.PReLU(shared_axes=[0])
    with pytest.raises(ValueError, match="axis 3"):
        layers.PReLU(shared_axes=[3])(X)
    reg = layers.PReLU(alpha_regularizer="l2", alpha_constraint="non_neg", shared_axes=[1, 2], name="pr")
    config = reg.get_config()
    assert config["shared_axes"] == [1, 2] and config["alpha_initializer"]["class_name"] == "Zeros"
    assert_config_round_trip(reg, X)
    reg(X)
    assert len(reg.losses) == 1 and reg.alpha.constraint is not None


@pytest.mark.parametrize("axis", [-1, 1, (1, 2)])
def test_softmax_matches_keras(backend, axis):
    keras = keras_module()
    assert_matches_keras(layers.Softmax(axis=axis), keras.layers.Softmax(axis=axis), X)
    assert_grads_match_keras(layers.Softmax(axis=axis), keras.layers.Softmax(axis=axis), X)


@pytest.mark.parametrize("mask_dtype", ["bool", "float32"])
def test_softmax_mask_matches_keras(backend, mask_dtype):
    keras = keras_module()
    mask = np.random.default_rng(2).uniform(size=X.shape) > 0.4
    mask[0, 0, :] = False  # a fully masked row comes out all zeros
    mask = mask.astype(mask_dtype)
    out = assert_matches_keras(layers.Softmax(), keras.layers.Softmax(), X, mask=mask)
    assert (out[0, 0] == 0).all()
    np.testing.assert_allclose(out[1].sum(-1), 1.0, atol=1e-5)
    broadcast = mask[:, :1, :]  # a (2, 1, 4) mask broadcasts over axis 1
    assert_matches_keras(layers.Softmax(), keras.layers.Softmax(), X, mask=broadcast)
    with pytest.raises(ValueError, match="broadcastable"):
        layers.Softmax()(hl.ops.convert_to_tensor(X), mask=hl.ops.convert_to_tensor(mask[:, :, :2]))
    with pytest.raises(ValueError, match="more dimensions"):
        layers.Softmax()(hl.ops.convert_to_tensor(X), mask=hl.ops.convert_to_tensor(mask[None]))


def test_softmax_is_finite_for_large_logits(backend):
    y = to_numpy(layers.Softmax()(hl.ops.convert_to_tensor([[1e4, -1e4, 0.0]])))
    assert np.isfinite(y).all() and abs(y.sum() - 1.0) < 1e-6


@pytest.mark.parametrize(
    "layer",
    [
        lambda: layers.ReLU(max_value=1.0, negative_slope=0.1, threshold=0.2, name="r"),
        lambda: layers.LeakyReLU(0.2, name="lr"),
        lambda: layers.ELU(0.7, name="e"),
        lambda: layers.Softmax(axis=(1, 2), name="s"),
        lambda: layers.PReLU(shared_axes=[2], name="p"),
    ],
)
def test_configs_and_symbolic_shapes(backend, layer):
    made = layer()
    assert_config_round_trip(made, X)
    assert_symbolic_shape(layer(), (None, 3, 4))
    assert layer().compute_output_shape((None, 3, 4)) == (None, 3, 4)


def test_argument_errors(backend):
    with pytest.raises(ValueError, match="max_value.*Received: max_value=-1"):
        layers.ReLU(max_value=-1.0)
    with pytest.raises(ValueError, match="negative_slope"):
        layers.ReLU(negative_slope=None)
    with pytest.raises(ValueError, match="threshold"):
        layers.ReLU(threshold=-0.5)
    with pytest.raises(ValueError, match="negative_slope=-0.1"):
        layers.LeakyReLU(negative_slope=-0.1)
    with pytest.raises(ValueError, match="alpha"):
        layers.ELU(alpha="big")
    with pytest.raises(ValueError, match="axis"):
        layers.Softmax(axis="last")
