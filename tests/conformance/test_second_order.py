"""Second derivatives on every backend: ``grad`` and ``value_and_grad`` composed with themselves.

* ``test_hvp_finite_differences[<op>-<case>]`` and ``test_hvp[<backend>-<op>-<case>]``: a Hessian-vector
  product for every first-order gradient case (see ``second_order.py``): the native float64 one against
  finite differences of the native gradient, each backend's float32 one against the native float64 one.
* The rest compose the public ``hl.ops.grad`` / ``hl.ops.value_and_grad`` the ways users do: a gradient of a
  gradient, a third derivative, the Hessian-vector product of a small MLP's loss with respect to its weights,
  mixed partials over several ``argnums``, ``has_aux`` inside, and the value of a nested ``value_and_grad``.
  Their references are float64 closed forms or finite differences.
"""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops

from .cases import ALL
from .runner import grad_cases
from .second_order import check_hvp, check_hvp_fd
from .tolerances import reason, tolerance

GRAD_CASES = grad_cases(ALL)


# A gradient that passes through a half-precision rounding has finite differences that measure the rounding steps
# (1e-3 relative), not the derivative: those cases have no finite-difference oracle (test_hvp compares them across
# backends instead).
FD_CASES = [c for c in GRAD_CASES if c.kwargs.get("dtype") not in ("float16", "bfloat16")]


@pytest.mark.parametrize("case", FD_CASES, ids=lambda c: c.id)
def test_hvp_finite_differences(case):
    check_hvp_fd(case)


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_hvp(backend, case):
    check_hvp(backend, case)


def _check(backend, got, want, what, dtype="float32"):
    rtol, atol = tolerance("composition", dtype, backend.name, "hvp")
    why = reason("composition", dtype, backend.name, "hvp")
    np.testing.assert_allclose(
        np.asarray(ops.convert_to_numpy(got), np.float64),
        want,
        rtol=rtol,
        atol=atol,
        err_msg=f"{backend.name}: {what} [tolerance: {why}]",
    )


def test_grad_of_grad_example(backend):
    f = lambda x: ops.sum(x**3)  # noqa: E731
    g = lambda x: ops.sum(ops.grad(f)(x))  # noqa: E731
    _check(backend, ops.grad(g)(ops.convert_to_tensor([1.0, 2.0])), [6.0, 12.0], "d/dx sum(3 x^2)")


def test_third_derivative(backend):
    x = np.array([0.5, -1.0, 2.0], np.float32)
    f = lambda t: ops.sum(t**4)  # noqa: E731
    f1 = lambda t: ops.sum(ops.grad(f)(t))  # noqa: E731
    f2 = lambda t: ops.sum(ops.grad(f1)(t))  # noqa: E731
    _check(backend, ops.grad(f2)(ops.convert_to_tensor(x)), 24.0 * x.astype(np.float64), "d3/dx3 x^4")


def test_grad_of_value_and_grad(backend):
    # the value of a nested value_and_grad is differentiable, and so is its gradient: d/dx (f + sum(f'))
    x = np.array([0.3, -0.7, 1.1], np.float32)

    def outer(t):
        value, g = ops.value_and_grad(lambda u: ops.sum(ops.sin(u) * u))(t)
        return value + ops.sum(g)

    xd = x.astype(np.float64)
    # f = sum(x sin x); f' = sin x + x cos x; f'' = 2 cos x - x sin x
    want = np.sin(xd) + xd * np.cos(xd) + 2 * np.cos(xd) - xd * np.sin(xd)
    _check(backend, ops.grad(outer)(ops.convert_to_tensor(x)), want, "d/dx (f + sum f')")


def test_mixed_partials_with_several_argnums(backend):
    # f(x, y) = sum(x^2 * exp(y)); the gradient of <grad_x f, v> with respect to x and y
    rng = np.random.default_rng(0)
    x, y, v = (rng.standard_normal(4).astype(np.float32) for _ in range(3))

    def inner(a, b):
        gx = ops.grad(lambda p, q: ops.sum(p * p * ops.exp(q)), argnums=0)(a, b)
        return ops.sum(gx * ops.convert_to_tensor(v))

    gx, gy = ops.grad(inner, argnums=(0, 1))(ops.convert_to_tensor(x), ops.convert_to_tensor(y))
    xd, yd, vd = (t.astype(np.float64) for t in (x, y, v))
    _check(backend, gx, 2 * np.exp(yd) * vd, "d2f/dx2 v")
    _check(backend, gy, 2 * xd * np.exp(yd) * vd, "d2f/dydx v")


def test_gradient_with_respect_to_a_captured_tensor(backend):
    # the inner function closes over the outer argument: the inner gradient depends on it (d/dy grad_x f)
    x = np.array([0.5, 1.5], np.float32)

    def outer(y):
        g = ops.grad(lambda a: ops.sum(ops.sin(a * y)))(ops.convert_to_tensor(x))
        return ops.sum(g)

    yd, xd = 0.7, x.astype(np.float64)
    # grad_x = y cos(x y); d/dy sum(y cos(x y)) = sum(cos(x y) - x y sin(x y))
    want = np.sum(np.cos(xd * yd) - xd * yd * np.sin(xd * yd))
    _check(backend, ops.grad(outer)(ops.convert_to_tensor(np.float32(yd))), want, "d/dy sum(grad_x f)")


def test_has_aux_inside(backend):
    x = np.array([0.2, -0.4, 0.9], np.float32)

    def outer(t):
        (value, aux), g = ops.value_and_grad(lambda u: (ops.sum(ops.tanh(u)), u * u), has_aux=True)(t)
        return ops.sum(g) + ops.sum(aux) + value

    xd = x.astype(np.float64)
    th = np.tanh(xd)
    # d/dx [sum(1 - tanh^2) + sum(x^2) + sum(tanh)] = -2 tanh (1 - tanh^2) + 2x + (1 - tanh^2)
    want = -2 * th * (1 - th**2) + 2 * xd + (1 - th**2)
    _check(backend, ops.grad(outer)(ops.convert_to_tensor(x)), want, "d/dx with an aux output")


