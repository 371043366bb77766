"""Higher-order autodiff on the native engine: graph mode, nested value_and_grad, per-thread grad mode.

The numbers of every op's second derivative are checked in tests/conformance/test_second_order.py; here, the
engine's mechanics, and a static check that every VJP rule in the engine has a graph form.
"""

import ast
import pathlib
import threading
import zlib

import numpy as np
import pytest

import highlevel as hl
from highlevel.backends.native import NativeBackend, Tensor, autograd, is_grad_enabled, no_grad
from highlevel.backends.native.autograd import grad, record

B = NativeBackend()
NATIVE = pathlib.Path(autograd.__file__).parent


def leaf(values, dtype=np.float64):
    return Tensor(np.asarray(values, dtype=dtype), requires_grad=True)


def test_the_gradient_of_a_gradient_is_not_zero():
    from highlevel import ops

    with hl.config.backend_scope("native"):
        f = lambda x: ops.sum(x**3)  # noqa: E731
        g = lambda x: ops.sum(hl.ops.grad(f)(x))  # noqa: E731
        got = hl.ops.grad(g)(ops.convert_to_tensor([1.0, 2.0]))
    assert ops.convert_to_numpy(got).tolist() == [6.0, 12.0]


def test_third_derivative_of_x_to_the_fourth():
    from highlevel import ops

    with hl.config.backend_scope("native"):
        d3 = ops.grad(ops.grad(ops.grad(lambda x: x**4)))
        assert float(d3(ops.convert_to_tensor(1.5))) == pytest.approx(24 * 1.5)
        assert float(ops.grad(ops.grad(ops.grad(ops.grad(lambda x: x**4))))(ops.convert_to_tensor(0.3))) == 24.0


def test_graph_mode_returns_tensors_that_differentiate_again():
    x = leaf([0.5, -1.0])
    y = B.sum(B.exp(x) * x)
    (g,) = grad(y, [x], create_graph=True)
    assert isinstance(g, Tensor) and g.requires_grad
    (h,) = grad(B.sum(g), [x])  # d/dx (e^x (1 + x)) = e^x (2 + x)
    np.testing.assert_allclose(h, np.exp([0.5, -1.0]) * (2 + np.array([0.5, -1.0])))


def test_graph_mode_keeps_the_graph_and_array_mode_releases_it():
    x = leaf([2.0])
    y = B.sum(B.sin(x) * x)
    grad(y, [x], create_graph=True)
    grad(y, [x], create_graph=True)  # nothing released: a second graph-mode pass works
    grad(y, [x])  # array mode releases as it goes
    with pytest.raises(RuntimeError, match="already been run and released"):
        grad(y, [x])


def test_graph_mode_runs_only_the_part_that_leads_to_the_inputs():
    calls = []

    def counting(g, out=None):
        calls.append(out is not None)
        return (g,)

    x, other = leaf([1.0]), leaf([2.0])
    side = record(other.data * 1.0, (other,), counting, name="side")
    y = B.sum(x * x + side)
    (g,) = grad(y, [x], create_graph=True)
    assert float(g.data[0]) == 2.0 and calls == []  # the branch towards `other` never ran
    grad(y, [x, other], create_graph=True)
    assert calls == [True]


def test_a_rule_without_a_graph_form_is_an_error_naming_the_op():
    x = leaf([1.0, 2.0])
    y = record(x.data * 3.0, (x,), lambda g: (g * 3.0,), name="triple")
    with pytest.raises(RuntimeError, match="'triple' cannot be differentiated again"):
        grad(B.sum(y), [x], create_graph=True)


def test_a_rule_returning_an_array_in_graph_mode_is_an_error():
    x = leaf([1.0, 2.0])
    y = record(x.data * x.data, (x,), lambda g, out=None: (2.0 * g.data * x.data,), name="square_as_array")
    with pytest.raises(RuntimeError, match="'square_as_array' returned a ndarray in graph mode"):
        grad(B.sum(y), [x], create_graph=True)


