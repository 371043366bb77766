"""``Optimizer.stateless_apply``: the same step as ``apply``, as a pure function of values (nothing assigned)."""

import numpy as np
import pytest

import highlevel as hl

from ._problem import SHAPES, gradient_sequence, initial_values
from .test_optimizer_state import STATEFUL


def _fresh(cls, kwargs):
    init = initial_values()
    variables = [hl.Variable(init[n], name=n) for n in SHAPES]
    opt = getattr(hl.optimizers, cls)(**kwargs)
    opt.build(variables)
    return variables, opt


_CASES = STATEFUL[:4] + STATEFUL[-3:]


@pytest.mark.parametrize("cls,kwargs", _CASES, ids=[f"{c}-{i}" for i, (c, _) in enumerate(_CASES)])
def test_stateless_apply_follows_apply_and_assigns_nothing(backend, cls, kwargs):
    grads = gradient_sequence(steps=3)
    ref_vars, ref_opt = _fresh(cls, kwargs)
    variables, opt = _fresh(cls, kwargs)
    before = [v.numpy().copy() for v in variables + opt.variables]
    values, state = [v.value for v in variables], [v.value for v in opt.variables]
    for g in grads:
        ref_opt.apply([hl.ops.convert_to_tensor(x) for x in g], ref_vars)
        values, state = opt.stateless_apply(state, [hl.ops.convert_to_tensor(x) for x in g], values)
    for v, value in zip(ref_vars, values):
        np.testing.assert_allclose(hl.ops.convert_to_numpy(value), v.numpy(), rtol=1e-5, atol=1e-6)
    for v, value in zip(ref_opt.variables, state):
        np.testing.assert_allclose(hl.ops.convert_to_numpy(value), v.numpy(), rtol=1e-5, atol=1e-6)
    assert int(hl.ops.convert_to_numpy(state[0])) == 3  # iterations moved in the returned state only
    for b, v in zip(before, variables + opt.variables):
        np.testing.assert_array_equal(v.numpy(), b)


def test_stateless_apply_takes_the_variables_themselves(backend):
    w = hl.Variable([1.0, -2.0])
    opt = hl.optimizers.SGD(learning_rate=0.5)
    opt.build([w])
    (new_w,), _ = opt.stateless_apply(opt.variables, [hl.ops.convert_to_tensor([1.0, 1.0])], [w])
    assert hl.ops.convert_to_numpy(new_w).tolist() == [0.5, -2.5]
    assert w.numpy().tolist() == [1.0, -2.0]


def test_stateless_apply_errors(backend):
    w = hl.Variable([1.0, 2.0])
    opt = hl.optimizers.Adam()
    with pytest.raises(ValueError, match=r"needs a built optimizer.*optimizer.build"):
        opt.stateless_apply([], [w.value], [w.value])
    opt.build([w])
    with pytest.raises(ValueError, match=r"`optimizer_variables`.*expected 4, received 1"):
        opt.stateless_apply(opt.variables[:1], [w.value], [w.value])
    with pytest.raises(ValueError, match=r"`trainable_variables`.*expected 1, received 2"):
        opt.stateless_apply(opt.variables, [w.value], [w.value, w.value])
