"""The TensorFlow engine's Adam with in-place updates: Keras's formula (numpy below) step by step, eagerly and
inside tf.function; AMSGrad keeps the contract's form."""

import numpy as np
import pytest

import highlevel as hl

RNG = np.random.default_rng(7)


def _numpy_adam(w, grads, lr=0.01, b1=0.9, b2=0.999, eps=1e-7):
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t, g in enumerate(grads, start=1):
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        w = w - lr * np.sqrt(1 - b2**t) / (1 - b1**t) * m / (np.sqrt(v) + eps)
    return w


@pytest.mark.parametrize("graph", [False, True])
def test_adam_matches_keras_formula(tfb, tf, graph):
    w0 = RNG.standard_normal((3, 4)).astype("float32")
    grads = [RNG.standard_normal((3, 4)).astype("float32") for _ in range(3)]
    with hl.config.backend_scope("tensorflow"):
        var = hl.Variable(w0)
        opt = hl.optimizers.Adam(0.01)

        def apply(g):
            opt.apply([g], [var])

        step = tf.function(apply, autograph=False) if graph else apply
        for g in grads:
            step(tf.constant(g))
        np.testing.assert_allclose(tfb.to_numpy(var.value), _numpy_adam(w0, grads), rtol=1e-5, atol=1e-6)
        assert int(tfb.to_numpy(opt.iterations.value)) == 3


def test_adam_updates_in_place_and_amsgrad_does_not(tfb, tf):
    with hl.config.backend_scope("tensorflow"):
        for amsgrad, expect in ((False, True), (True, False)):
            var = hl.Variable(np.ones((2, 2), "float32"))
            opt = hl.optimizers.Adam(0.1, amsgrad=amsgrad)
            opt.build([var])
            fn = tf.function(lambda g: opt.apply([g], [var]), autograph=False)  # noqa: B023
            graph = fn.get_concrete_function(tf.constant(np.ones((2, 2), "float32"))).graph
            types = [op.type for op in graph.get_operations()]
            assert (types.count("AssignAddVariableOp") >= 2 and "AssignSubVariableOp" in types) is expect
