"""The native autograd engine: graph walk, accumulation, grad mode, version counters, buffer release."""

import gc
import weakref

import numpy as np
import pytest

from highlevel.backends.native import NativeBackend, Tensor, enable_grad, is_grad_enabled, no_grad
from highlevel.backends.native.autograd import backward, grad, record, unbroadcast

B = NativeBackend()


def leaf(values, dtype=np.float32):
    return Tensor(np.asarray(values, dtype=dtype), requires_grad=True)


def test_chain_of_100k_nodes_runs_without_recursion():
    x = leaf([1.0])
    y = x
    for _ in range(100_000):
        y = y + 1.0
    (g,) = grad(y, [x], np.ones(1, np.float32))
    assert g.tolist() == [1.0]
    assert y.data.tolist() == [100_001.0]


def test_deep_chain_of_multiplies_gives_the_product_rule():
    x = leaf([1.0], np.float64)
    y = x
    for _ in range(1000):
        y = y * 1.001
    (g,) = grad(y, [x], np.ones(1))
    np.testing.assert_allclose(g, [1.001**1000])


def test_gradients_accumulate_for_reused_tensors():
    x = leaf([2.0, 3.0])
    y = x * x + x * 3.0 + B.sin(x)  # x used four times
    (g,) = grad(B.sum(y), [x])
    np.testing.assert_allclose(g, 2 * np.array([2.0, 3.0]) + 3 + np.cos([2.0, 3.0]), rtol=1e-6)


def test_diamond_graph_and_shared_intermediates():
    x = leaf([1.5], np.float64)
    h = B.exp(x)
    y = h * h + h  # h consumed twice, x once
    (g,) = grad(y, [x], np.ones(1))
    e = np.exp(1.5)
    np.testing.assert_allclose(g, [2 * e * e + e])


def test_backward_accumulates_into_leaf_grad():
    x = leaf([1.0, 2.0])
    B.sum(x * 2.0).backward()
    B.sum(x * 3.0).backward()
    assert x.grad.tolist() == [5.0, 5.0]


def test_unused_and_constant_inputs():
    x, c = leaf([1.0]), Tensor(np.array([4.0], np.float32))
    unused = leaf([7.0])
    gx, gu = grad(B.sum(x * c), [x, unused])
    assert gx.tolist() == [4.0] and gu is None


def test_no_grad_and_enable_grad():
    x = leaf([1.0])
    assert is_grad_enabled()
    with no_grad():
        assert not is_grad_enabled()
        y = x * 2.0
        with enable_grad():
            z = x * 2.0
    assert is_grad_enabled()
    assert not y.requires_grad and y._node is None
    assert z.requires_grad

    @no_grad()
    def f(t):
        return t * 2.0

    assert not f(x).requires_grad
    assert is_grad_enabled()


def test_integer_results_and_comparisons_record_nothing():
    x = leaf([1.0, -1.0])
    assert not B.greater(x, 0.0).requires_grad
    assert not B.argmax(x).requires_grad
    assert not B.cast(x, "int32").requires_grad


def test_version_counter_error_names_the_op_and_versions():
    x = leaf([1.0, 2.0])
    w = leaf([3.0, 4.0])
    y = B.sum(B.multiply(x, w))
    w.add_(1.0)
    assert w._version == 1
    with pytest.raises(RuntimeError, match=r"'multiply'.*version 0.*version 1"):
        grad(y, [x])


def test_variable_assign_after_use_is_caught():
    v = B.make_variable_handle(B.convert_to_tensor([1.0, 2.0]), trainable=True)
    y = B.sum(B.square(B.read_variable(v)))
    B.assign_variable(v, [5.0, 5.0])
    with pytest.raises(RuntimeError, match="square"):
        grad(y, [v])


def test_mutation_of_an_unsaved_input_is_harmless():
    x, w = leaf([1.0]), leaf([2.0])
    y = B.add(x, w)  # add reads no input values in backward
    w.add_(10.0)
    gx, gw = grad(B.sum(y), [x, w])
    assert gx.tolist() == [1.0] and gw.tolist() == [1.0]


def test_second_backward_through_released_graph_raises():
    x = leaf([1.0])
    y = B.sum(B.exp(x))
    grad(y, [x])
    with pytest.raises(RuntimeError, match="already been run"):
        grad(y, [x])


def test_buffers_are_released_after_backward():
    x = leaf(np.ones(1000))
    h = B.exp(x)
    y = B.sum(B.tanh(h))
    node = h._node
    closure_ref = weakref.ref(node.backward)
    saved_data = weakref.ref(h.data) if hasattr(h.data, "__weakref__") else None
    grad(y, [x])
    assert node.backward is None and node.saved is None and node.inputs is None
    gc.collect()
    assert closure_ref() is None
    # the intermediate array dies with its tensor once the graph no longer holds it
    del h
    gc.collect()
    if saved_data is not None:
        assert saved_data() is None


def test_intermediate_gradients_are_freed_during_backward():
    refs = []

    def spy(t):
        def backward(g):
            refs.append(weakref.ref(g))
            return (g,)

        return record(t.data.copy(), (t,), backward)

    x = leaf(np.ones(10))
    y = x
    for _ in range(5):
        y = spy(y * 1.0)
    grad(B.sum(y), [x])
    gc.collect()
    assert len(refs) == 5 and all(r() is None for r in refs)


def test_record_contract_for_custom_ops():
    x = leaf([1.0, 2.0])

    def cube(t):
        d = t.data
        return record(d**3, (t,), lambda g: (3.0 * g * d * d,), saved=(t,))

    (g,) = grad(B.sum(cube(x)), [x])
    assert g.tolist() == [3.0, 12.0] and g.dtype == np.float32


def test_backward_shape_mismatch_is_reported():
    x = leaf([1.0, 2.0])
    y = record(x.data * 2, (x,), lambda g: (g[:1],))
    with pytest.raises(RuntimeError, match="shape"):
        grad(B.sum(y), [x])


def test_unbroadcast():
    g = np.ones((2, 3, 4))
    assert unbroadcast(g, (3, 1)).shape == (3, 1) and unbroadcast(g, (3, 1))[0, 0] == 8
    assert unbroadcast(g, ()).shape == () and unbroadcast(g, ()) == 24
    assert unbroadcast(g, (2, 3, 4)) is g


def test_non_scalar_backward_needs_an_output_gradient():
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match="non-scalar"):
        backward(x * 2.0)


def test_gradients_keep_the_input_dtype():
    x16 = Tensor(np.array([1.0, 2.0], np.float16), requires_grad=True)
    x32 = leaf([1.0, 2.0])
    y = B.sum(B.cast(x16, "float32") * x32)
    g16, g32 = grad(y, [x16, x32])
    assert g16.dtype == np.float16 and g32.dtype == np.float32


def test_only_float_tensors_can_require_grad():
    with pytest.raises(ValueError, match="float"):
        Tensor(np.array([1, 2]), requires_grad=True)