# ----------------------------------------------------------------------------------------- a small MLP
def _mlp_data():
    rng = np.random.default_rng(42)
    x = rng.standard_normal((8, 3)).astype(np.float32)
    y = rng.standard_normal((8, 2)).astype(np.float32)
    weights = [rng.standard_normal(s).astype(np.float32) * 0.5 for s in ((3, 5), (5,), (5, 2), (2,))]
    directions = [rng.standard_normal(w.shape).astype(np.float32) for w in weights]
    return x, y, weights, directions


def _mlp_loss(x, y):
    def loss(w1, b1, w2, b2):
        h = ops.tanh(ops.add(ops.matmul(x, w1), b1))
        return ops.mean(ops.square(ops.subtract(ops.add(ops.matmul(h, w2), b2), y)))

    return loss


def _mlp_hvp(x, y, weights, directions):
    """The Hessian-vector product of the MLP's MSE loss with respect to its four weights, on the current backend."""
    grad_fn = ops.grad(_mlp_loss(x, y), argnums=(0, 1, 2, 3))
    vs = [ops.convert_to_tensor(v) for v in directions]

    def directional(*w):
        total = None
        for g, v in zip(grad_fn(*w), vs):
            term = ops.sum(ops.multiply(g, v))
            total = term if total is None else ops.add(total, term)
        return total

    return ops.grad(directional, argnums=(0, 1, 2, 3))(*[ops.convert_to_tensor(w) for w in weights])


def _native_mlp(dtype=np.float64, shift=0.0):
    """Native float64 gradient (shift: the weights moved by shift * direction) and Hessian-vector product."""
    x, y, weights, directions = _mlp_data()
    x, y = x.astype(dtype), y.astype(dtype)
    weights = [(w.astype(dtype) + shift * v.astype(dtype)) for w, v in zip(weights, directions)]
    directions = [v.astype(dtype) for v in directions]
    with hl.config.backend_scope("native"):
        grads = ops.grad(_mlp_loss(ops.convert_to_tensor(x), ops.convert_to_tensor(y)), argnums=(0, 1, 2, 3))(
            *[ops.convert_to_tensor(w) for w in weights]
        )
        hvp = _mlp_hvp(ops.convert_to_tensor(x), ops.convert_to_tensor(y), weights, directions)
        return [ops.convert_to_numpy(g) for g in grads], [ops.convert_to_numpy(h) for h in hvp]


def test_mlp_hvp_native_float64_matches_finite_differences():
    eps = 1e-6
    _, hvp = _native_mlp()
    up, _ = _native_mlp(shift=eps)
    down, _ = _native_mlp(shift=-eps)
    rtol, atol = tolerance("mlp", "float64", "native", "hvp-fd")
    for name, h, u, d in zip(("w1", "b1", "w2", "b2"), hvp, up, down):
        np.testing.assert_allclose(h, (u - d) / (2 * eps), rtol=rtol, atol=atol, err_msg=f"H v [{name}]")
        assert np.abs(h).max() > 1e-3, f"H v [{name}] is (nearly) zero: the check would prove nothing"


def test_mlp_hvp(backend):
    _, want = _native_mlp()
    x, y, weights, directions = _mlp_data()
    got = _mlp_hvp(ops.convert_to_tensor(x), ops.convert_to_tensor(y), weights, directions)
    for name, g, w in zip(("w1", "b1", "w2", "b2"), got, want):
        assert ops.dtype(g) == "float32", f"H v [{name}]: dtype {ops.dtype(g)}"
        _check(backend, g, w, f"MLP loss H v [{name}] vs native float64")


def test_gradient_penalty_in_a_training_loss(backend):
    # A loss that takes a gradient itself (a gradient penalty, as in WGAN-GP): the engine's training gradient
    # (variables_value_and_grad) differentiates through the inner gradient. p(w) = sum((d/dx sum(tanh(x w)))^2)
    x = np.array([0.5, -1.0, 2.0], np.float32)
    w = hl.Variable(np.array([0.3, 0.8, -0.4], np.float32))
    xt = ops.convert_to_tensor(x)

    def loss():
        g = ops.grad(lambda t: ops.sum(ops.tanh(t * w.value)))(xt)
        return ops.sum(g * g), None

    (_, _), (gw,) = backend.variables_value_and_grad(loss, [w])
    xd, wd = x.astype(np.float64), w.numpy().astype(np.float64)
    t = np.tanh(xd * wd)
    s = 1 - t**2  # d/dx tanh(x w) = w s;  p = sum(w^2 s^2);  ds/dw = -2 t s x
    _check(backend, gw, 2 * wd * s**2 - 4 * wd**2 * s**2 * t * xd, "d/dw of a gradient penalty")


@pytest.mark.parametrize("op", ["relu", "relu6", "leaky_relu", "hard_sigmoid", "abs"])
def test_piecewise_linear_second_derivative_is_zero_off_the_kinks(backend, op):
    x = np.array([-4.0, -2.5, -0.5, 0.7, 2.0, 5.0, 7.0], np.float32)  # no entry on a kink (0, +-3, 6)
    fn = getattr(ops, op)
    d2 = ops.grad(lambda t: ops.sum(ops.grad(lambda u: ops.sum(fn(u)))(t)))(ops.convert_to_tensor(x))
    assert ops.convert_to_numpy(d2).tolist() == [0.0] * len(x), f"{backend.name}: {op}''"
