"""JAX backend numpy-like ops against numpy, with the contract's edge cases."""

import numpy as np
import pytest

import highlevel as hl

pytest.importorskip("jax")

from highlevel.backends import get  # noqa: E402

RNG = np.random.RandomState(0)
X = RNG.randn(3, 4).astype("float32")
POS = (np.abs(X) + 0.1).astype("float32")
UNIT = np.clip(X / 4, -0.9, 0.9).astype("float32")
XI = np.arange(-5, 7, dtype="int32").reshape(3, 4)


@pytest.fixture(scope="module")
def b():
    return get("jax")


def close(b, actual, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(b.to_numpy(actual), expected, rtol=rtol, atol=atol)


UNARY = [
    ("negative", X, np.negative),
    ("abs", X, np.abs),
    ("sign", X, np.sign),
    ("sqrt", POS, np.sqrt),
    ("square", X, np.square),
    ("exp", X, np.exp),
    ("expm1", X, np.expm1),
    ("log", POS, np.log),
    ("log1p", POS, np.log1p),
    ("log2", POS, np.log2),
    ("log10", POS, np.log10),
    ("sin", X, np.sin),
    ("cos", X, np.cos),
    ("tan", UNIT, np.tan),
    ("arcsin", UNIT, np.arcsin),
    ("arccos", UNIT, np.arccos),
    ("arctan", X, np.arctan),
    ("sinh", X, np.sinh),
    ("cosh", X, np.cosh),
    ("tanh", X, np.tanh),
    ("arcsinh", X, np.arcsinh),
    ("arccosh", POS + 1, np.arccosh),
    ("arctanh", UNIT, np.arctanh),
    ("floor", X, np.floor),
    ("ceil", X, np.ceil),
    ("reciprocal", POS, np.reciprocal),
    ("rsqrt", POS, lambda v: 1 / np.sqrt(v)),
    ("isnan", X, np.isnan),
    ("isinf", X, np.isinf),
    ("isfinite", X, np.isfinite),
    ("logical_not", X > 0, np.logical_not),
]


@pytest.mark.parametrize("name, x, ref", UNARY, ids=[u[0] for u in UNARY])
def test_unary(b, name, x, ref):
    close(b, getattr(b, name)(x), ref(x), rtol=1e-5, atol=1e-6)


def test_erf_round_clip_nan_to_num(b):
    from math import erf

    close(b, b.erf(X), np.vectorize(erf)(X.astype(np.float64)), rtol=1e-5)
    close(b, b.round(np.array([0.5, 1.5, 2.5, -0.5], "float32")), [0.0, 2.0, 2.0, -0.0])
    close(b, b.round(np.array([1.234, 5.678], "float32"), 1), [1.2, 5.7])
    close(b, b.clip(X, -0.5, 0.5), np.clip(X, -0.5, 0.5))
    close(b, b.clip(XI, -2, 3), np.clip(XI, -2, 3))
    assert np.isnan(b.to_numpy(b.clip(np.array([np.nan], "float32"), 0.0, 1.0))[0])
    v = np.array([np.nan, np.inf, -np.inf, 1.0], "float32")
    out = b.to_numpy(b.nan_to_num(v, nan=0.5))
    assert out[0] == 0.5 and out[1] == np.finfo(np.float32).max and out[2] == np.finfo(np.float32).min
    close(b, b.nan_to_num(v, posinf=9.0, neginf=-9.0), [0.0, 9.0, -9.0, 1.0])


BINARY = [
    ("add", np.add),
    ("subtract", np.subtract),
    ("multiply", np.multiply),
    ("divide", np.divide),
    ("power", None),
    ("arctan2", np.arctan2),
    ("maximum", np.maximum),
    ("minimum", np.minimum),
    ("logaddexp", np.logaddexp),
    ("equal", np.equal),
    ("not_equal", np.not_equal),
    ("less", np.less),
    ("less_equal", np.less_equal),
    ("greater", np.greater),
    ("greater_equal", np.greater_equal),
]


@pytest.mark.parametrize("name, ref", BINARY, ids=[b_[0] for b_ in BINARY])
def test_binary_broadcasting(b, name, ref):
    y = RNG.randn(4).astype("float32")
    if name == "power":
        close(b, b.power(POS, y), np.power(POS, y), rtol=1e-5)
        return
    close(b, getattr(b, name)(X, y), ref(X, y))
    close(b, getattr(b, name)(X, 0.5), ref(X, np.float32(0.5)))


def test_integer_division_semantics(b):
    a = np.array([7, -7, 7, -7], "int32")
    c = np.array([2, 2, -2, -2], "int32")
    np.testing.assert_array_equal(b.to_numpy(b.floor_divide(a, c)), a // c)
    np.testing.assert_array_equal(b.to_numpy(b.mod(a, c)), a % c)
    close(b, b.divide(a, c), a / c)
    af, cf = a.astype("float32"), c.astype("float32")
    close(b, b.floor_divide(af, cf), af // cf)
    close(b, b.mod(af, cf), np.mod(af, cf))
    np.testing.assert_array_equal(b.to_numpy(b.power(a, 2)), a**2)


def test_logical_binary(b):
    p, q = np.array([True, True, False, False]), np.array([True, False, True, False])
    for name in ("logical_and", "logical_or", "logical_xor"):
        np.testing.assert_array_equal(b.to_numpy(getattr(b, name)(p, q)), getattr(np, name)(p, q))


def test_nan_propagation(b):
    v = np.array([np.nan, 1.0, -1.0], "float32")
    assert np.isnan(b.to_numpy(b.maximum(v, 0.0))[0])
    assert np.isnan(b.to_numpy(b.minimum(v, 0.0))[0])
    assert np.isnan(b.to_numpy(b.max(v)))
    assert np.isnan(b.to_numpy(b.min(v)))
    assert np.isnan(b.to_numpy(b.relu(v))[0])


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1), (-2,)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(b, axis, keepdims):
    for name, ref in (
        ("sum", np.sum),
        ("mean", np.mean),
        ("max", np.max),
        ("min", np.min),
        ("prod", np.prod),
        ("var", np.var),
        ("std", np.std),
        ("any", np.any),
        ("all", np.all),
    ):
        x = X > 0 if name in ("any", "all") else X
        close(b, getattr(b, name)(x, axis=axis, keepdims=keepdims), ref(x, axis=axis, keepdims=keepdims), rtol=1e-5)
    lse = np.log(np.sum(np.exp(X.astype(np.float64)), axis=axis, keepdims=keepdims))
    close(b, b.logsumexp(X, axis=axis, keepdims=keepdims), lse, rtol=1e-5)


def test_reduction_edge_cases(b):
    with pytest.raises(ValueError, match="empty"):
        b.max(np.zeros((0, 3), "float32"), axis=0)
    with pytest.raises(ValueError):
        b.min(np.zeros((0,), "float32"))
    close(b, b.max(np.zeros((0, 3), "float32"), axis=1), np.zeros((0,)))
    assert float(b.sum(np.zeros((0,), "float32"))) == 0.0
    assert np.isnan(b.to_numpy(b.mean(np.zeros((0,), "float32"))))
    assert b.dtype(b.mean(XI)) == "float32"
    close(b, b.mean(XI, axis=0), XI.mean(axis=0))


def test_arg_and_cumulative(b):
    v = np.array([[1.0, 3.0, 3.0], [2.0, 0.0, 0.0]], "float32")
    np.testing.assert_array_equal(b.to_numpy(b.argmax(v, axis=1)), [1, 0])
    np.testing.assert_array_equal(b.to_numpy(b.argmin(v, axis=1)), [0, 1])
    assert int(b.argmax(v)) == 1
    assert b.shape(b.argmax(v, axis=1, keepdims=True)) == (2, 1)
    close(b, b.cumsum(X, axis=1), np.cumsum(X, axis=1))
    close(b, b.cumsum(X), np.cumsum(X))
    close(b, b.cumprod(X, axis=0), np.cumprod(X, axis=0))
    assert b.dtype(b.cumsum(XI, dtype="float32")) == "float32"


def test_softmax_family_finite_for_large_inputs(b):
    big = np.array([[1e4, -1e4, 0.0], [-1e4, -1e4, -1e4]], "float32")
    for f in (b.softmax, b.log_softmax, b.sigmoid, b.softplus, lambda v: b.logsumexp(v, axis=-1)):
        assert np.isfinite(b.to_numpy(f(big))).all()
    close(b, b.softmax(big), [[1, 0, 0], [1 / 3, 1 / 3, 1 / 3]])
    close(b, b.softplus(big)[0], [1e4, 0, np.log(2)], rtol=1e-6)
    close(b, b.logsumexp(big, axis=-1), [1e4, -1e4 + np.log(3)], rtol=1e-6)


def test_linear_algebra(b):
    y = RNG.randn(4, 2).astype("float32")
    close(b, b.matmul(X, y), X @ y, rtol=1e-4)
    close(b, b.matmul(X[0], y), X[0] @ y, rtol=1e-4)
    batch = RNG.randn(5, 3, 4).astype("float32")
    close(b, b.matmul(batch, y), batch @ y, rtol=1e-4)
    close(b, b.einsum("ij,jk->ik", X, y), X @ y, rtol=1e-4)
    close(b, b.tensordot(X, y, axes=1), np.tensordot(X, y, axes=1), rtol=1e-4)
    close(b, b.tensordot(X, X, axes=([1], [1])), np.tensordot(X, X, axes=([1], [1])), rtol=1e-4)
    close(b, b.outer(X[0], y[:, 0]), np.outer(X[0], y[:, 0]))
    assert b.dtype(b.matmul(XI, XI.T)) == "int32"


def test_shape_ops(b):
    close(b, b.reshape(X, (-1, 2)), X.reshape(-1, 2))
    close(b, b.transpose(X), X.T)
    t3 = RNG.randn(2, 3, 4).astype("float32")
    close(b, b.transpose(t3, (1, 0, 2)), t3.transpose(1, 0, 2))
    close(b, b.swapaxes(t3, 0, 2), np.swapaxes(t3, 0, 2))
    close(b, b.moveaxis(t3, 0, -1), np.moveaxis(t3, 0, -1))
    close(b, b.concatenate([X, X], axis=1), np.concatenate([X, X], axis=1))
    close(b, b.stack([X, X], axis=-1), np.stack([X, X], axis=-1))
    for got, want in zip(b.split(X, 2, axis=1), np.split(X, 2, axis=1)):
        close(b, got, want)
    for got, want in zip(b.split(X, [1, 3], axis=1), np.split(X, [1, 3], axis=1)):
        close(b, got, want)
    with hl.config.backend_scope("jax"), pytest.raises(ValueError, match="equal sections"):
        hl.ops.split(X, 3, axis=1)  # checked once, by the front door
    assert b.shape(b.expand_dims(X, (0, -1))) == (1, 3, 4, 1)
    assert b.shape(b.squeeze(X[None, :, None])) == (3, 4)
    assert b.shape(b.squeeze(X[None, :, None], axis=2)) == (1, 3, 4)
    with hl.config.backend_scope("jax"), pytest.raises(ValueError, match="squeeze"):
        hl.ops.squeeze(X, axis=0)  # checked once, by the front door
    close(b, b.tile(X, (2, 1)), np.tile(X, (2, 1)))
    close(b, b.repeat(X, 2, axis=1), np.repeat(X, 2, axis=1))
    close(b, b.repeat(X, [1, 0, 2], axis=0), np.repeat(X, [1, 0, 2], axis=0))
    close(b, b.repeat(X, 2), np.repeat(X, 2))
    close(b, b.broadcast_to(X[0], (2, 4)), np.broadcast_to(X[0], (2, 4)))
    close(b, b.flip(X), np.flip(X))
    close(b, b.flip(X, axis=1), np.flip(X, axis=1))


@pytest.mark.parametrize("mode", ["constant", "reflect", "symmetric", "edge"])
def test_pad(b, mode):
    close(b, b.pad(X, ((1, 2), (0, 1)), mode=mode), np.pad(X, ((1, 2), (0, 1)), mode=mode))
    if mode == "constant":
        close(b, b.pad(X, ((1, 1), (1, 1)), constant_values=2.5), np.pad(X, 1, constant_values=2.5))


def test_indexing(b):
    close(b, b.take(X, [0, -1], axis=1), np.take(X, [0, -1], axis=1))
    close(b, b.take(X, np.array([[1, 2], [0, 11]])), np.take(X, [[1, 2], [0, 11]]))
    idx = np.argsort(X, axis=1)
    close(b, b.take_along_axis(X, idx, axis=1), np.take_along_axis(X, idx, axis=1))
    close(b, b.take_along_axis(X, np.array([3, 0]), axis=None), X.reshape(-1)[[3, 0]])
    close(b, b.where(X > 0, X, 0.0), np.where(X > 0, X, 0.0))
    rows, cols = b.where(X > 0)
    np.testing.assert_array_equal(b.to_numpy(rows), np.nonzero(X > 0)[0])
    for key in (
        1,
        (slice(None), 2),
        (Ellipsis, None, 1),
        slice(None, None, -1),
        [2, 0],
        (slice(None), [0, 3]),
        np.array([1, 1]),
        (1, slice(1, 3)),
        X[:, 0] > 0,
    ):
        close(b, b.getitem(X, key), X[key])
    close(b, b.getitem(X, b.convert_to_tensor([2, 0])), X[[2, 0]])
    close(b, b.slice(X, (1, 1), (2, 2)), X[1:3, 1:3])
    upd = np.ones((2, 2), "float32")
    want = X.copy()
    want[1:3, 2:4] = 1
    close(b, b.slice_update(X, (1, 2), upd), want)


def test_slice_update_is_differentiable_in_both(b):
    def f(x, u):
        return b.sum(b.multiply(b.slice_update(x, (1,), u), b.convert_to_tensor([1.0, 2.0, 3.0])))

    gx, gu = b.grad(f, argnums=(0, 1))(b.convert_to_tensor([1.0, 1.0, 1.0]), b.convert_to_tensor([5.0]))
    np.testing.assert_array_equal(b.to_numpy(gx), [1.0, 0.0, 3.0])
    np.testing.assert_array_equal(b.to_numpy(gu), [2.0])


def test_sorting(b):
    v = np.array([[3.0, 1.0, 2.0, 1.0], [0.0, 0.0, 0.0, -1.0]], "float32")
    close(b, b.sort(v), np.sort(v))
    close(b, b.sort(v, axis=0), np.sort(v, axis=0))
    np.testing.assert_array_equal(b.to_numpy(b.argsort(v)), np.argsort(v, kind="stable"))
    values, indices = b.top_k(v, 2)
    close(b, values, [[3.0, 2.0], [0.0, 0.0]])
    np.testing.assert_array_equal(b.to_numpy(indices), [[0, 2], [0, 1]])


def test_one_hot(b):
    out = b.to_numpy(b.one_hot(np.array([0, 2, 3, -1]), 3))
    np.testing.assert_array_equal(out, [[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]])
    assert b.shape(b.one_hot(np.array([[0, 1]]), 4, axis=0)) == (4, 1, 2)
    assert b.dtype(b.one_hot([1], 2, dtype="int32")) == "int32"


def test_creation(b):
    np.testing.assert_array_equal(b.to_numpy(b.arange(2, 10, 3)), np.arange(2, 10, 3))
    close(b, b.arange(0.0, 1.0, 0.25), np.arange(0.0, 1.0, 0.25))
    close(b, b.linspace(0.0, 1.0, 5, endpoint=False), np.linspace(0.0, 1.0, 5, endpoint=False))
    close(b, b.eye(3, 4, k=1), np.eye(3, 4, k=1))
    close(b, b.full((2, 2), 1.5), np.full((2, 2), 1.5))
    close(b, b.stop_gradient(X), X)
    assert float(b.grad(lambda v: b.sum(b.stop_gradient(v)) + b.sum(v))(b.ones((2,)))[0]) == 1.0
