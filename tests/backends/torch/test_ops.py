"""TorchBackend numpy-like ops agree with numpy where torch's own semantics differ."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import highlevel as hl  # noqa: E402
from highlevel.backends import get  # noqa: E402

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4)).astype(np.float32)
XI = RNG.integers(-7, 7, (3, 4)).astype(np.int32)


@pytest.fixture(scope="module")
def b():
    return get("torch")


def close(b, got, want, rtol=1e-6, atol=1e-6):
    np.testing.assert_allclose(b.to_numpy(got), want, rtol=rtol, atol=atol)


def test_mod_and_floor_divide_have_python_signs(b):
    a, c = np.array([-7, -1, 0, 5, 7]), np.array([2, -3, 4, -2, 3])
    close(b, b.mod(a, c), np.mod(a, c))
    close(b, b.floor_divide(a, c), np.floor_divide(a, c))
    close(b, b.mod(X, -0.7), np.mod(X, np.float32(-0.7)), rtol=1e-5)
    close(b, b.floor_divide(X, 0.3), np.floor_divide(X, np.float32(0.3)))
    # an integer zero divisor gives 0, as numpy (torch raises)
    close(b, b.floor_divide(np.array([3, -3]), np.array([0, 2])), [0, -2])
    close(b, b.mod(np.array([3, -3]), np.array([0, 2])), [0, 1])


def test_round_half_to_even_with_decimals(b):
    v = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.675, 1.125])
    close(b, b.round(v), np.round(v))
    close(b, b.round(v, 2), np.round(v, 2))
    close(b, b.round(np.array([15, 25, -35]), -1), np.round(np.array([15, 25, -35]), -1))
    assert b.dtype(b.round(np.array([1, 2]))) == "int64"


@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1), (1,)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(b, axis, keepdims):
    for name in ("sum", "mean", "max", "min", "prod", "var", "std"):
        close(
            b,
            getattr(b, name)(X, axis=axis, keepdims=keepdims),
            getattr(np, name)(X, axis=axis, keepdims=keepdims),
            rtol=1e-5,
        )
    close(b, b.any(XI > 3, axis=axis, keepdims=keepdims), np.any(XI > 3, axis=axis, keepdims=keepdims))
    close(b, b.all(XI, axis=axis, keepdims=keepdims), np.all(XI, axis=axis, keepdims=keepdims))
    lse = np.log(np.sum(np.exp(X.astype(np.float64)), axis=axis, keepdims=keepdims))
    close(b, b.logsumexp(X, axis=axis, keepdims=keepdims), lse, rtol=1e-5)
    if not isinstance(axis, tuple):
        got = b.argmax(X, axis=axis, keepdims=keepdims)
        assert b.dtype(got) == "int32"
        close(b, got, np.argmax(X, axis=axis, keepdims=keepdims))
        close(b, b.argmin(X, axis=axis, keepdims=keepdims), np.argmin(X, axis=axis, keepdims=keepdims))


def test_reduction_edge_cases(b):
    assert b.dtype(b.sum(np.array([True, True]))) == "int32"
    for dt in ("int8", "uint8", "int32", "float16"):
        assert b.dtype(b.sum(b.ones((3,), dt))) == dt
        assert b.dtype(b.prod(b.ones((3,), dt))) == dt
    assert b.dtype(b.mean(XI)) == "float32"
    assert float(b.sum(np.zeros((0, 3), np.float32))) == 0.0
    assert np.isnan(b.to_numpy(b.mean(np.zeros((0,), np.float32))))
    with pytest.raises(ValueError, match="size 0"):
        b.max(np.zeros((2, 0), np.float32), axis=1)
    with pytest.raises(ValueError):
        b.argmax(np.zeros((0,), np.float32))
    close(b, b.max(np.array([1.0, np.nan, 3.0])), np.nan)
    close(b, b.maximum(np.array([np.nan, 1.0]), np.array([0.0, np.nan])), [np.nan, np.nan])
    close(b, b.argmax(np.array([0, 3, 3, 1])), 1)  # the first maximum
    close(b, b.sum(X, axis=()), X)
    assert np.isfinite(b.to_numpy(b.logsumexp(np.array([1e4, -1e4], np.float32))))
    close(b, b.logsumexp(np.array([-np.inf, -np.inf])), -np.inf)
    close(b, b.cumsum(X), np.cumsum(X), rtol=1e-5)
    close(b, b.cumprod(X, axis=0), np.cumprod(X, axis=0), rtol=1e-5)
    assert b.dtype(b.cumsum(np.array([True, False]))) == "int32"


def test_linear_algebra(b):
    close(b, b.matmul(X, X.T), X @ X.T, rtol=1e-5)
    close(b, b.matmul(X[0], X.T), X[0] @ X.T, rtol=1e-5)
    batch = RNG.standard_normal((2, 1, 3, 4)).astype(np.float32)
    close(b, b.matmul(batch, X.T), batch @ X.T, rtol=1e-5)
    close(b, b.matmul(XI, XI.T), XI @ XI.T)
    assert b.dtype(b.matmul(XI, X.T)) == "float32"
    close(b, b.einsum("ij,kj->ik", X, X), np.einsum("ij,kj->ik", X, X), rtol=1e-5)
    close(b, b.tensordot(X, X, axes=([1], [-1])), np.tensordot(X, X, axes=([1], [1])), rtol=1e-5)
    close(b, b.tensordot(X, X.T, axes=1), np.tensordot(X, X.T, axes=1), rtol=1e-5)
    close(b, b.outer(X[0], X[1:]), np.outer(X[0], X[1:]), rtol=1e-6)


def test_split_take_repeat(b):
    a = np.arange(10)
    for got, want in zip(b.split(a, [3, 7]), np.split(a, [3, 7])):
        close(b, got, want)
    assert [b.shape(p) for p in b.split(a, [3, 12])] == [(3,), (7,), (0,)]
    assert len(b.split(X, 2, axis=1)) == 2
    with hl.config.backend_scope("torch"), pytest.raises(ValueError, match="equal sections"):
        hl.ops.split(X, 3, axis=1)  # checked once, by the front door
    close(b, b.take(X, [-1, 0], axis=1), np.take(X, [-1, 0], axis=1))
    close(b, b.take(X, [[0, -1], [5, 2]]), np.take(X, [[0, -1], [5, 2]]))
    close(b, b.take(X, 2, axis=0), np.take(X, 2, axis=0))
    close(b, b.repeat(X, [1, 0, 3], axis=0), np.repeat(X, [1, 0, 3], axis=0))
    close(b, b.repeat(X, 2), np.repeat(X, 2))
    close(b, b.tile(X, (2, 1, 2)), np.tile(X, (2, 1, 2)))


def test_take_along_axis_broadcasts(b):
    a = np.arange(24).reshape(2, 3, 4)
    idx = np.array([[[0, -1]]])  # broadcast over axes 0 and 1
    close(b, b.take_along_axis(a, idx, axis=2), np.take_along_axis(a, np.where(idx < 0, idx + 4, idx), axis=2))
    idx = np.argsort(X, axis=0)
    close(b, b.take_along_axis(X, idx, axis=0), np.take_along_axis(X, idx, axis=0))
    close(b, b.take_along_axis(X, np.array([3, 0]), axis=None), np.take_along_axis(X, np.array([3, 0]), axis=None))


@pytest.mark.parametrize("mode", ["constant", "reflect", "symmetric", "edge"])
@pytest.mark.parametrize("pad_width", [1, (2, 1), ((2, 1), (3, 0)), ((5, 7), (9, 1))])
def test_pad_modes(b, mode, pad_width):
    a = np.arange(12).reshape(3, 4)
    close(b, b.pad(a, pad_width, mode), np.pad(a, pad_width, mode))
    close(b, b.pad(X, pad_width, mode), np.pad(X, pad_width, mode))


def test_pad_constant_values_and_single_entry(b):
    close(b, b.pad(X, ((1, 1), (0, 2)), constant_values=3.5), np.pad(X, ((1, 1), (0, 2)), constant_values=3.5))
    one = np.array([[7.0]])
    for mode in ("reflect", "symmetric", "edge"):
        close(b, b.pad(one, 2, mode), np.pad(one, 2, mode))
    with hl.config.backend_scope("torch"), pytest.raises(ValueError, match="mode"):
        hl.ops.pad(X, 1, "wrap")  # checked once, by the front door


@pytest.mark.parametrize(
    "key",
    [
        (slice(None, None, -1),),
        (slice(None), slice(3, 0, -2)),
        (Ellipsis, [0, 2]),
        (None, 1, slice(None, None, -1)),
        (1,),
        (-1, -2),
        ([2, 0],),
        (slice(1, None), None),
        (Ellipsis, None),
        (slice(0, 3, -1),),
        (slice(None, None, -3), slice(-1, None, -1)),
    ],
)
def test_getitem_numpy_semantics(b, key):
    close(b, b.getitem(X, key), X[key])


def test_getitem_masks_and_tensor_indices(b):
    close(b, b.getitem(X, X > 0), X[X > 0])
    close(b, b.getitem(X, b.convert_to_tensor([0, 2])), X[[0, 2]])
    close(b, b.getitem(X, (slice(None), np.array([-1, 0]))), X[:, [-1, 0]])
    close(b, b.getitem(X, b.convert_to_tensor(1)), X[1])


def test_shape_ops(b):
    t3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    close(b, b.reshape(X, (-1, 2)), X.reshape(-1, 2))
    close(b, b.transpose(t3), t3.T)
    close(b, b.transpose(t3, (1, 0, 2)), t3.transpose(1, 0, 2))
    close(b, b.swapaxes(t3, 0, -1), np.swapaxes(t3, 0, -1))
    close(b, b.moveaxis(t3, (0, 1), (-1, 0)), np.moveaxis(t3, (0, 1), (-1, 0)))
    close(b, b.stack([X, X], axis=-1), np.stack([X, X], axis=-1))
    close(b, b.concatenate([X, XI], axis=1), np.concatenate([X, XI], axis=1))
    close(b, b.expand_dims(X, (0, -1)), np.expand_dims(X, (0, -1)))
    close(b, b.squeeze(np.ones((1, 3, 1)), axis=-1), np.ones((1, 3)))
    with hl.config.backend_scope("torch"), pytest.raises(ValueError, match="squeeze"):
        hl.ops.squeeze(X, axis=0)  # checked once, by the front door
    close(b, b.broadcast_to(X[0], (2, 4)), np.broadcast_to(X[0], (2, 4)))
    close(b, b.flip(t3, (0, 2)), np.flip(t3, (0, 2)))
    close(b, b.flip(t3), np.flip(t3))
    close(b, b.slice(t3, (1, 0, 2), (1, 2, 2)), t3[1:2, 0:2, 2:4])
    out = np.zeros((3, 3))
    out[1:, 1:] = 1.0
    close(b, b.slice_update(np.zeros((3, 3)), (1, 1), np.ones((2, 2))), out)
    close(b, b.where(X > 0, X, 0), np.where(X > 0, X, 0))
    idx = b.where(np.array([[0, 1], [1, 0]]))
    assert [b.dtype(i) for i in idx] == ["int32", "int32"]
    close(b, idx[0], [0, 1])
    close(b, b.clip(XI, -2, 3), np.clip(XI, -2, 3))
    close(
        b,
        b.nan_to_num(np.array([np.nan, np.inf, -np.inf, 1.0], np.float32)),
        np.nan_to_num(np.array([np.nan, np.inf, -np.inf, 1.0], np.float32)),
    )


def test_sort_argsort_top_k(b):
    ties = np.array([3, 1, 3, 1, 2, 3])
    close(b, b.sort(X, axis=0), np.sort(X, axis=0))
    close(b, b.sort(np.array([2.0, np.nan, 1.0])), [1.0, 2.0, np.nan])
    got = b.argsort(ties)
    assert b.dtype(got) == "int32"
    close(b, got, np.argsort(ties, kind="stable"))
    values, indices = b.top_k(ties, 3)
    close(b, values, [3, 3, 3])
    close(b, indices, [0, 2, 5])  # ties: the lower index first
    assert b.dtype(indices) == "int32"
    values, _ = b.top_k(X, 2)
    close(b, values, -np.sort(-X, axis=-1)[:, :2])


def test_one_hot(b):
    got = b.one_hot(np.array([0, 2, -1, 5]), 3)
    assert b.dtype(got) == "float32"
    close(b, got, [[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]])
    close(b, b.one_hot(np.array([[0, 2]]), 3, axis=0, dtype="int32"), np.eye(3)[[0, 2]].T[:, None, :])


def test_slice_update_is_differentiable_in_both(b):
    def f(x, u):
        return b.sum(b.square(b.slice_update(x, (1,), u)))

    gx, gu = b.grad(f, argnums=(0, 1))(np.ones(4, np.float32), np.full((2,), 3.0, np.float32))
    close(b, gx, [2.0, 0.0, 0.0, 2.0])
    close(b, gu, [6.0, 6.0])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_adam_one_pass_update_equals_the_three_pass_one_bit_for_bit(b, dtype, monkeypatch):
    # On a CPU the weights' update w - (m·alpha)/denom is one addcdiv (value -alpha); elsewhere a product, a
    # division and a subtraction. Both must give the same bits.
    import highlevel as hl
    from highlevel.backends.torch import fused

    def run():
        rng = np.random.default_rng(1)
        shapes = [(33, 17), (17,), ()]
        with hl.config.backend_scope("torch"):
            w, m, v = (
                [hl.Variable(np.asarray(rng.standard_normal(s) * k, dtype)) for s in shapes] for k in (1.0, 0.1, 0.1)
            )
            for v_ in v:
                v_.assign(np.abs(v_.numpy()))
            grads = [b.convert_to_tensor(np.asarray(rng.standard_normal(s), dtype)) for s in shapes]
            for _ in range(3):
                b.adam_update(w, grads, m, v, b.convert_to_tensor(np.asarray(0.00123, dtype)), 0.9, 0.999, 1e-7)
            return [x.numpy() for x in w + m + v]

    one_pass = run()
    monkeypatch.setattr(fused, "_ONE_PASS_DTYPES", ())
    three_pass = run()
    for got, want in zip(one_pass, three_pass):
        np.testing.assert_array_equal(got, want)
