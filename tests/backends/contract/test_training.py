"""``compile_step`` on every engine: the state it reads, the state it assigns, and the ``read_only`` hint."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops


def _state():
    w = hl.Variable(np.array([1.0, 2.0, 3.0], np.float32), name="w")
    total = hl.Variable(np.zeros((), np.float32), trainable=False, name="total")
    return w, total


@pytest.mark.parametrize("jit_compile", ["auto", True, False])
def test_read_only_weights_are_read_and_the_other_state_is_updated(backend, jit_compile):
    w, total = _state()

    def step(x):
        y = x * w
        total.assign_add(ops.sum(y))
        return y

    run = backend.compile_step(step, [w, total], jit_compile=jit_compile, read_only=[w])
    for scale in (1.0, 2.0, 3.0):
        out = run(ops.convert_to_tensor(np.full(3, scale, np.float32)))
        np.testing.assert_allclose(ops.convert_to_numpy(out), scale * np.array([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(total.numpy(), 6.0 * (1.0 + 2.0 + 3.0))
    np.testing.assert_array_equal(w.numpy(), [1.0, 2.0, 3.0])


@pytest.mark.parametrize("jit_compile", ["auto", False])
def test_a_read_only_variable_the_step_assigns_all_the_same_is_updated(backend, jit_compile):
    # The hint is only a hint: a step that does assign a variable named read-only gets it updated, on every call
    # (JAX traces the step again with the variable among the assigned state).
    w, total = _state()

    def step(x):
        w.assign(w.value + x)
        total.assign_add(ops.sum(w.value))
        return ops.sum(w.value)

    run = backend.compile_step(step, [w, total], jit_compile=jit_compile, read_only=[w, total])
    outs = [float(ops.convert_to_numpy(run(ops.convert_to_tensor(np.ones(3, np.float32))))) for _ in range(3)]
    assert outs == [9.0, 12.0, 15.0]
    np.testing.assert_array_equal(w.numpy(), [4.0, 5.0, 6.0])
    np.testing.assert_allclose(total.numpy(), 36.0)
