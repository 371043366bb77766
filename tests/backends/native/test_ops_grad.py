"""Every differentiable native op: forward against numpy in float64, gradient against central differences."""

import math

import numpy as np
import pytest

from highlevel.backends.native import NativeBackend

B = NativeBackend()
RNG = np.random.default_rng(0)


def _numeric_grads(f, arrays, eps=1e-6):
    """Central-difference gradient of sum(f(*arrays) * w) for a fixed random w."""
    out = np.asarray(f(*arrays), dtype=np.float64)
    w = np.random.default_rng(1).standard_normal(out.shape)
    grads = []
    for i, a in enumerate(arrays):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            plus = [x.copy() for x in arrays]
            minus = [x.copy() for x in arrays]
            plus[i][idx] += eps
            minus[i][idx] -= eps
            g[idx] = ((np.asarray(f(*plus)) - np.asarray(f(*minus))) * w).sum() / (2 * eps)
        grads.append(g)
    return w, grads


def check(op, *arrays, ref=None, rtol=1e-5, atol=1e-6, **kwargs):
    arrays = [np.asarray(a, dtype=np.float64) for a in arrays]

    def run(*xs):
        return B.to_numpy(op(*[B.convert_to_tensor(x) for x in xs], **kwargs))

    if ref is not None:
        np.testing.assert_allclose(run(*arrays), ref(*arrays), rtol=1e-10, atol=1e-12)
    w, numeric = _numeric_grads(run, arrays)

    def loss(*xs):
        return B.sum(B.multiply(op(*xs, **kwargs), B.convert_to_tensor(w)))

    _, grads = B.value_and_grad(loss, argnums=tuple(range(len(arrays))))(*[B.convert_to_tensor(a) for a in arrays])
    for g, n in zip(grads, numeric):
        assert B.dtype(g) == "float64"
        np.testing.assert_allclose(B.to_numpy(g), n, rtol=rtol, atol=atol)


def rand(*shape, lo=-2.0, hi=2.0):
    return RNG.uniform(lo, hi, shape)


UNARY = [
    ("negative", np.negative, (-2, 2)),
    ("abs", np.abs, (0.1, 2)),
    ("sqrt", np.sqrt, (0.2, 3)),
    ("square", np.square, (-2, 2)),
    ("exp", np.exp, (-2, 2)),
    ("expm1", np.expm1, (-2, 2)),
    ("log", np.log, (0.2, 3)),
    ("log1p", np.log1p, (-0.5, 2)),
    ("log2", np.log2, (0.2, 3)),
    ("log10", np.log10, (0.2, 3)),
    ("sin", np.sin, (-2, 2)),
    ("cos", np.cos, (-2, 2)),
    ("tan", np.tan, (-1, 1)),
    ("arcsin", np.arcsin, (-0.8, 0.8)),
    ("arccos", np.arccos, (-0.8, 0.8)),
    ("arctan", np.arctan, (-2, 2)),
    ("sinh", np.sinh, (-2, 2)),
    ("cosh", np.cosh, (-2, 2)),
    ("tanh", np.tanh, (-2, 2)),
    ("arcsinh", np.arcsinh, (-2, 2)),
    ("arccosh", np.arccosh, (1.2, 3)),
    ("arctanh", np.arctanh, (-0.8, 0.8)),
    ("reciprocal", np.reciprocal, (0.5, 2)),
    ("rsqrt", lambda x: 1 / np.sqrt(x), (0.5, 2)),
    ("erf", np.vectorize(math.erf), (-3, 3)),
    ("relu", lambda x: np.maximum(x, 0), (-2, 2)),
    ("relu6", lambda x: np.clip(x, 0, 6), (-2, 8)),
    ("sigmoid", lambda x: 1 / (1 + np.exp(-x)), (-4, 4)),
    ("softplus", lambda x: np.log1p(np.exp(x)), (-4, 4)),
    ("softsign", lambda x: x / (1 + np.abs(x)), (-3, 3)),
    ("silu", lambda x: x / (1 + np.exp(-x)), (-3, 3)),
    ("elu", lambda x: np.where(x > 0, x, np.expm1(x)), (-3, 3)),
    ("selu", lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(x)), (-3, 3)),
    ("leaky_relu", lambda x: np.where(x >= 0, x, 0.2 * x), (-3, 3)),
    ("hard_sigmoid", lambda x: np.clip(x / 6 + 0.5, 0, 1), (-5, 5)),
]


