"""Conventions every backend shares beyond the case tables: gradients at kinks and ties (JAX's choices),
``value_and_grad`` structure, accepted input types, and errors.
"""

import numpy as np
import pytest

from highlevel.backends.contract import Variable

INF = float("inf")


def _grad(b, fn, *xs, argnums=0):
    tensors = [b.convert_to_tensor(np.asarray(x, np.float32)) for x in xs]
    _, g = b.value_and_grad(fn, argnums=argnums)(*tensors)
    return [np.asarray(b.to_numpy(e)) for e in g] if isinstance(g, (tuple, list)) else np.asarray(b.to_numpy(g))


# name -> (loss builder taking (backend, *tensors), inputs, argnums, expected gradient(s))
KINKS = {
    "relu-at-0": (lambda b, x: b.sum(b.relu(x)), ([-1.0, 0.0, 2.0],), 0, [0.0, 0.0, 1.0]),
    "relu6-at-0-and-6": (lambda b, x: b.sum(b.relu6(x)), ([0.0, 3.0, 6.0, 7.0],), 0, [0.0, 1.0, 0.0, 0.0]),
    "abs-at-0": (lambda b, x: b.sum(b.abs(x)), ([-1.0, 0.0, 2.0],), 0, [-1.0, 0.0, 1.0]),
    "sign-is-flat": (lambda b, x: b.sum(b.sign(x)), ([-1.0, 0.0, 2.0],), 0, [0.0, 0.0, 0.0]),
    "sqrt-at-0-is-inf": (lambda b, x: b.sum(b.sqrt(x)), ([0.0, 4.0],), 0, [INF, 0.25]),
    "max-ties-split": (lambda b, x: b.max(x), ([1.0, 3.0, 3.0, 0.0],), 0, [0.0, 0.5, 0.5, 0.0]),
    "max-axis-ties": (
        lambda b, x: b.sum(b.max(x, axis=1)),
        ([[2.0, 2.0, 2.0], [1.0, 5.0, 5.0]],),
        0,
        [[1 / 3, 1 / 3, 1 / 3], [0.0, 0.5, 0.5]],
    ),
    "min-ties-split": (lambda b, x: b.min(x), ([1.0, 0.0, 3.0, 0.0],), 0, [0.0, 0.5, 0.0, 0.5]),
    "maximum-tie-half": (
        lambda b, x, y: b.sum(b.maximum(x, y)),
        ([1.0, 2.0], [1.0, 3.0]),
        (0, 1),
        ([0.5, 0.0], [0.5, 1.0]),
    ),
    "minimum-tie-half": (
        lambda b, x, y: b.sum(b.minimum(x, y)),
        ([1.0, 2.0], [1.0, 3.0]),
        (0, 1),
        ([0.5, 1.0], [0.5, 0.0]),
    ),
    "clip-bounds-inclusive": (
        lambda b, x: b.sum(b.clip(x, -0.5, 0.5)),
        ([-1.0, -0.5, 0.0, 0.5, 1.0],),
        0,
        [0.0, 1.0, 1.0, 1.0, 0.0],
    ),
    "leaky-relu-at-0": (lambda b, x: b.sum(b.leaky_relu(x)), ([-1.0, 0.0, 1.0],), 0, [0.2, 1.0, 1.0]),
    "stop-gradient": (lambda b, x: b.sum(b.multiply(b.stop_gradient(x), x)), ([2.0, 3.0],), 0, [2.0, 3.0]),
    "round-floor-flat": (lambda b, x: b.sum(b.add(b.round(x), b.floor(x))), ([0.3, 1.7],), 0, [0.0, 0.0]),
    "unused-arg-zeros": (
        lambda b, x, y: b.sum(x),
        ([1.0, 2.0], [5.0, 6.0, 7.0]),
        (0, 1),
        ([1.0, 1.0], [0.0, 0.0, 0.0]),
    ),
    "reused-input-accumulates": (lambda b, x: b.sum(b.add(b.multiply(x, x), x)), ([1.0, -2.0],), 0, [3.0, -3.0]),
}


