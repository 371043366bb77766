"""The JAX engine's control flow compiles to ``jax.lax`` constructs: one primitive per loop or conditional in the
traced program (not a Python loop unrolled into it), and reverse-mode gradients where JAX has them."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import highlevel as hl  # noqa: E402
from highlevel import ops  # noqa: E402


@pytest.fixture(autouse=True)
def b():
    with hl.config.backend_scope("jax") as engine:
        yield engine


def _primitives(fn, *args):
    """Every primitive name in the jaxpr of ``fn`` (sub-jaxprs of loops and branches included)."""
    names = []

    def walk(jaxpr):
        for eqn in jaxpr.eqns:
            names.append(eqn.primitive.name)
            for param in eqn.params.values():
                for sub in param if isinstance(param, (list, tuple)) else [param]:
                    inner = getattr(sub, "jaxpr", sub)
                    if hasattr(inner, "eqns"):
                        walk(inner)

    walk(jax.make_jaxpr(fn)(*args).jaxpr)
    return names


X = np.array([0.5, -1.0, 2.0], np.float32)


@pytest.mark.parametrize(
    "name,fn,primitive",
    [
        ("cond", lambda x: ops.cond(ops.sum(x) > 0, lambda: x * 2.0, lambda: -x), "cond"),
        (
            "switch",
            lambda x: ops.switch(ops.cast(ops.sum(x), "int32"), [lambda t: t, lambda t: -t, ops.sin], x),
            "cond",
        ),
        ("while_loop", lambda x: ops.while_loop(lambda t: ops.sum(t) < 10.0, lambda t: t + 1.0, x), "while"),
        (
            "while_loop-bounded",
            lambda x: ops.while_loop(lambda t: ops.sum(t) < 10.0, lambda t: t + 1.0, x, maximum_iterations=5),
            "while",
        ),
        ("fori_loop", lambda x: ops.fori_loop(0, 4, lambda i, t: t * 2.0, x), "scan"),
        (
            "fori_loop-traced-bounds",
            lambda x: ops.fori_loop(0, ops.cast(ops.sum(x), "int32"), lambda i, t: t * 2.0, x),
            "while",
        ),
        ("map", lambda x: ops.map(lambda r: r * 2.0, ops.reshape(x, (3, 1))), "scan"),
        ("scan", lambda x: ops.scan(lambda c, r: (c + r, c), 0.0, x)[1], "scan"),
        ("custom_gradient", lambda x: ops.custom_gradient(lambda t: (t * 2.0, lambda u: u))(x), "custom_vjp_call"),
    ],
)
def test_one_lax_construct(name, fn, primitive):
    prims = _primitives(fn, X)
    assert primitive in prims, f"{name}: {prims}"
    assert prims.count("mul") + prims.count("add") <= 3, f"{name} was unrolled: {prims}"


@pytest.mark.parametrize(
    "name,fn",
    [
        ("vectorized_map", lambda x: ops.vectorized_map(lambda r: ops.sum(r * r), ops.reshape(x, (3, 1)))),
        ("associative_scan", lambda x: ops.associative_scan(lambda a, c: a + c, x)),
    ],
)
def test_batched_ops_have_no_loop(name, fn):
    prims = _primitives(fn, X)
    assert not {"while", "scan"} & set(prims), f"{name}: {prims}"


def test_a_bounded_while_loop_is_reverse_differentiable_under_jit():
    """While value_and_grad differentiates it, a while_loop with maximum_iterations is a bounded lax.scan."""

    def loss(x):
        out = ops.while_loop(lambda t: ops.sum(t * t) < 20.0, lambda t: t * 1.5, x, maximum_iterations=30)
        return ops.sum(out)

    value, grad = jax.jit(ops.value_and_grad(loss))(X)
    n, v = 0, X.astype(np.float64)
    while np.sum(v * v) < 20.0:
        v, n = v * 1.5, n + 1
    np.testing.assert_allclose(value, v.sum(), rtol=1e-6)
    np.testing.assert_allclose(grad, np.full(3, 1.5**n), rtol=1e-6)
    assert "scan" in _primitives(ops.value_and_grad(loss), X)
    assert "scan" not in _primitives(loss, X)  # not differentiated: lax.while_loop, which stops early
