"""The native engine's fused primitives agree with the unfused ops they replace, in value and gradient."""

import numpy as np
import pytest

from highlevel.backends.native import NativeBackend, ops_fused

B = NativeBackend()


def _vg(fn, arrays):
    value, grads = B.value_and_grad(fn)([B.convert_to_tensor(a) for a in arrays])
    return B.to_numpy(value), [None if g is None else B.to_numpy(g) for g in grads]


@pytest.mark.parametrize("activation", [None, "linear", "relu"])
@pytest.mark.parametrize("use_bias", [True, False])
@pytest.mark.parametrize("lead", [(5,), (2, 3)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dense_matches_unfused(activation, use_bias, lead, dtype):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(lead + (4,)).astype(dtype)
    w = rng.standard_normal((4, 3)).astype(dtype)
    b = rng.standard_normal(3).astype(dtype)
    weights = rng.standard_normal(lead + (3,)).astype(dtype)
    arrays = [x, w, b] if use_bias else [x, w]

    def fused(ps):
        return B.sum(B.dense(ps[0], ps[1], ps[2] if use_bias else None, activation) * weights)

    def unfused(ps):
        y = B.matmul(ps[0], ps[1])
        if use_bias:
            y = B.add(y, ps[2])
        if activation == "relu":
            y = B.relu(y)
        return B.sum(y * weights)

    v1, g1 = _vg(fused, arrays)
    v2, g2 = _vg(unfused, arrays)
    tol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(v1, v2, rtol=tol, atol=tol)
    for a, c in zip(g1, g2):
        np.testing.assert_allclose(a, c, rtol=tol, atol=tol)
    assert B.dtype(B.dense(x, w, b if use_bias else None, activation)) == dtype


def test_dense_relu_gradient_is_zero_at_zero():
    x = B.convert_to_tensor(np.array([[1.0, -1.0]], np.float32))
    w = np.array([[1.0], [1.0]], np.float32)  # x @ w == 0 exactly
    _, (gw,) = B.value_and_grad(lambda ps: B.sum(B.dense(x, ps[0], None, "relu")))([B.convert_to_tensor(w)])
    np.testing.assert_array_equal(B.to_numpy(gw), np.zeros((2, 1), np.float32))


def test_dense_rejects_bad_arguments():
    x, w = np.ones((2, 3), np.float32), np.ones((4, 5), np.float32)
    with pytest.raises(ValueError, match="kernel"):
        B.dense(x, w)
    with pytest.raises(ValueError, match="activation"):
        B.dense(x, np.ones((3, 5), np.float32), None, "gelu")
    with pytest.raises(ValueError, match="bias"):
        B.dense(x, np.ones((3, 5), np.float32), np.ones(4, np.float32))


@pytest.mark.parametrize("axis", [-1, 0])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sparse_softmax_cross_entropy_matches_unfused(axis, dtype):
    rng = np.random.default_rng(1)
    logits = rng.standard_normal((6, 4)).astype(dtype) * 3
    n_classes = logits.shape[axis]
    labels = rng.integers(0, n_classes, logits.shape[1 - (axis % 2)]).astype(np.int64)
    weights = rng.standard_normal(labels.shape).astype(dtype)

    def fused(ps):
        return B.sum(B.sparse_softmax_cross_entropy(labels, ps[0], axis=axis) * weights)

    def unfused(ps):
        lp = B.log_softmax(ps[0], axis=axis)
        picked = B.take_along_axis(lp, B.expand_dims(B.convert_to_tensor(labels), axis), axis=axis)
        return B.sum(-B.squeeze(picked, axis) * weights)

    v1, (g1,) = _vg(fused, [logits])
    v2, (g2,) = _vg(unfused, [logits])
    tol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(v1, v2, rtol=tol, atol=tol)
    np.testing.assert_allclose(g1, g2, rtol=tol, atol=tol)


def test_sparse_softmax_cross_entropy_is_finite_for_huge_logits():
    out = B.to_numpy(B.sparse_softmax_cross_entropy([0, 1], np.array([[1e4, -1e4], [1e4, -1e4]], np.float32)))
    assert np.all(np.isfinite(out))
    np.testing.assert_allclose(out, [0.0, 2e4], rtol=1e-6)


def test_sparse_softmax_cross_entropy_rejects_bad_labels():
    logits = np.zeros((2, 3), np.float32)
    with pytest.raises(ValueError, match="range|must be in"):
        B.sparse_softmax_cross_entropy([0, 3], logits)
    with pytest.raises(TypeError, match="integer"):
        B.sparse_softmax_cross_entropy(np.array([0.0, 1.0]), logits)
    with pytest.raises(ValueError, match="shape"):
        B.sparse_softmax_cross_entropy([0, 1, 2], logits)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_adam_step_matches_the_formula_and_leaves_inputs_alone(dtype):
    rng = np.random.default_rng(2)
    p, m, v, g = (rng.standard_normal((5, 4)).astype(dtype) for _ in range(4))
    v = np.abs(v)
    originals = [a.copy() for a in (p, m, v, g)]
    tensors = [B.convert_to_tensor(a) for a in (p, m, v, g)]
    new_p, new_m, new_v = (B.to_numpy(t) for t in ops_fused.adam_step(*tensors, 0.01, 0.9, 0.999, 1e-7))
    m2 = m + (g - m) * 0.1
    v2 = v + (g * g - v) * 0.001
    p2 = p - 0.01 * m2 / (np.sqrt(v2) + 1e-7)
    tol = 1e-6 if dtype == "float32" else 1e-13
    for got, want in ((new_p, p2), (new_m, m2), (new_v, v2)):
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    for t, a in zip(tensors, originals):
        np.testing.assert_array_equal(B.to_numpy(t), a)
