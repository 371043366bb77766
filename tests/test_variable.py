"""``hl.Variable`` on every backend: creation, assignment, arithmetic and errors."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops
from highlevel.backends.contract import StatelessScope


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


def test_assign_add_is_assign_of_the_promoted_sum(backend):
    # assign_add(d) == assign(value + d) in every case: the engines' in-place fast path (a delta of the
    # variable's dtype) and the promoting path (the sum cast back to the variable's dtype) agree.
    v = hl.Variable(np.array([1.0, 2.0, 3.0], np.float32))
    assert v.assign_add(ops.convert_to_tensor(np.array([0.5, 0.25, 0.125], np.float32))) is v
    v.assign_add(1.5)  # a Python float: computed in float32
    v.assign_add(ops.convert_to_tensor(np.float32(2.0)))  # a scalar tensor broadcasts
    v.assign_add(hl.Variable(np.array([1.0, 1.0, 1.0], np.float32)))  # a variable's value
    np.testing.assert_array_equal(v.numpy(), np.float32([6.0, 6.75, 7.625]))
    assert v.dtype == "float32"
    i = hl.Variable(np.array([1, 2], np.int32))
    i.assign_add(np.array([0.75, 1.5], np.float32))  # int + float promotes, then casts back (truncation)
    np.testing.assert_array_equal(i.numpy(), [1, 3])
    assert i.dtype == "int32"
    i.assign_add(ops.convert_to_tensor(np.array([2, 2], np.int32)))
    np.testing.assert_array_equal(i.numpy(), [3, 5])
    with pytest.raises(ValueError, match="shape"):
        v.assign_add(np.ones((2, 3), np.float32))  # the sum would not fit the variable
    np.testing.assert_array_equal(v.numpy(), np.float32([6.0, 6.75, 7.625]))  # a refused add changes nothing


def test_assign_add_in_a_stateless_scope_records_instead_of_writing(backend):
    v = hl.Variable(np.float32(1.0))
    with StatelessScope({v: ops.convert_to_tensor(np.float32(10.0))}) as scope:
        v.assign_add(2.0)
        assert float(ops.convert_to_numpy(v.value)) == 12.0
    assert float(v.numpy()) == 1.0
    ((var, value),) = scope.assigned.values()
    assert var is v and float(ops.convert_to_numpy(value)) == 12.0


def test_numpy_conversion_of_scalars_and_arrays(backend):
    # np.asarray(variable) and to_numpy give numpy arrays, 0-d ones for scalars (TensorFlow's .numpy() of a 0-d
    # tensor is a numpy scalar, which __array__ may not return: np.asarray(optimizer.iterations) failed).
    for value, dtype in ((3, "int64"), (1.5, "float32"), ([1.0, 2.0], "float32")):
        v = hl.Variable(value, dtype=dtype)
        for got in (np.asarray(v), v.numpy(), hl.ops.convert_to_numpy(v.value)):
            assert isinstance(got, np.ndarray) and got.dtype == dtype
            np.testing.assert_array_equal(got, value)
    assert int(np.asarray(hl.optimizers.SGD().iterations)) == 0


def test_keras_distribution_arguments_are_kept_and_checked(backend):
    v = hl.Variable(np.ones(2, "float32"), aggregation="mean", synchronization="on_read", layout=None, name="v")
    assert (v.aggregation, v.synchronization, v.autocast, v.name) == ("mean", "on_read", True, "v")
    with pytest.raises(ValueError, match="aggregation must be one of"):
        hl.Variable(np.ones(2, "float32"), aggregation="average")
    with pytest.raises(ValueError, match="synchronization must be one of"):
        hl.Variable(np.ones(2, "float32"), synchronization="sometimes")


def test_a_variable_made_without_autocast_is_read_in_its_own_dtype(backend):
    from highlevel.mixed_precision.autocast import autocast_variables

    cast = hl.Variable(np.ones(2, "float32"))
    kept = hl.Variable(np.ones(2, "float32"), autocast=False)
    with autocast_variables([cast, kept], "float16", hl.config.current_backend()):
        assert hl.ops.dtype(cast.value) == "float16"
        assert hl.ops.dtype(kept.value) == "float32"
