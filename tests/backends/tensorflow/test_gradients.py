"""Gradient conventions of the TensorFlow backend (JAX's, as the contract asks)."""

import numpy as np
import pytest


def _grad(b, fn, *args, argnums=0):
    g = b.grad(lambda *a: b.sum(fn(*a)), argnums=argnums)(*args)
    if isinstance(g, tuple):
        return tuple(b.to_numpy(x) for x in g)
    return b.to_numpy(g)


@pytest.mark.parametrize(
    "op,x,want",
    [
        ("relu", [-1.0, 0.0, 2.0], [0.0, 0.0, 1.0]),
        ("abs", [-1.0, 0.0, 2.0], [-1.0, 0.0, 1.0]),
        ("relu6", [0.0, 3.0, 6.0, 7.0], [0.0, 1.0, 0.0, 0.0]),
        ("leaky_relu", [-1.0, 0.0, 1.0], [0.2, 1.0, 1.0]),
        ("sign", [-1.0, 0.0, 1.0], [0.0, 0.0, 0.0]),
        ("floor", [0.5, 1.5], [0.0, 0.0]),
        ("round", [0.5, 1.7], [0.0, 0.0]),
    ],
)
def test_elementwise_kinks(tfb, op, x, want):
    np.testing.assert_allclose(_grad(tfb, getattr(tfb, op), np.array(x, "float32")), want)


def test_sqrt_at_zero_is_inf(tfb):
    assert np.isinf(_grad(tfb, tfb.sqrt, np.array([0.0], "float32"))[0])


def test_clip_inclusive_bounds(tfb):
    g = _grad(tfb, lambda x: tfb.clip(x, -1.0, 1.0), np.array([-2.0, -1.0, 0.0, 1.0, 2.0], "float32"))
    np.testing.assert_allclose(g, [0.0, 1.0, 1.0, 1.0, 0.0])


def test_max_reduction_splits_among_ties(tfb):
    g = _grad(tfb, tfb.max, np.array([1.0, 3.0, 3.0, 2.0], "float32"))
    np.testing.assert_allclose(g, [0.0, 0.5, 0.5, 0.0])
    g = _grad(tfb, lambda x: tfb.min(x, axis=1), np.array([[1.0, 1.0], [0.0, 2.0]], "float32"))
    np.testing.assert_allclose(g, [[0.5, 0.5], [1.0, 0.0]])


def test_maximum_minimum_split_ties(tfb):
    x, y = np.array([1.0, 2.0, 3.0], "float32"), np.array([1.0, 1.0, 4.0], "float32")
    gx, gy = _grad(tfb, tfb.maximum, x, y, argnums=(0, 1))
    np.testing.assert_allclose(gx, [0.5, 1.0, 0.0])
    np.testing.assert_allclose(gy, [0.5, 0.0, 1.0])
    gx, gy = _grad(tfb, tfb.minimum, x, y, argnums=(0, 1))
    np.testing.assert_allclose(gx, [0.5, 0.0, 1.0])
    np.testing.assert_allclose(gy, [0.5, 1.0, 0.0])


@pytest.mark.parametrize("op", ["softmax", "log_softmax", "logsumexp", "sigmoid", "softplus"])
def test_stable_ops_have_finite_gradients_at_1e4(tfb, op):
    x = np.array([1e4, -1e4, 0.0], "float32")
    assert np.isfinite(tfb.to_numpy(getattr(tfb, op)(x))).all()
    f = (lambda v: getattr(tfb, op)(v) * np.array([1.0, 2.0, 3.0], "float32")) if op != "logsumexp" else tfb.logsumexp
    assert np.isfinite(_grad(tfb, f, x)).all()


def test_elu_gradient_finite_for_large_inputs(tfb):
    g = _grad(tfb, tfb.elu, np.array([1e4, -1e4, 0.0], "float32"))
    np.testing.assert_allclose(g, [1.0, 0.0, 1.0])


def test_slice_update_differentiable_in_both(tfb):
    x = np.arange(6, dtype="float32").reshape(2, 3)
    u = np.ones((1, 2), "float32")
    f = lambda a, b: tfb.slice_update(a, (1, 1), b) * np.arange(6, dtype="float32").reshape(2, 3)  # noqa: E731
    gx, gu = _grad(tfb, f, x, u, argnums=(0, 1))
    np.testing.assert_allclose(gx, [[0.0, 1.0, 2.0], [3.0, 0.0, 0.0]])
    np.testing.assert_allclose(gu, [[4.0, 5.0]])


def test_gather_ops_gradients(tfb):
    x = np.arange(6, dtype="float32").reshape(2, 3)
    np.testing.assert_allclose(
        _grad(tfb, lambda a: tfb.getitem(a, (slice(None), [0, 0, -1])), x), [[2.0, 0.0, 1.0], [2.0, 0.0, 1.0]]
    )
    np.testing.assert_allclose(
        _grad(tfb, lambda a: tfb.take_along_axis(a, np.array([[0], [2]]), 1), x), [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    )
    np.testing.assert_allclose(
        _grad(tfb, lambda a: tfb.pad(a, ((0, 0), (2, 0)), "edge"), x), [[3.0, 1.0, 1.0], [3.0, 1.0, 1.0]]
    )


@pytest.mark.parametrize(
    "op,x_shape,k_shape",
    [
        ("conv", (1, 5, 5, 4), (3, 3, 2, 4)),  # grouped: no CPU gradient kernel in TensorFlow
        ("conv", (1, 4, 4, 4, 2), (2, 2, 2, 2, 2)),  # 3-D
        ("depthwise_conv", (1, 6, 3), (3, 3, 2)),  # 1-D depthwise
        ("conv_transpose", (1, 4, 4, 2), (3, 3, 3, 2)),
    ],
)
def test_conv_family_gradients_run(tfb, op, x_shape, k_shape):
    rng = np.random.default_rng(0)
    x, k = rng.standard_normal(x_shape).astype("float32"), rng.standard_normal(k_shape).astype("float32")
    extra = (1,) if op == "conv_transpose" else ()
    gx, gk = _grad(tfb, lambda a, b: getattr(tfb, op)(a, b, *extra, padding="same"), x, k, argnums=(0, 1))
    assert gx.shape == x.shape and gk.shape == k.shape
    assert np.isfinite(gx).all() and np.abs(gk).sum() > 0


@pytest.mark.parametrize("op", ["max_pool", "average_pool"])
def test_pool_3d_gradient(tfb, op):
    x = np.arange(16, dtype="float32").reshape(1, 2, 2, 4, 1)
    g = _grad(tfb, lambda a: getattr(tfb, op)(a, 2), x)
    assert g.shape == x.shape
    assert g.sum() == pytest.approx(2.0)  # two pooled outputs, each passing a total gradient of 1


def test_take_gradient_is_dense(tfb, tf):
    g = tfb.grad(lambda a: tfb.sum(tfb.take(a, np.array([0, -1, 0]))))(np.arange(4, dtype="float32"))
    assert isinstance(g, tf.Tensor)
    np.testing.assert_allclose(g.numpy(), [2.0, 0.0, 0.0, 1.0])
