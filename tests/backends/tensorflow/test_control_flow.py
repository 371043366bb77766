"""The TensorFlow engine's control flow compiles to TensorFlow constructs: inside ``tf.function`` each loop or
conditional is one graph op (``If``, ``Case``, ``While``) rather than a Python loop unrolled into the graph."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops


def _op_types(tf, fn, *args):
    """The op types of the graph ``tf.function`` traces for ``fn``."""
    with hl.config.backend_scope("tensorflow"):
        graph = tf.function(fn, autograph=False).get_concrete_function(*args).graph
    return {op.type for op in graph.get_operations()}


X = np.array([0.5, -1.0, 2.0], np.float32)


@pytest.mark.parametrize(
    "name,fn,types",
    [
        ("cond", lambda x: ops.cond(ops.sum(x) > 0, lambda: x * 2.0, lambda: -x), {"If", "StatelessIf"}),
        (
            "switch",
            lambda x: ops.switch(ops.cast(ops.sum(x), "int32"), [lambda t: t, lambda t: -t], x),
            {"Case", "StatelessCase"},
        ),
        (
            "while_loop",
            lambda x: ops.while_loop(lambda t: ops.sum(t) < 10.0, lambda t: t + 1.0, x),
            {"While", "StatelessWhile"},
        ),
        ("fori_loop", lambda x: ops.fori_loop(0, 4, lambda i, t: t * 2.0, x), {"While", "StatelessWhile"}),
        ("map", lambda x: ops.map(lambda r: r * 2.0, ops.reshape(x, (3, 1))), {"While", "StatelessWhile"}),
        ("scan", lambda x: ops.scan(lambda c, r: (c + r, c), 0.0, x)[1], {"While", "StatelessWhile"}),
    ],
)
def test_one_graph_construct(tf, name, fn, types):
    found = _op_types(tf, fn, tf.constant(X))
    assert found & types, f"{name}: {sorted(found)}"


def test_vectorized_map_is_batched(tf):
    found = _op_types(
        tf, lambda x: ops.vectorized_map(lambda r: ops.sum(r * r), ops.reshape(x, (3, 1))), tf.constant(X)
    )
    assert not found & {"While", "StatelessWhile"}, sorted(found)


def test_gradients_through_graph_loops(tf):
    @tf.function(autograph=False)
    def value_and_grad(x):
        def loss(t):
            grown = ops.while_loop(lambda v: ops.sum(v * v) < 20.0, lambda v: v * 1.5, t)
            return ops.sum(ops.cond(ops.sum(grown) > 0, lambda: grown * 2.0, lambda: grown))

        return ops.value_and_grad(loss)(x)

    with hl.config.backend_scope("tensorflow"):
        value, grad = value_and_grad(tf.constant(X))
    n, v = 0, X.astype(np.float64)
    while np.sum(v * v) < 20.0:
        v, n = v * 1.5, n + 1
    np.testing.assert_allclose(value.numpy(), 2 * v.sum(), rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), np.full(3, 2 * 1.5**n), rtol=1e-6)