def test_value_and_grad_nested_three_deep_with_argnums():
    # f(x, y) = x^2 y^3: d/dy d/dx d/dx f = 2 * 3 y^2
    def f(x, y):
        return B.sum(x * x * y * y * y)

    def dfdx(x, y):
        return B.sum(B.grad(f, argnums=0)(x, y))

    def d2fdx2(x, y):
        return B.sum(B.grad(dfdx, argnums=0)(x, y))

    x, y = B.convert_to_tensor([1.5]), B.convert_to_tensor([2.0])
    gx, gy = B.grad(d2fdx2, argnums=(0, 1))(x, y)
    assert B.to_numpy(gx).tolist() == [0.0] and B.to_numpy(gy).tolist() == [24.0]


def test_first_order_value_and_grad_is_unchanged():
    # outside any differentiation: detached value and aux, array mode, fresh leaves
    x = B.convert_to_tensor([1.0, 2.0])
    (value, aux), g = B.value_and_grad(lambda t: (B.sum(t * t), t * 2.0), has_aux=True)(x)
    assert not value.requires_grad and not aux.requires_grad and not g.requires_grad
    assert B.to_numpy(g).tolist() == [2.0, 4.0]


def test_grad_mode_is_per_thread():
    inside_no_grad, other_recorded = threading.Event(), threading.Event()
    seen = {}

    def quiet():
        with no_grad():
            inside_no_grad.set()
            other_recorded.wait(10)
            seen["quiet"] = (is_grad_enabled(), (leaf([1.0]) * 2.0).requires_grad)
        seen["quiet after"] = is_grad_enabled()

    def recording():
        inside_no_grad.wait(10)  # the other thread is inside no_grad now
        seen["recording"] = (is_grad_enabled(), (leaf([1.0]) * 2.0).requires_grad)
        other_recorded.set()

    threads = [threading.Thread(target=quiet), threading.Thread(target=recording)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert seen == {"quiet": (False, False), "recording": (True, True), "quiet after": True}
    assert is_grad_enabled()


def test_differentiation_depth_is_per_thread():
    # a value_and_grad running in one thread does not make another thread's gradients graphs
    started, checked = threading.Event(), threading.Event()
    seen = {}

    def loss(x):
        started.set()
        checked.wait(10)
        return B.sum(x)

    def other():
        started.wait(10)
        seen["other"] = autograd.in_differentiation()
        checked.set()

    t = threading.Thread(target=other)
    t.start()
    B.value_and_grad(loss)(B.convert_to_tensor([1.0]))
    t.join(20)
    assert seen == {"other": False}


# ------------------------------------------------------------------------- every rule has a graph form
def _record_sites():
    """``(file, line, rule)`` for every call of ``record(...)`` in the engine, ``rule`` the backward's AST."""
    sites = []
    for path in sorted(NATIVE.glob("*.py")):
        tree = ast.parse(path.read_text())
        functions = {}  # name -> definitions, anywhere in the module (closures are found by name)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions.setdefault(node.name, []).append(node)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func
            if not (
                (isinstance(fn, ast.Name) and fn.id == "record")
                or (isinstance(fn, ast.Attribute) and fn.attr == "record")
            ):
                continue
            rule = node.args[2] if len(node.args) > 2 else next(k.value for k in node.keywords if k.arg == "backward")
            if isinstance(rule, ast.Name):
                # the closure of that name defined closest above the call
                candidates = [d for d in functions.get(rule.id, []) if d.lineno < node.lineno]
                assert candidates, f"{path.name}:{node.lineno}: no definition of {rule.id}"
                rule = max(candidates, key=lambda d: d.lineno)
            sites.append((path.name, node.lineno, rule))
    return sites


def test_every_record_site_has_a_graph_form():
    # The protocol: every rule takes (g, out). Whether each graph form is right is checked numerically for every
    # op by tests/conformance/test_second_order.py, and to third order for the linear ops below.
    sites = _record_sites()
    assert len(sites) >= 60, f"found only {len(sites)} record sites: is the scan still finding them?"
    missing = [f"{name}:{line}" for name, line, rule in sites if len(rule.args.args) < 2]
    assert not missing, "record sites whose rule has no graph form (backward(g, out)):\n" + "\n".join(missing)


# ----------------------------------------------------------------------------------------- third order
RNG = np.random.default_rng(7)
IDX = np.array([2, 0, 2, 1])
THIRD_ORDER = {
    # linear ops whose graph form is a `linear` pair (their third derivative runs the pair's own graph forms)
    "take": (lambda x: B.take(x, IDX, axis=1), (3, 4)),
    "getitem-advanced": (lambda x: x[IDX], (4, 3)),
    "take_along_axis": (lambda x: B.take_along_axis(x, np.array([[0, 2], [1, 1], [3, 0]]), axis=1), (3, 4)),
    "pad-reflect": (lambda x: B.pad(x, ((1, 2), (2, 1)), mode="reflect"), (3, 4)),
    "repeat": (lambda x: B.repeat(x, 2, axis=0), (2, 3)),
    "sort": (lambda x: B.sort(x, axis=-1), (3, 4)),
    "max_pool": (lambda x: B.max_pool(x, 2, padding="same"), (1, 5, 5, 2)),
    "average_pool": (lambda x: B.average_pool(x, 3, strides=2, padding="same"), (1, 5, 5, 2)),
    # bilinear: the convolution family (each map's gradient is two of the three maps)
    "conv": (lambda x: B.conv(x, _W_CONV, padding="same", strides=2), (1, 5, 6, 2)),
    "depthwise_conv": (lambda x: B.depthwise_conv(x, _W_DEPTH), (1, 5, 5, 2)),
    "conv_transpose": (lambda x: B.conv_transpose(x, _W_TRANS, strides=2, padding="same"), (1, 3, 3, 2)),
    "einsum-diagonal": (lambda x: B.einsum("ii->i", x), (4, 4)),
}
_W_CONV = RNG.standard_normal((3, 3, 2, 3))
_W_DEPTH = RNG.standard_normal((2, 2, 2, 2))
_W_TRANS = RNG.standard_normal((3, 3, 2, 2))


@pytest.mark.parametrize("name", sorted(THIRD_ORDER))
def test_third_order_directional_derivative(name):
    # s(x) = v^T H(x) v for L = sum(c*y + d*y^2/2 + e*y^3/6), y = op(x): a linear op's third derivative is the
    # cubic term's, which runs the op's VJP three times deep; grad s . u against finite differences of s
    op, shape = THIRD_ORDER[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    x0 = rng.standard_normal(shape)
    if name in ("sort", "max_pool"):
        x0 = (rng.permutation(x0.size).reshape(shape) - x0.size / 2) * 0.25  # no ties
    y_shape = B.shape(op(B.convert_to_tensor(x0)))
    c, d, e = (B.convert_to_tensor(rng.standard_normal(y_shape)) for _ in range(3))
    v, u = (B.convert_to_tensor(rng.standard_normal(shape)) for _ in range(2))

    def loss(x):
        y = op(x)
        return B.sum(c * y + d * y * y * 0.5 + e * y * y * y * (1.0 / 6.0))

    def s(x):
        hv = B.grad(lambda t: B.sum(B.grad(loss)(t) * v))(x)
        return B.sum(hv * v)

    got = float(B.sum(B.grad(s)(B.convert_to_tensor(x0)) * u))
    eps = 1e-5
    step = B.to_numpy(u) * eps
    want = (float(s(B.convert_to_tensor(x0 + step))) - float(s(B.convert_to_tensor(x0 - step)))) / (2 * eps)
    assert abs(want) > 1e-3, "the third derivative is (nearly) zero: the check would prove nothing"
    assert got == pytest.approx(want, rel=1e-6, abs=1e-7)
