"""Regularizers: penalties against numpy float64 references and Keras 3, gradients, configs."""

import json
import os

import numpy as np
import pytest

import highlevel as hl
from highlevel import regularizers as R

RNG = np.random.default_rng(0)
W = RNG.standard_normal((5, 4)).astype(np.float32)


def val(t):
    return float(np.asarray(hl.ops.convert_to_numpy(t)))


def ref_orthogonal(w, factor, mode):
    w = w.astype(np.float64)
    if mode == "columns":
        w = w.T
    n = w * np.minimum(1 / np.sqrt((w**2).sum(axis=1, keepdims=True)), 1e7)  # Keras' L2 normalize
    p = n @ n.T
    size = w.shape[0]
    return factor * 0.5 * np.abs(p * (1 - np.eye(size))).sum() / (size * (size - 1) / 2)


def test_l1_l2_l1l2(backend):
    x = hl.ops.convert_to_tensor(W)
    w = W.astype(np.float64)
    assert val(R.L1(0.3)(x)) == pytest.approx(0.3 * np.abs(w).sum(), rel=1e-6)
    assert val(R.L2(0.2)(x)) == pytest.approx(0.2 * (w**2).sum(), rel=1e-6)
    assert val(R.L1L2(0.1, 0.2)(x)) == pytest.approx(0.1 * np.abs(w).sum() + 0.2 * (w**2).sum(), rel=1e-6)
    assert val(R.L1L2()(x)) == 0.0
    assert val(R.L1()(x)) == pytest.approx(0.01 * np.abs(w).sum(), rel=1e-6)
    for reg in (R.L1(0.3), R.L2(0.2), R.L1L2(0.1, 0.2)):
        out = reg(x)
        assert hl.ops.shape(out) == () and hl.ops.dtype(out) == "float32"


def test_penalty_keeps_weight_dtype(backend):
    x64 = hl.ops.convert_to_tensor(W.astype(np.float64))
    assert hl.ops.dtype(R.L2(0.5)(x64)) == "float64"
    assert hl.ops.dtype(R.L1L2(0.0, 0.0)(x64)) == "float64"


def test_accepts_a_variable(backend):
    v = hl.Variable(W)
    assert val(R.L2(0.2)(v)) == pytest.approx(0.2 * (W.astype(np.float64) ** 2).sum(), rel=1e-6)


@pytest.mark.parametrize("mode", ["rows", "columns"])
def test_orthogonal_regularizer(backend, mode):
    got = val(R.OrthogonalRegularizer(factor=0.7, mode=mode)(hl.ops.convert_to_tensor(W)))
    assert got == pytest.approx(ref_orthogonal(W, 0.7, mode), rel=1e-5)


def test_orthogonal_regularizer_errors(backend):
    with pytest.raises(ValueError, match="rank-2"):
        R.OrthogonalRegularizer()(hl.ops.convert_to_tensor(np.ones((2, 2, 2), np.float32)))
    with pytest.raises(ValueError, match="at least 2"):
        R.OrthogonalRegularizer(mode="columns")(hl.ops.convert_to_tensor(np.ones((3, 1), np.float32)))
    with pytest.raises(ValueError, match="mode"):
        R.OrthogonalRegularizer(mode="diagonal")


def test_gradient_of_l2(backend):
    def loss(x):
        return R.L2(0.5)(x)

    g = hl.ops.grad(loss)(hl.ops.convert_to_tensor(W))
    np.testing.assert_allclose(np.asarray(hl.ops.convert_to_numpy(g)), W, rtol=1e-6)


@pytest.mark.parametrize(
    "make",
    [
        lambda: R.L1(-0.1),
        lambda: R.L2(float("inf")),
        lambda: R.L1L2(l1="a"),
        lambda: R.OrthogonalRegularizer(factor=-1.0),
    ],
)
def test_bad_factors(make):
    with pytest.raises(ValueError, match="non-negative"):
        make()


def test_keras_oracle_penalties():
    os.environ.setdefault("KERAS_BACKEND", "jax")
    keras = pytest.importorskip("keras")
    x = W.astype(np.float32)
    pairs = [
        (R.L1(0.3), keras.regularizers.L1(0.3)),
        (R.L2(0.2), keras.regularizers.L2(0.2)),
        (R.L1L2(0.1, 0.2), keras.regularizers.L1L2(0.1, 0.2)),
        (R.OrthogonalRegularizer(0.7, "rows"), keras.regularizers.OrthogonalRegularizer(0.7, "rows")),
        (R.OrthogonalRegularizer(0.7, "columns"), keras.regularizers.OrthogonalRegularizer(0.7, "columns")),
    ]
    with hl.config.backend_scope("native"):
        for ours, theirs in pairs:
            expected = float(keras.ops.convert_to_numpy(theirs(keras.ops.convert_to_tensor(x))))
            assert val(ours(hl.ops.convert_to_tensor(x))) == pytest.approx(expected, rel=1e-5)
            assert R.deserialize(keras.regularizers.serialize(theirs)).get_config().keys() == theirs.get_config().keys()


@pytest.mark.parametrize(
    "name,cls",
    [
        ("l1", R.L1),
        ("L1", R.L1),
        ("l2", R.L2),
        ("L2", R.L2),
        ("l1l2", R.L1L2),
        ("l1_l2", R.L1L2),
        ("L1L2", R.L1L2),
        ("orthogonal_regularizer", R.OrthogonalRegularizer),
        ("OrthogonalRegularizer", R.OrthogonalRegularizer),
    ],
)
def test_get_by_name(name, cls):
    assert type(R.get(name)) is cls


def test_get_serialize_deserialize():
    assert R.get(None) is None
    assert R.serialize(None) is None
    reg = R.L1L2(l1=0.1, l2=0.2)
    assert R.get(reg) is reg
    assert type(R.get(R.L2)) is R.L2
    fn = lambda x: 0.0  # noqa: E731
    assert R.get(fn) is fn
    for reg in (R.L1(0.3), R.L2(0.2), R.L1L2(0.1, 0.2), R.OrthogonalRegularizer(0.5, "columns")):
        config = R.serialize(reg)
        json.dumps(config)
        assert config["class_name"] == type(reg).__name__
        again = R.get(config)
        assert type(again) is type(reg) and again.get_config() == reg.get_config()
        assert type(reg).from_config(reg.get_config()).get_config() == reg.get_config()
    with pytest.raises(ValueError, match="l1_l2"):
        R.get("l3")
    with pytest.raises(TypeError, match="Regularizer"):
        R.serialize(lambda x: x)
    assert R.l1 is R.L1 and R.l2 is R.L2 and R.l1_l2 is R.L1L2 and R.orthogonal_regularizer is R.OrthogonalRegularizer


def test_keras_config_values_match():
    os.environ.setdefault("KERAS_BACKEND", "jax")
    keras = pytest.importorskip("keras")
    assert R.L1(0.3).get_config() == pytest.approx(keras.regularizers.L1(0.3).get_config())
    assert R.L2(0.2).get_config() == keras.regularizers.L2(0.2).get_config()
    assert R.L1L2(0.1, 0.2).get_config() == keras.regularizers.L1L2(0.1, 0.2).get_config()
    theirs = keras.regularizers.OrthogonalRegularizer(0.5, "columns").get_config()
    ours = R.OrthogonalRegularizer(0.5, "columns").get_config()
    assert ours["mode"] == theirs["mode"] and ours["factor"] == pytest.approx(theirs["factor"])
