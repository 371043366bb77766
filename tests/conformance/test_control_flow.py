"""Conformance of ``cond`` and ``custom_gradient``, whose functions a case line cannot express (``cond``'s branches
take no argument; ``custom_gradient`` returns a function), and of the loops' gradient rules.

Each check runs on every backend in float32 against float64 closed forms: the value, the gradient and a second
derivative (a gradient of a gradient). ``custom_gradient`` must really replace the gradient (a gradient function
that clips or scales is seen in the result), accept Keras's three ways of writing the gradient function, and
leave what the function closes over without a gradient through it.
"""

import numpy as np
import pytest

from highlevel import ops

from .tolerances import reason, tolerance


def _check(backend, got, want, what, kind="grad"):
    rtol, atol = tolerance("composition", "float32", backend.name, kind)
    why = reason("composition", "float32", backend.name, kind)
    np.testing.assert_allclose(
        np.asarray(ops.convert_to_numpy(got), np.float64),
        want,
        rtol=rtol,
        atol=atol,
        err_msg=f"{backend.name}: {what} [tolerance: {why}]",
    )


X = np.array([0.3, -1.2, 0.8], np.float32)
XD = X.astype(np.float64)


# ------------------------------------------------------------------------------------------------- cond
def _branchy(x, threshold):
    # the predicate depends on the input: each call takes one branch
    return ops.cond(ops.sum(x) > threshold, lambda: ops.sin(x) * 2.0, lambda: x * x * x)


@pytest.mark.parametrize("threshold,taken", [(-10.0, "true"), (10.0, "false")])
def test_cond_value_gradient_and_second_derivative(backend, threshold, taken):
    x = ops.convert_to_tensor(X)
    value = _branchy(x, threshold)
    f, f1, f2 = (np.sin(XD) * 2, np.cos(XD) * 2, -np.sin(XD) * 2) if taken == "true" else (XD**3, 3 * XD**2, 6 * XD)
    _check(backend, value, f, f"cond value ({taken} branch)", "forward")
    _check(backend, ops.grad(lambda t: ops.sum(_branchy(t, threshold)))(x), f1, f"d/dx cond ({taken} branch)")
    g2 = ops.grad(lambda t: ops.sum(ops.grad(lambda u: ops.sum(_branchy(u, threshold)))(t)))(x)
    _check(backend, g2, f2, f"d2/dx2 cond ({taken} branch)", "hvp")


def test_cond_nests_and_python_predicates(backend):
    x = ops.convert_to_tensor(X)
    out = ops.cond(True, lambda: {"a": x + 1.0, "b": (x, x * 2.0)}, lambda: {"a": x, "b": (x, x)})
    assert set(out) == {"a", "b"} and isinstance(out["b"], tuple)
    _check(backend, out["b"][1], XD * 2, "cond nest", "forward")
    out = ops.cond(ops.convert_to_tensor(False), lambda: x, lambda: -x)
    _check(backend, out, -XD, "cond on a 0-d bool tensor", "forward")


def test_cond_errors(backend):
    x = ops.convert_to_tensor(X)
    with pytest.raises(ValueError, match="scalar"):
        ops.cond(x > 0, lambda: x, lambda: -x)
    with pytest.raises(TypeError, match="true_fn"):
        ops.cond(True, x, lambda: x)


# ------------------------------------------------------------------------------------- custom gradients
@ops.custom_gradient
def _clip_gradient(x):
    return x, lambda upstream: ops.clip(upstream, -1.0, 1.0)


@ops.custom_gradient
def _log1pexp(x):
    # log(1 + e^x) with the stable gradient sigmoid(x) = 1 - 1 / (1 + e^x), which closes over e^x
    e = ops.exp(x)

    def grad(*args, upstream=None):  # Keras's portable form
        if upstream is None:
            (upstream,) = args
        return upstream * (1.0 - 1.0 / (1.0 + e))

    return ops.log1p(e), grad


