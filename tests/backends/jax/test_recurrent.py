"""JAX's ``lstm_sequence`` (one scan, hand-written backward scan) against the contract's generic loop under
``jax.grad``: values and the gradients of every argument, inputs and initial states included, inside ``jax.jit``;
mismatched shapes get an error that names them."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from highlevel.backends import get  # noqa: E402
from highlevel.backends.contract.fused import FusedContract  # noqa: E402


@pytest.fixture(scope="module")
def b():
    return get("jax")


def _args(rng, batch=3, time=6, features=4, units=5):
    shapes = [(batch, time, features), (batch, units), (batch, units)]
    shapes += [(features, 4 * units), (units, 4 * units), (4 * units,)]
    return [jax.numpy.asarray(rng.normal(scale=0.6, size=s).astype("float32")) for s in shapes]


def _loss(op):
    def loss(*args):
        seq, h, c = op(*args)
        return (seq * seq).sum() + (3.0 * h).sum() + (c**3).sum()

    return loss


def test_values_and_every_gradient_match_the_generic_loop(b):
    args = _args(np.random.default_rng(0))
    fast = _loss(b.lstm_sequence)
    slow = _loss(lambda *a: FusedContract.lstm_sequence(b, *a))
    argnums = tuple(range(6))
    got = jax.jit(jax.value_and_grad(fast, argnums=argnums))(*args)
    want = jax.value_and_grad(slow, argnums=argnums)(*args)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    names = ["inputs", "h", "c", "kernel", "recurrent_kernel", "bias"]
    for name, g, w in zip(names, got[1], want[1]):
        assert np.abs(np.asarray(w)).max() > 1e-2, name  # a gradient that is not all zero
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-5, err_msg=name)


def test_without_bias_matches_the_generic_loop(b):
    x, h, c, k, r, _ = _args(np.random.default_rng(1))
    got = b.lstm_sequence(x, h, c, k, r, None)
    want = FusedContract.lstm_sequence(b, x, h, c, k, r, None)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_mismatched_kernel_shape_is_named(b):
    x, h, c, k, r, bias = _args(np.random.default_rng(2))
    with pytest.raises(ValueError, match=r"'kernel': \(4, 20\).*'kernel': \(3, 20\)"):
        b.lstm_sequence(x, h, c, k[:3], r, bias)