@pytest.mark.parametrize("name,ref,rng", UNARY, ids=[u[0] for u in UNARY])
def test_unary(name, ref, rng):
    x = rand(3, 4, lo=rng[0], hi=rng[1])
    x = np.where(np.abs(x) < 1e-3, 0.5, x)  # keep away from kinks
    check(getattr(B, name), x, ref=ref)


def test_gelu_both_forms():
    x = rand(5)
    exact = 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))
    approx = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    check(lambda t: B.gelu(t, approximate=False), x, ref=lambda a: exact)
    check(lambda t: B.gelu(t, approximate=True), x, ref=lambda a: approx)


BINARY = [
    ("add", np.add),
    ("subtract", np.subtract),
    ("multiply", np.multiply),
    ("divide", np.divide),
    ("maximum", np.maximum),
    ("minimum", np.minimum),
    ("logaddexp", np.logaddexp),
    ("arctan2", np.arctan2),
    ("mod", np.mod),
]


@pytest.mark.parametrize("name,ref", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 1, 3), (4, 1))])
def test_binary_broadcasting(name, ref, shapes):
    a, b = rand(*shapes[0]), rand(*shapes[1], lo=0.5, hi=2.0)
    check(getattr(B, name), a, b, ref=ref)


def test_power_both_operands():
    check(B.power, rand(3, 2, lo=0.5, hi=2), rand(2, lo=-1.5, hi=1.5), ref=np.power)


REDUCTIONS = ["sum", "mean", "max", "min", "prod", "var", "std", "logsumexp"]


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("axis,keepdims", [(None, False), (1, False), ((0, 2), True), (-1, True)])
def test_reductions(name, axis, keepdims):
    x = rand(2, 3, 4, lo=0.5, hi=1.5)
    refs = {
        "logsumexp": lambda a, axis, keepdims: np.log(np.exp(a).sum(axis=axis, keepdims=keepdims)),
        "max": np.max,
        "min": np.min,
        "sum": np.sum,
        "mean": np.mean,
        "prod": np.prod,
        "var": np.var,
        "std": np.std,
    }
    check(
        lambda t: getattr(B, name)(t, axis=axis, keepdims=keepdims),
        x,
        ref=lambda a: refs[name](a, axis=axis, keepdims=keepdims),
    )


def test_prod_with_zeros_and_cumulative_ops():
    x = rand(3, 4)
    x[1, 2] = 0.0
    x[2, 0] = x[2, 3] = 0.0
    check(lambda t: B.prod(t, axis=1), x, ref=lambda a: a.prod(axis=1))
    check(lambda t: B.cumprod(t, axis=1), x, ref=lambda a: np.cumprod(a, axis=1))
    check(lambda t: B.cumprod(t, axis=0), rand(4, 2, lo=0.5, hi=2), ref=lambda a: np.cumprod(a, axis=0))
    check(lambda t: B.cumsum(t, axis=0), x, ref=lambda a: np.cumsum(a, axis=0))
    check(lambda t: B.cumsum(t), x, ref=lambda a: np.cumsum(a))


def test_max_ties_share_the_gradient():
    x = B.convert_to_tensor(np.array([1.0, 3.0, 3.0, 2.0]))
    _, g = B.value_and_grad(lambda t: B.max(t))(x)
    assert B.to_numpy(g).tolist() == [0.0, 0.5, 0.5, 0.0]
    _, (g1, g2) = B.value_and_grad(lambda a, b: B.sum(B.maximum(a, b)), argnums=(0, 1))(
        B.convert_to_tensor(np.array([1.0, 2.0])), B.convert_to_tensor(np.array([1.0, 1.0]))
    )
    assert B.to_numpy(g1).tolist() == [0.5, 1.0] and B.to_numpy(g2).tolist() == [0.5, 0.0]