def test_custom_gradient_replaces_the_gradient(backend):
    x = ops.convert_to_tensor(np.array([1.0, -2.0, 3.0], np.float32))
    # the true gradient of sum(5 x) is 5; the clipped one is 1
    _check(backend, ops.grad(lambda t: ops.sum(_clip_gradient(t) * 5.0))(x), [1.0, 1.0, 1.0], "clipped gradient")
    _check(backend, ops.grad(lambda t: ops.sum(_clip_gradient(t) * -0.5))(x), [-0.5] * 3, "unclipped gradient")
    _check(backend, _clip_gradient(x), [1.0, -2.0, 3.0], "value", "forward")


def test_custom_gradient_second_derivative_through_its_closure(backend):
    x = ops.convert_to_tensor(np.array([0.5, -1.0, 20.0], np.float32))
    xd = np.array([0.5, -1.0, 20.0])
    sig = 1 / (1 + np.exp(-xd))
    _check(backend, _log1pexp(x), np.logaddexp(0, xd), "log1pexp value", "forward")
    g = ops.grad(lambda t: ops.sum(_log1pexp(t)))(x)
    _check(backend, g, sig, "log1pexp gradient")
    g2 = ops.grad(lambda t: ops.sum(ops.grad(lambda u: ops.sum(_log1pexp(u)))(t)))(x)
    _check(backend, g2, sig * (1 - sig), "log1pexp second derivative", "hvp")


@pytest.mark.parametrize("style", ["positional", "keyword-only", "portable"])
def test_custom_gradient_keras_signatures(backend, style):
    def forward(x, y):
        # several arguments and outputs; the gradient given is twice the true one, to see it is used
        out = (x * y, x + y)
        if style == "positional":

            def grad(up):
                return 2.0 * (up[0] * y + up[1]), 2.0 * (up[0] * x + up[1])
        elif style == "keyword-only":

            def grad(*args, upstream):
                a, b = args
                return 2.0 * (upstream[0] * b + upstream[1]), 2.0 * (upstream[0] * a + upstream[1])
        else:

            def grad(*args, upstream=None):
                up = args[0] if upstream is None else upstream
                return [2.0 * (up[0] * y + up[1]), 2.0 * (up[0] * x + up[1])]

        return out, grad

    f = ops.custom_gradient(forward)
    x, y = ops.convert_to_tensor(X), ops.convert_to_tensor(X[::-1].copy())
    gx, gy = ops.grad(lambda a, b: ops.sum(f(a, b)[0] * 3.0) + ops.sum(f(a, b)[1]), argnums=(0, 1))(x, y)
    yd = XD[::-1]
    _check(backend, gx, 2.0 * (3.0 * yd + 1.0), f"d/dx ({style})")
    _check(backend, gy, 2.0 * (3.0 * XD + 1.0), f"d/dy ({style})")


def test_custom_gradient_closure_gets_no_gradient(backend):
    def loss(x, w):
        @ops.custom_gradient
        def scale(t):
            return t * w, lambda up: up * w

        return ops.sum(scale(x) * x)

    x, w = ops.convert_to_tensor(X), ops.convert_to_tensor(np.float32(1.5))
    gx, gw = ops.grad(loss, argnums=(0, 1))(x, w)
    _check(backend, gx, 2 * 1.5 * XD, "d/dx")
    _check(backend, gw, 0.0, "d/dw: w reaches the output only through the custom-gradient function")


def test_custom_gradient_none_and_integer_arguments(backend):
    @ops.custom_gradient
    def shift(x, n):
        return x + ops.cast(n, "float32"), lambda up: (up * 3.0, None)

    x, n = ops.convert_to_tensor(X), ops.convert_to_tensor(np.int32(2))
    _check(backend, shift(x, n), XD + 2, "value", "forward")
    _check(backend, ops.grad(lambda t: ops.sum(shift(t, n)))(x), [3.0] * 3, "gradient")


def test_custom_gradient_errors(backend):
    @ops.custom_gradient
    def wrong(x, y):
        return x * y, lambda up: (up,)  # one gradient for two arguments

    x = ops.convert_to_tensor(X)
    with pytest.raises(ValueError, match="grad_fn returned 1 gradients for 2 arguments"):
        ops.grad(lambda t: ops.sum(wrong(t, t)))(x)
    with pytest.raises(TypeError, match="must be a function"):
        ops.custom_gradient(3.0)


