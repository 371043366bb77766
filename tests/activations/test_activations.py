"""Activations: values against Keras 3 (the oracle) and numpy float64 references, lookup and names."""

import math
import os

import numpy as np
import pytest

import highlevel as hl
from highlevel import activations as A

X = np.array([[-1e4, -7.0, -3.0, -1.0, -0.5, -0.2, 0.0], [0.3, 0.5, 1.0, 2.0, 5.9, 7.5, 1e4]], np.float32)
SMALL = np.linspace(-6.0, 6.0, 24, dtype=np.float32).reshape(4, 6)


def out(t):
    return np.asarray(hl.ops.convert_to_numpy(t)).astype(np.float64)


@pytest.fixture(scope="module")
def keras():
    os.environ.setdefault("KERAS_BACKEND", "jax")
    return pytest.importorskip("keras")


CASES = [  # (our name, kwargs); Keras' function of the same name is the oracle
    ("relu", {}),
    ("relu", {"negative_slope": 0.1}),
    ("relu", {"max_value": 6.0}),
    ("relu", {"max_value": 6}),
    ("relu", {"max_value": 2.0}),
    ("relu", {"threshold": 0.5}),
    ("relu", {"negative_slope": 0.2, "max_value": 3.0}),
    ("relu", {"negative_slope": 0.2, "threshold": -1.0, "max_value": 4.0}),
    ("relu6", {}),
    ("gelu", {}),
    ("gelu", {"approximate": True}),
    ("sigmoid", {}),
    ("tanh", {}),
    ("softmax", {}),
    ("softmax", {"axis": 0}),
    ("softplus", {}),
    ("softsign", {}),
    ("silu", {}),
    ("swish", {}),
    ("elu", {}),
    ("elu", {"alpha": 0.5}),
    ("selu", {}),
    ("leaky_relu", {}),
    ("leaky_relu", {"negative_slope": 0.05}),
    ("linear", {}),
    ("hard_sigmoid", {}),
    ("hard_silu", {}),
    ("hard_swish", {}),
    ("mish", {}),
    ("log_softmax", {}),
    ("log_softmax", {"axis": 0}),
    ("celu", {}),
    ("celu", {"alpha": 2.0}),
    ("glu", {}),
    ("log_sigmoid", {}),
    ("hard_tanh", {}),
    ("soft_shrink", {}),
    ("hard_shrink", {"threshold": 1.0}),
    ("tanh_shrink", {}),
    ("sparse_plus", {}),
    ("sparse_sigmoid", {}),
    ("squareplus", {}),
    ("squareplus", {"b": 1}),
    ("threshold", {"threshold": 0.4, "default_value": -2.0}),
]
# Not sparsemax: Keras 3.15.1's backends compute its threshold from the sum of the *cumulative* sums of the support
# (a slip: the results sum to less than 1); test_sparsemax_is_the_simplex_projection checks ours instead.


_KERAS_OUTPUTS = {}


def _keras_output(keras, name, kwargs, i, x):
    # Each Keras output is computed once and shared by the four backends' runs.
    key = (name, repr(kwargs), i)
    if key not in _KERAS_OUTPUTS:
        fn = getattr(keras.activations, name)
        _KERAS_OUTPUTS[key] = np.asarray(keras.ops.convert_to_numpy(fn(keras.ops.convert_to_tensor(x), **kwargs)))
    return _KERAS_OUTPUTS[key]


@pytest.mark.parametrize("name,kwargs", CASES, ids=[f"{n}-{k}" for n, k in CASES])
def test_against_keras(backend, keras, name, kwargs):
    ours = getattr(A, name)
    for i, x in enumerate((SMALL, X[:, 1:-1])):
        if name == "glu":
            x = x[:, :4]
        expected = _keras_output(keras, name, kwargs, i, x)
        got = ours(hl.ops.convert_to_tensor(x), **kwargs)
        if name != "linear":
            assert hl.ops.dtype(got) == "float32"
        np.testing.assert_allclose(out(got), expected.astype(np.float64), rtol=2e-5, atol=2e-6, err_msg=name)


def _ref(name, x):
    x = x.astype(np.float64)
    sig = 1 / (1 + np.exp(-x))
    softplus = np.logaddexp(0, x)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return {
        "relu": np.maximum(x, 0),
        "relu6": np.clip(x, 0, 6),
        "sigmoid": sig,
        "tanh": np.tanh(x),
        "softplus": softplus,
        "softsign": x / (1 + np.abs(x)),
        "silu": x * sig,
        "elu": np.where(x > 0, x, np.expm1(np.minimum(x, 0))),
        "selu": 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(np.minimum(x, 0))),
        "leaky_relu": np.where(x >= 0, x, 0.2 * x),
        "linear": x,
        "exponential": np.exp(x),
        "hard_sigmoid": np.clip(x / 6 + 0.5, 0, 1),
        "hard_silu": x * np.clip(x / 6 + 0.5, 0, 1),
        "mish": x * np.tanh(softplus),
        "softmax": e / e.sum(axis=-1, keepdims=True),
        "log_softmax": x - x.max(axis=-1, keepdims=True) - np.log(e.sum(axis=-1, keepdims=True)),
        "gelu": 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2))),
    }[name]


