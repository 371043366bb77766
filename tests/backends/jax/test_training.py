"""The JAX engine's compiled step: state donated and handed back, weights named read-only passed in only."""

import numpy as np
import pytest

pytest.importorskip("jax")

import highlevel as hl  # noqa: E402
from highlevel import ops  # noqa: E402


@pytest.fixture
def b():
    with hl.config.backend_scope("jax") as engine:
        yield engine


def _state():
    w = hl.Variable(np.array([1.0, 2.0, 3.0], np.float32), name="w")
    total = hl.Variable(np.zeros((), np.float32), trainable=False, name="total")
    return w, total


def test_read_only_weights_are_neither_donated_nor_replaced(b):
    w, total = _state()
    w_array, total_array = w.handle.value, total.handle.value

    def step(x):
        total.assign_add(ops.sum(x * w))
        return x * w

    run = b.compile_step(step, [w, total], read_only=[w])
    run(np.ones(3, np.float32))
    assert w.handle.value is w_array and not w_array.is_deleted()  # passed in only
    assert total_array.is_deleted() and float(total.numpy()) == 6.0  # donated, handed back


def test_a_read_only_weight_the_step_assigns_is_moved_to_the_assigned_state(b):
    w, total = _state()
    traces = []

    def step(x):
        traces.append(1)
        w.assign(w.value * x)
        return ops.sum(w.value)

    run = b.compile_step(step, [w, total], read_only=[w])
    assert float(run(np.full(3, 2.0, np.float32))) == 12.0
    assert float(run(np.full(3, 2.0, np.float32))) == 24.0
    # Traced twice (the first trace found the assignment and was dropped), then the new program is reused.
    assert len(traces) == 2
    np.testing.assert_array_equal(w.numpy(), [4.0, 8.0, 12.0])


def test_a_step_assigning_a_variable_outside_its_state_is_refused(b):
    w, total = _state()
    stranger = hl.Variable(np.zeros(3, np.float32), name="stranger")

    def step(x):
        stranger.assign(x * w)
        return x

    run = b.compile_step(step, [w, total], read_only=[w])
    with pytest.raises(ValueError, match=r"not part of its state: \[.stranger.\]"):
        run(np.ones(3, np.float32))