# ----------------------------------------------------------------------------------------------- loops
def _grow(x):
    return ops.while_loop(lambda v: ops.sum(v * v) < 30.0, lambda v: v * 1.5, x)


def test_while_loop_gradient_without_bound(backend):
    """Native, PyTorch and TensorFlow differentiate an unbounded while_loop; JAX's lax.while_loop cannot be
    reverse-differentiated, and JAX says so (with maximum_iterations it can: see the cases)."""
    x = ops.convert_to_tensor(X)
    n = 0
    v = XD.copy()
    while np.sum(v * v) < 30.0:
        v, n = v * 1.5, n + 1
    _check(backend, _grow(x), v, "value", "forward")
    if backend.name == "jax":
        with pytest.raises(ValueError, match="[Rr]everse-mode differentiation"):
            ops.grad(lambda t: ops.sum(_grow(t)))(x)
        return
    _check(backend, ops.grad(lambda t: ops.sum(_grow(t)))(x), np.full(3, 1.5**n), f"d/dx after {n} iterations")


def test_while_loop_errors(backend):
    with pytest.raises(ValueError, match="changed a loop variable"):
        ops.while_loop(lambda v: ops.sum(v) < 10.0, lambda v: ops.concatenate([v, v]), ops.ones((2,)))
    with pytest.raises(ValueError, match="structure"):
        ops.while_loop(lambda a, b: ops.sum(a) < 10.0, lambda a, b: a + 1.0, (ops.ones((2,)), ops.ones((2,))))
    with pytest.raises(ValueError, match="maximum_iterations"):
        ops.while_loop(lambda v: True, lambda v: v, ops.ones(()), maximum_iterations=-1)


def test_loop_argument_errors(backend):
    with pytest.raises(TypeError, match="branches"):
        ops.switch(0, lambda x: x, 1.0)
    with pytest.raises(ValueError, match="empty"):
        ops.switch(0, [], 1.0)
    with pytest.raises(TypeError, match="integer"):
        ops.switch(ops.convert_to_tensor(1.0), [lambda x: x], 1.0)
    with pytest.raises(ValueError, match="scalar"):
        ops.fori_loop(ops.convert_to_tensor([0, 1]), 3, lambda i, v: v, 1.0)
    with pytest.raises(ValueError, match="same size"):
        ops.map(lambda x: x, (ops.ones((2, 3)), ops.ones((3, 3))))
    with pytest.raises(ValueError, match="unroll"):
        ops.scan(lambda c, x: (c, x), 0.0, ops.ones((3,)), unroll=0)


def test_vectorized_map_of_conditionals_and_loops(backend):
    """Branching on the mapped values inside vectorized_map: JAX batches lax.cond / lax.while_loop, TensorFlow's
    pfor its If / While; torch.vmap cannot read a batched predicate, so PyTorch runs such a function as a loop."""
    rows = np.array([[0.5, 1.0], [-2.0, 0.25], [3.0, -1.0]], np.float32)

    def per_row(r):
        r = ops.cond(ops.sum(r) > 0, lambda: r * 2.0, lambda: -r)
        return ops.while_loop(lambda v: ops.sum(v * v) < 16.0, lambda v: v * 1.5, r, maximum_iterations=10)

    def reference(r):
        r = r * 2.0 if r.sum() > 0 else -r
        n = 0
        while np.sum(r * r) < 16.0 and n < 10:
            r, n = r * 1.5, n + 1
        return r, n

    x = ops.convert_to_tensor(rows)
    want = [reference(r.astype(np.float64)) for r in rows]
    _check(backend, ops.vectorized_map(per_row, x), np.stack([w[0] for w in want]), "values", "forward")
    grad = ops.grad(lambda t: ops.sum(ops.vectorized_map(per_row, t)))(x)
    slopes = [(2.0 if r.sum() > 0 else -1.0) * 1.5**n for r, (_, n) in zip(rows, want)]
    _check(backend, grad, np.repeat(np.array(slopes)[:, None], 2, axis=1), "gradient")
