"""Conformance of ``scan`` (the contract's loop): forward values and gradients on every backend.

The step functions take their weights as arguments and call the backend's own ops, so one definition runs
on every engine. The reference is the native engine in float64 (its loop is plain Python recorded by the
autograd), itself checked against central finite differences; every backend runs in float32 and must match
it within float32 tolerances of a 20-step recurrence.
"""

import numpy as np
import pytest

import highlevel as hl
from highlevel.backends import registry

RTOL, ATOL = 1e-4, 1e-5  # 20 chained float32 steps of matmul + tanh


def _rnn_step(b, W, U):
    def step(h, x):
        h = b.tanh(b.add(b.matmul(x, W), b.matmul(h, U)))
        return h, {"h": h, "sq": b.square(h)}

    return step


def _nested_step(b, W, U):
    # a tuple carry of two tensors (LSTM-like) and a tuple of xs
    def step(carry, x):
        h, c = carry
        xa, xb = x
        z = b.add(b.matmul(xa, W), b.matmul(h, U))
        c = b.add(b.multiply(b.sigmoid(z), c), b.multiply(xb, b.tanh(z)))
        h = b.multiply(b.tanh(c), 0.5)
        return (h, c), h

    return step


def _loss(b, kind, reverse, unroll):
    def loss(W, U, h0, xs):
        if kind == "rnn":
            carry, ys = b.scan(_rnn_step(b, W, U), h0, xs, reverse=reverse, unroll=unroll)
            return b.add(b.add(b.sum(carry), b.sum(ys["h"])), b.multiply(b.sum(ys["sq"]), 0.5))
        (h, c), ys = b.scan(_nested_step(b, W, U), (h0, b.multiply(h0, 2.0)), xs, reverse=reverse, unroll=unroll)
        return b.add(b.add(b.sum(h), b.sum(c)), b.sum(b.multiply(ys, ys)))

    return loss


def _inputs(kind, dtype):
    rng = np.random.default_rng(7)
    steps, batch, feat, units = 20, 3, 4, 5
    W = rng.normal(size=(feat, units)) * 0.5
    U = rng.normal(size=(units, units)) * 0.3
    h0 = rng.normal(size=(batch, units)) * 0.1
    if kind == "rnn":
        xs = rng.normal(size=(steps, batch, feat))
    else:
        xs = (rng.normal(size=(steps, batch, feat)), rng.normal(size=(steps, batch, units)))
    cast = lambda a: a.astype(dtype)
    return cast(W), cast(U), cast(h0), (cast(xs) if kind == "rnn" else tuple(cast(a) for a in xs))


def _run(b, kind, reverse, unroll, dtype):
    W, U, h0, xs = _inputs(kind, dtype)
    args = [b.convert_to_tensor(a) for a in (W, U, h0)]
    xs = b.convert_to_tensor(xs) if kind == "rnn" else tuple(b.convert_to_tensor(a) for a in xs)
    loss = _loss(b, kind, reverse, unroll)
    value, grads = b.value_and_grad(loss, argnums=(0, 1, 2, 3))(*args, xs)
    flat = [grads[0], grads[1], grads[2]] + (list(grads[3]) if kind != "rnn" else [grads[3]])
    return float(b.to_numpy(value)), [np.asarray(b.to_numpy(g), np.float64) for g in flat]


CONFIGS = [("rnn", False, 1), ("rnn", True, 1), ("rnn", False, 4), ("nested", False, 1), ("nested", True, True)]
IDS = [f"{k}-{'reverse' if r else 'forward'}-unroll{u}" for k, r, u in CONFIGS]


@pytest.mark.parametrize("kind,reverse,unroll", CONFIGS, ids=IDS)
def test_scan_matches_native_float64(backend, kind, reverse, unroll):
    want_value, want_grads = _run(registry.get("native"), kind, reverse, unroll, "float64")
    # the float32 inputs, widened: the reference sees what the backend sees
    got_value, got_grads = _run(backend, kind, reverse, unroll, "float32")
    np.testing.assert_allclose(got_value, want_value, rtol=RTOL, atol=ATOL)
    for g, w in zip(got_grads, want_grads):
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL * 10)


def test_native_scan_gradient_matches_finite_differences():
    b = registry.get("native")
    W, U, h0, xs = _inputs("rnn", "float64")
    loss = _loss(b, "rnn", False, 1)
    _, grads = b.value_and_grad(loss, argnums=(0, 1))(W, U, h0, xs)
    eps = 1e-6
    for arg, g in ((0, grads[0]), (1, grads[1])):
        base = [W, U]
        num = np.zeros_like(base[arg])
        for idx in np.ndindex(*base[arg].shape):
            plus, minus = [a.copy() for a in base], [a.copy() for a in base]
            plus[arg][idx] += eps
            minus[arg][idx] -= eps
            f = lambda ws: float(b.to_numpy(loss(ws[0], ws[1], h0, xs)))
            num[idx] = (f(plus) - f(minus)) / (2 * eps)
        np.testing.assert_allclose(b.to_numpy(g), num, rtol=1e-6, atol=1e-7)


def test_scan_semantics(backend):
    ops = hl.ops
    xs = np.arange(12, dtype="float32").reshape(4, 3)
    carry, ys = ops.scan(lambda c, x: (c + x, c * 1.0), np.zeros(3, "float32"), xs)
    np.testing.assert_allclose(ops.convert_to_numpy(carry), xs.sum(0))
    np.testing.assert_allclose(ops.convert_to_numpy(ys), np.cumsum(xs, 0) - xs)
    # reverse: accumulates from the end; ys stay in the order of xs
    carry, ys = ops.scan(lambda c, x: (c + x, c + x), np.zeros(3, "float32"), xs, reverse=True)
    np.testing.assert_allclose(ops.convert_to_numpy(ys), np.cumsum(xs[::-1], 0)[::-1])
    # xs=None with a length
    carry, ys = ops.scan(lambda c, x: (c * 2.0, c), np.ones((), "float32"), None, length=5)
    np.testing.assert_allclose(ops.convert_to_numpy(carry), 32.0)
    np.testing.assert_allclose(ops.convert_to_numpy(ys), [1, 2, 4, 8, 16])
    # nested carry and outputs keep their structure
    (a, b), ys = ops.scan(
        lambda c, x: ((c[0] + x, c[1] * 1.0), {"s": c[0]}), (np.zeros(3, "float32"), np.ones(2, "float32")), xs
    )
    assert set(ys) == {"s"} and ops.shape(ys["s"]) == (4, 3)


def test_scan_errors(backend):
    ops = hl.ops
    with pytest.raises(ValueError, match="length"):
        ops.scan(lambda c, x: (c, c), np.zeros(2, "float32"), np.zeros((3, 2), "float32"), length=4)
    with pytest.raises(ValueError, match="length"):
        ops.scan(lambda c, x: (c, c), np.zeros(2, "float32"), None)
    with pytest.raises(ValueError, match="leading"):
        ops.scan(lambda c, x: (c, c), np.zeros(2, "float32"), (np.zeros((3, 2)), np.zeros((4, 2))))


def test_scan_on_symbolic_inputs():
    with hl.config.backend_scope("native"):
        x = hl.Input((7, 2))
        xt = hl.ops.transpose(x, (1, 0, 2))
        carry, ys = hl.ops.scan(lambda h, v: (h + hl.ops.sum(v), h * 2.0), hl.ops.zeros((2,)), xt)
        assert carry.shape == (2,) and ys.shape == (7, 2)