def test_kink_conventions_match_jax():
    z = B.convert_to_tensor(np.array([0.0, -1.0, 2.0, 6.0]))
    for name, want in [("relu", [0, 0, 1, 1]), ("abs", [0, -1, 1, 1]), ("relu6", [0, 0, 1, 0])]:
        _, g = B.value_and_grad(lambda t: B.sum(getattr(B, name)(t)))(z)
        assert B.to_numpy(g).tolist() == want, name
    _, g = B.value_and_grad(lambda t: B.sum(B.clip(t, -1.0, 2.0)))(z)
    assert B.to_numpy(g).tolist() == [1, 1, 1, 0]
    _, g = B.value_and_grad(lambda t: B.sum(B.sqrt(t)))(B.convert_to_tensor(np.array([0.0])))
    assert np.isinf(B.to_numpy(g)).all()


def test_linalg():
    check(B.matmul, rand(3, 4), rand(4, 2), ref=np.matmul)
    check(B.matmul, rand(2, 3, 4), rand(4, 2), ref=np.matmul)
    check(B.matmul, rand(2, 1, 3, 4), rand(5, 4, 2), ref=np.matmul)
    check(B.matmul, rand(4), rand(2, 4, 3), ref=np.matmul)
    check(B.matmul, rand(2, 3, 4), rand(4), ref=np.matmul)
    check(B.matmul, rand(4), rand(4), ref=np.matmul)
    check(
        lambda a, b: B.einsum("bij,bjk->bik", a, b),
        rand(2, 3, 4),
        rand(2, 4, 2),
        ref=lambda a, b: np.einsum("bij,bjk->bik", a, b),
    )
    check(
        lambda a, b: B.einsum("...ij,jk", a, b), rand(2, 3, 4), rand(4, 2), ref=lambda a, b: np.einsum("...ij,jk", a, b)
    )
    check(lambda a: B.einsum("ii->i", a), rand(3, 3), ref=lambda a: np.einsum("ii->i", a))
    check(lambda a, b: B.einsum("ij,k->i", a, b), rand(3, 2), rand(4), ref=lambda a, b: np.einsum("ij,k->i", a, b))
    check(
        lambda a, b, c: B.einsum("ij,jk,kl->il", a, b, c),
        rand(2, 3),
        rand(3, 4),
        rand(4, 2),
        ref=lambda a, b, c: a @ b @ c,
    )
    check(
        lambda a, b: B.tensordot(a, b, axes=([1, 2], [0, 1])),
        rand(2, 3, 4),
        rand(3, 4, 5),
        ref=lambda a, b: np.tensordot(a, b, axes=([1, 2], [0, 1])),
    )
    check(lambda a, b: B.tensordot(a, b, axes=1), rand(2, 3), rand(3, 4), ref=lambda a, b: np.tensordot(a, b, 1))
    check(B.outer, rand(3), rand(2, 2), ref=np.outer)


def test_shape_ops():
    x = rand(2, 3, 4)
    check(lambda t: B.reshape(t, (4, -1)), x, ref=lambda a: a.reshape(4, -1))
    check(lambda t: B.transpose(t, (2, 0, 1)), x, ref=lambda a: a.transpose(2, 0, 1))
    check(lambda t: B.swapaxes(t, 0, 2), x, ref=lambda a: a.swapaxes(0, 2))
    check(lambda t: B.moveaxis(t, 0, -1), x, ref=lambda a: np.moveaxis(a, 0, -1))
    check(lambda a, b: B.concatenate([a, b], axis=1), x, rand(2, 2, 4), ref=lambda a, b: np.concatenate([a, b], axis=1))
    check(lambda a, b: B.stack([a, b], axis=-1), x, x + 1, ref=lambda a, b: np.stack([a, b], axis=-1))
    check(lambda t: B.split(t, [1, 3], axis=2)[1], x, ref=lambda a: np.split(a, [1, 3], axis=2)[1])
    check(lambda t: B.expand_dims(t, (0, -1)), x, ref=lambda a: a[None, ..., None])
    check(lambda t: B.squeeze(t, 1), rand(2, 1, 3), ref=lambda a: a[:, 0])
    check(lambda t: B.take(t, np.array([2, 0, 2, -1]), axis=1), x, ref=lambda a: np.take(a, [2, 0, 2, -1], axis=1))
    check(lambda t: B.take(t, np.array([[1, 5], [5, 23]])), x, ref=lambda a: np.take(a, [[1, 5], [5, 23]]))
    idx = np.array([[[0, 3, 3]]])
    check(lambda t: B.take_along_axis(t, idx, axis=2), x, ref=lambda a: np.take_along_axis(a, idx, axis=2))
    for mode in ("constant", "reflect", "symmetric", "edge"):
        check(
            lambda t: B.pad(t, ((1, 2), (0, 1), (2, 2)), mode=mode),
            x,
            ref=lambda a: np.pad(a, ((1, 2), (0, 1), (2, 2)), mode=mode),
        )
    check(lambda t: B.tile(t, (2, 1, 1, 3)), x, ref=lambda a: np.tile(a, (2, 1, 1, 3)))
    check(lambda t: B.repeat(t, 2, axis=1), x, ref=lambda a: np.repeat(a, 2, axis=1))
    check(lambda t: B.repeat(t, np.array([1, 0, 3]), axis=1), x, ref=lambda a: np.repeat(a, [1, 0, 3], axis=1))
    check(lambda t: B.repeat(t, 2), x, ref=lambda a: np.repeat(a, 2))
    check(lambda t: B.broadcast_to(t, (5, 3, 4)), rand(3, 1), ref=lambda a: np.broadcast_to(a, (5, 3, 4)))
    check(lambda t: B.flip(t, 1), x, ref=lambda a: np.flip(a, 1))
    check(lambda t: B.flip(t), x, ref=lambda a: np.flip(a))