@pytest.mark.parametrize("name", list(KINKS))
def test_gradient_convention(backend, name):
    fn, inputs, argnums, want = KINKS[name]
    got = _grad(backend, lambda *xs: fn(backend, *xs), *inputs, argnums=argnums)
    if isinstance(argnums, tuple):
        for i, (g, w) in enumerate(zip(got, want)):
            np.testing.assert_allclose(g, w, rtol=1e-6, err_msg=f"{backend.name} {name}: d/dx{i}")
    else:
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"{backend.name} {name}")


def test_integer_argument_gets_none(backend):
    x = backend.convert_to_tensor(np.array([1.0, 2.0], np.float32))
    n = backend.convert_to_tensor(np.array([3, 4], np.int32))
    _, (gx, gn) = backend.value_and_grad(lambda x, n: backend.sum(backend.multiply(x, n)), argnums=(0, 1))(x, n)
    np.testing.assert_allclose(backend.to_numpy(gx), [3.0, 4.0])
    assert gn is None, f"{backend.name}: the gradient for an int32 argument is {gn!r}, expected None"


def test_has_aux_and_nested_structure(backend):
    params = {
        "w": backend.convert_to_tensor(np.array([1.0, 2.0], np.float32)),
        "b": [backend.convert_to_tensor(np.array(0.5, np.float32))],
    }

    def fn(p):
        y = backend.add(backend.multiply(p["w"], 3.0), p["b"][0])
        return backend.sum(y), {"y": y}

    (value, aux), grads = backend.value_and_grad(fn, has_aux=True)(params)
    assert float(backend.to_numpy(value)) == pytest.approx(10.0)
    np.testing.assert_allclose(backend.to_numpy(aux["y"]), [3.5, 6.5])
    assert set(grads) == {"w", "b"} and isinstance(grads["b"], list), f"{backend.name}: grads {grads!r}"
    np.testing.assert_allclose(backend.to_numpy(grads["w"]), [3.0, 3.0])
    np.testing.assert_allclose(backend.to_numpy(grads["b"][0]), 2.0)


@pytest.mark.parametrize("op", ["max", "min"])
def test_max_min_of_empty_axis_raise(backend, op):
    x = backend.zeros((0, 3))
    with pytest.raises(ValueError):
        backend.to_numpy(getattr(backend, op)(x, axis=0))


def test_inputs_may_be_variables_arrays_scalars_and_lists(backend):
    v = Variable(np.array([1.0, 2.0], np.float32), backend=backend)
    out = backend.add(v, np.array([0.5, 0.5], np.float32))
    assert backend.dtype(out) == "float32"
    np.testing.assert_allclose(backend.to_numpy(out), [1.5, 2.5])
    out = backend.multiply([1, 2, 3], 2)
    assert backend.dtype(out) == "int32", f"{backend.name}: [1, 2, 3] * 2 gave {backend.dtype(out)!r}"
    np.testing.assert_array_equal(backend.to_numpy(out), [2, 4, 6])
    assert backend.dtype(backend.sum(v)) == "float32"
    np.testing.assert_allclose(backend.to_numpy(backend.matmul(v, [[1.0], [1.0]])), [3.0])
    out = backend.concatenate([v, np.array([3.0], np.float32), [4.0]])
    np.testing.assert_allclose(backend.to_numpy(out), [1.0, 2.0, 3.0, 4.0])
    assert backend.shape(backend.add(2.0, 3.0)) == ()
    assert backend.is_tensor(backend.convert_to_tensor(v)) and not backend.is_tensor(np.zeros(2))


def test_variable_gradient_through_value(backend):
    v = Variable(np.array([1.0, -2.0], np.float32), backend=backend)
    _, g = backend.value_and_grad(lambda x: backend.sum(backend.square(x)))(v.value)
    np.testing.assert_allclose(backend.to_numpy(g), [2.0, -4.0])
