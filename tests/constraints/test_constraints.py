"""Constraints: outputs against numpy float64 references and Keras 3, configs, lookup."""

import json
import os

import numpy as np
import pytest

import highlevel as hl
from highlevel import constraints as C

RNG = np.random.default_rng(1)
W = (RNG.standard_normal((4, 3, 5)) * 2).astype(np.float32)
EPS = 1e-7


def out(t):
    return np.asarray(hl.ops.convert_to_numpy(t))


def norms(w, axis):
    return np.sqrt((w.astype(np.float64) ** 2).sum(axis=axis, keepdims=True))


@pytest.mark.parametrize("axis", [0, 1, -1, [0, 1], (0, 2)])
def test_max_norm(backend, axis):
    ax = tuple(axis) if isinstance(axis, list) else axis
    n = norms(W, ax)
    expected = W * (np.clip(n, 0, 2.5) / (EPS + n))
    got = out(C.MaxNorm(2.5, axis=axis)(hl.ops.convert_to_tensor(W)))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    assert norms(got, ax).max() <= 2.5 + 1e-5


@pytest.mark.parametrize("rate", [1.0, 0.3])
def test_min_max_norm(backend, rate):
    n = norms(W, 0)
    desired = rate * np.clip(n, 1.5, 3.0) + (1 - rate) * n
    expected = W * (desired / (EPS + n))
    got = out(C.MinMaxNorm(1.5, 3.0, rate=rate, axis=0)(hl.ops.convert_to_tensor(W)))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_unit_norm_and_non_neg(backend):
    got = out(C.UnitNorm(axis=1)(hl.ops.convert_to_tensor(W)))
    np.testing.assert_allclose(got, W / (EPS + norms(W, 1)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(norms(got, 1), 1.0, rtol=1e-5)
    np.testing.assert_array_equal(out(C.NonNeg()(hl.ops.convert_to_tensor(W))), np.maximum(W, 0))
    assert hl.ops.dtype(C.NonNeg()(hl.ops.convert_to_tensor(W))) == "float32"


def test_zero_slice_stays_zero(backend):
    w = np.zeros((3, 2), np.float32)
    for c in (C.MaxNorm(), C.UnitNorm(), C.MinMaxNorm(0.5, 1.0)):
        np.testing.assert_array_equal(out(c(hl.ops.convert_to_tensor(w))), w)


def test_accepts_a_variable_and_keeps_dtype(backend):
    v = hl.Variable(W.astype(np.float64))
    res = C.MaxNorm(1.0)(v)
    assert hl.ops.dtype(res) == "float64"
    assert norms(out(res), 0).max() <= 1.0 + 1e-12


def test_keras_oracle():
    os.environ.setdefault("KERAS_BACKEND", "jax")
    keras = pytest.importorskip("keras")
    pairs = [
        (C.MaxNorm(2.5, axis=1), keras.constraints.MaxNorm(2.5, axis=1)),
        (C.MinMaxNorm(1.5, 3.0, 0.4, axis=[0, 2]), keras.constraints.MinMaxNorm(1.5, 3.0, 0.4, axis=[0, 2])),
        (C.UnitNorm(axis=-1), keras.constraints.UnitNorm(axis=-1)),
        (C.NonNeg(), keras.constraints.NonNeg()),
    ]
    with hl.config.backend_scope("native"):
        for ours, theirs in pairs:
            expected = np.asarray(keras.ops.convert_to_numpy(theirs(keras.ops.convert_to_tensor(W))))
            np.testing.assert_allclose(out(ours(hl.ops.convert_to_tensor(W))), expected, rtol=1e-5, atol=1e-6)
            assert ours.get_config() == theirs.get_config()
            assert type(C.deserialize(keras.constraints.serialize(theirs))) is type(ours)


@pytest.mark.parametrize(
    "name,cls",
    [
        ("max_norm", C.MaxNorm),
        ("MaxNorm", C.MaxNorm),
        ("min_max_norm", C.MinMaxNorm),
        ("MinMaxNorm", C.MinMaxNorm),
        ("non_neg", C.NonNeg),
        ("NonNeg", C.NonNeg),
        ("unit_norm", C.UnitNorm),
        ("UnitNorm", C.UnitNorm),
    ],
)
def test_get_by_name(name, cls):
    assert type(C.get(name)) is cls


def test_get_serialize_deserialize():
    assert C.get(None) is None and C.serialize(None) is None
    c = C.MaxNorm(3)
    assert C.get(c) is c
    assert type(C.get(C.NonNeg)) is C.NonNeg
    fn = lambda w: w  # noqa: E731
    assert C.get(fn) is fn
    for c in (C.MaxNorm(3, axis=[0, 1]), C.MinMaxNorm(0.1, 2.0, 0.5, 1), C.NonNeg(), C.UnitNorm(2)):
        config = C.serialize(c)
        json.dumps(config)
        again = C.get(config)
        assert type(again) is type(c) and again.get_config() == c.get_config()
    with pytest.raises(ValueError, match="max_norm"):
        C.get("maxnorm")
    with pytest.raises(ValueError, match="min_value"):
        C.MinMaxNorm(2.0, 1.0)
    with pytest.raises(TypeError, match="Constraint"):
        C.serialize(lambda w: w)
    assert C.max_norm is C.MaxNorm and C.min_max_norm is C.MinMaxNorm
    assert C.non_neg is C.NonNeg and C.unit_norm is C.UnitNorm
