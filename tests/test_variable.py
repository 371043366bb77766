"""``hl.Variable`` on every backend: creation, assignment, arithmetic and errors."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops


def test_create_read_assign(backend):
    v = hl.Variable(np.arange(6, dtype="float32").reshape(2, 3), name="w")
    assert v.shape == (2, 3) and v.dtype == "float32" and v.name == "w" and v.trainable
    assert v.backend is backend
    v.assign(np.ones((2, 3)))
    np.testing.assert_array_equal(v.numpy(), np.ones((2, 3)))
    assert v.dtype == "float32"  # assign casts to the variable's dtype
    v.assign_add(ops.ones((2, 3)))
    v.assign_sub(0.5)
    np.testing.assert_allclose(v.numpy(), np.full((2, 3), 1.5))


def test_callable_initializer_and_dtype(backend):
    v = hl.Variable(lambda shape, dtype: np.zeros(shape), shape=(4,), dtype="float64", trainable=False)
    assert v.dtype == "float64" and not v.trainable and v.shape == (4,)
    with pytest.raises(ValueError, match="needs a shape"):
        hl.Variable(lambda shape, dtype: 0.0)


def test_ops_accept_variables(backend):
    v = hl.Variable([1.0, 2.0])
    np.testing.assert_allclose(ops.convert_to_numpy(ops.add(v, 1.0)), [2.0, 3.0])
    np.testing.assert_allclose(ops.convert_to_numpy(v * v), [1.0, 4.0])
    np.testing.assert_allclose(ops.convert_to_numpy(2.0 - v), [1.0, 0.0])
    np.testing.assert_allclose(ops.convert_to_numpy(ops.matmul(v, v)), 5.0)


def test_gradient_flows_through_a_variable_value(backend):
    v = hl.Variable([1.0, -2.0])
    value, grad = ops.value_and_grad(lambda x: ops.sum(x * x))(v.value)
    np.testing.assert_allclose(ops.convert_to_numpy(grad), [2.0, -4.0])


def test_assign_wrong_shape_names_both_shapes(backend):
    v = hl.Variable(np.zeros((2, 3), "float32"))
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(3, 2\)|\(3, 2\).*\(2, 3\)"):
        v.assign(np.zeros((3, 2), "float32"))


def test_an_engine_tensor_meeting_a_variable_keeps_the_gradient(backend):
    # `tensor * variable` makes the engine convert the variable itself (TensorFlow's conversion registry, JAX's
    # __jax_array__); through __array__ it would become a constant with no gradient (or fail when traced).
    from highlevel.config import current_backend

    engine = current_backend()
    v = hl.Variable(np.array([1.0, 2.0], "float32"))
    x = hl.ops.convert_to_tensor(np.array([3.0, 4.0], "float32"))

    def loss():
        return hl.ops.sum(x * v + x / v - (x + v)), None

    def step(data):
        (value, _), grads = engine.variables_value_and_grad(loss, [v])
        v.assign(v.value - 0.5 * grads[0])
        return value

    (_, _), grads = engine.variables_value_and_grad(loss, [v])
    np.testing.assert_allclose(hl.ops.convert_to_numpy(grads[0]), [-1.0, 2.0], rtol=1e-6)
    engine.compile_step(step, [v], jit_compile=False)(None)
    np.testing.assert_allclose(v.numpy(), [1.5, 1.0], rtol=1e-6)