@pytest.mark.parametrize(
    "name",
    [
        "relu",
        "relu6",
        "sigmoid",
        "tanh",
        "softplus",
        "softsign",
        "silu",
        "elu",
        "selu",
        "leaky_relu",
        "linear",
        "exponential",
        "hard_sigmoid",
        "hard_silu",
        "mish",
        "softmax",
        "log_softmax",
        "gelu",
    ],
)
def test_against_numpy_float64(backend, name):
    got = out(getattr(A, name)(hl.ops.convert_to_tensor(SMALL)))
    np.testing.assert_allclose(got, _ref(name, SMALL), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "name",
    [
        "sigmoid",
        "softplus",
        "softmax",
        "log_softmax",
        "log_sigmoid",
        "silu",
        "gelu",
        "mish",
        "elu",
        "selu",
        "tanh",
        "softsign",
        "hard_silu",
        "sparsemax",
    ],
)
def test_finite_for_large_inputs(backend, name):
    assert np.isfinite(out(getattr(A, name)(hl.ops.convert_to_tensor(X)))).all()


def _simplex_projection(z):
    """The Euclidean projection onto the probability simplex (Martins & Astudillo, 2016), in float64."""
    ordered = np.sort(z)[::-1]
    cumsum = np.cumsum(ordered)
    k = max(j + 1 for j in range(len(z)) if 1 + (j + 1) * ordered[j] > cumsum[j])
    return np.maximum(z - (cumsum[k - 1] - 1) / k, 0)


@pytest.mark.parametrize("axis", [-1, 0])
def test_sparsemax_is_the_simplex_projection(backend, axis):
    got = out(A.sparsemax(hl.ops.convert_to_tensor(SMALL / 4), axis=axis))
    want = np.apply_along_axis(_simplex_projection, axis, SMALL.astype(np.float64) / 4)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got.sum(axis=axis), 1.0, rtol=1e-6)  # a distribution, with exact zeros
    assert (got == 0).any()


def test_relu_variants_reference(backend):
    x = hl.ops.convert_to_tensor(SMALL)
    xs = SMALL.astype(np.float64)
    np.testing.assert_allclose(out(A.relu(x, threshold=1.0)), np.where(xs > 1.0, xs, 0.0))
    expected = np.clip(np.where(xs > 0, xs, 0), 0, 3.0) - 0.1 * np.maximum(-xs, 0)
    np.testing.assert_allclose(out(A.relu(x, negative_slope=0.1, max_value=3.0)), expected, rtol=1e-6, atol=1e-6)


def test_get_serialize_deserialize():
    assert A.get(None) is A.linear
    assert A.get("relu") is A.relu and A.get("swish") is A.silu and A.get("hard_swish") is A.hard_silu
    fn = lambda x: x  # noqa: E731
    assert A.get(fn) is fn
    assert A.serialize(A.swish) == "silu" and A.serialize(A.hard_swish) == "hard_silu"
    for name in A.ALL_OBJECTS:
        fn = A.get(name)
        assert A.deserialize(A.serialize(fn)) is fn
    assert (
        A.deserialize(
            {"module": "keras.activations", "class_name": "function", "config": "gelu", "registered_name": "gelu"}
        )
        is A.gelu
    )
    assert A.deserialize("mine", custom_objects={"mine": fn}) is fn
    with pytest.raises(ValueError, match="relu6"):
        A.get("relu7")
    with pytest.raises(ValueError, match="Cannot serialize"):
        A.serialize(lambda x: x)
    with pytest.raises(ValueError, match="Could not interpret"):
        A.get(3)


def test_names_match_keras(keras):
    for name in A.ALL_OBJECTS:
        assert hasattr(keras.activations, name), name
        assert keras.activations.serialize(keras.activations.get(name)) == A.serialize(A.get(name))


def test_gradient_of_relu_at_zero_is_zero(backend):
    g = hl.ops.grad(lambda x: hl.ops.sum(A.relu(x)))(hl.ops.convert_to_tensor([-1.0, 0.0, 2.0]))
    assert out(g).tolist() == [0.0, 0.0, 1.0]
