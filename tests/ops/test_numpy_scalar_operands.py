"""A numpy scalar (what iterating over a numpy array gives) is an operand like the 0-d array it is, on every engine.

Users meet them in loops: ``for step in np.arange(n): schedule(step)``, ``for lr in np.linspace(...)``. Every
engine must give the value and the (strong) dtype of the 0-d array, whether it runs the op eagerly or as a
compiled program of its own (JAX traces numpy scalars in operand slots instead of compiling one program per
value: ``backends/jax/op_programs.py``).
"""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops

SCALARS = [np.int64(7), np.int32(-3), np.float32(0.25), np.float64(1.5), np.bool_(True)]


@pytest.mark.parametrize("scalar", SCALARS, ids=lambda s: type(s).__name__)
def test_numpy_scalar_operand_matches_its_0d_array(backend, scalar):
    x = ops.convert_to_tensor(np.asarray([1.0, -2.0], np.float32))
    for fn in (ops.add, ops.multiply, ops.maximum):
        got, want = fn(x, scalar), fn(x, np.asarray(scalar))
        assert ops.dtype(got) == ops.dtype(want), (fn.__name__, type(scalar))
        np.testing.assert_array_equal(ops.convert_to_numpy(got), ops.convert_to_numpy(want))
    cast = ops.cast(scalar, "float32")
    assert ops.dtype(cast) == "float32" and float(ops.convert_to_numpy(cast)) == np.float32(scalar)


def test_a_schedule_evaluated_step_by_step_over_numpy_steps(backend):
    schedule = hl.optimizers.schedules.CosineDecay(
        initial_learning_rate=0.0, warmup_target=1e-2, warmup_steps=10, decay_steps=40, alpha=0.1
    )
    rates = np.array([float(ops.convert_to_numpy(schedule(step))) for step in np.arange(50)])
    # warm-up rises linearly to the target, then the cosine falls to alpha * target
    np.testing.assert_allclose(rates[:11], np.linspace(0.0, 1e-2, 11), rtol=1e-5, atol=1e-8)
    assert np.all(np.diff(rates[10:]) <= 1e-9) and rates[-1] > 1e-3