def test_indexing_and_ordering():
    x = rand(4, 3)
    check(lambda t: B.getitem(t, (slice(1, None), 0)), x, ref=lambda a: a[1:, 0])
    check(lambda t: B.getitem(t, (None, Ellipsis, 1)), x, ref=lambda a: a[None, ..., 1])
    check(lambda t: B.getitem(t, np.array([0, 2, 0])), x, ref=lambda a: a[[0, 2, 0]])
    check(lambda t: B.getitem(t, (slice(None), np.array([1, 1]))), x, ref=lambda a: a[:, [1, 1]])
    check(lambda t: t[x > 0], x, ref=lambda a: a[x > 0])
    check(lambda t: B.slice(t, (1, 1), (2, 2)), x, ref=lambda a: a[1:3, 1:3])
    check(
        lambda a, u: B.slice_update(a, (1, 0), u),
        x,
        rand(2, 2),
        ref=lambda a, u: np.concatenate([a[:1], np.concatenate([u, a[1:3, 2:]], 1), a[3:]]),
    )
    check(lambda t: B.sort(t, axis=0), x, ref=lambda a: np.sort(a, axis=0))
    check(lambda t: B.top_k(t, 2)[0], x, ref=lambda a: -np.sort(-a, axis=-1)[:, :2])
    check(lambda a, b: B.where(a > 0, a, b), x, rand(3), ref=lambda a, b: np.where(a > 0, a, b))
    check(lambda t: B.nan_to_num(t), x, ref=np.nan_to_num)
    _, g = B.value_and_grad(lambda t: B.sum(B.multiply(B.cast(t, "float32"), 2.0)))(B.convert_to_tensor(x))
    assert B.dtype(g) == "float64" and (B.to_numpy(g) == 2.0).all()


def test_softmax_family():
    x = rand(2, 3, 4)
    sm = lambda a, axis: np.exp(a) / np.exp(a).sum(axis=axis, keepdims=True)  # noqa: E731
    check(lambda t: B.softmax(t, axis=-1), x, ref=lambda a: sm(a, -1))
    check(lambda t: B.softmax(t, axis=(0, 2)), x, ref=lambda a: sm(a, (0, 2)))
    check(lambda t: B.log_softmax(t, axis=1), x, ref=lambda a: np.log(sm(a, 1)))
    check(lambda t: B.moments(t, axes=(0, 1))[0], x, ref=lambda a: a.mean(axis=(0, 1)))
    check(lambda t: B.moments(t, axes=(0, 1), keepdims=True)[1], x, ref=lambda a: a.var(axis=(0, 1), keepdims=True))


def test_extreme_inputs_stay_finite():
    big = B.convert_to_tensor(np.array([1e4, -1e4, 0.0], np.float32))
    for name in ("softmax", "log_softmax", "sigmoid", "softplus", "logsumexp"):
        out = B.to_numpy(getattr(B, name)(big))
        assert np.isfinite(out).all(), name
        _, g = B.value_and_grad(lambda t: B.sum(getattr(B, name)(t)))(big)
        assert np.isfinite(B.to_numpy(g)).all(), name
