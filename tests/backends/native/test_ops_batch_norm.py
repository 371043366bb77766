"""The native engine's one-node batch normalization (ops_batch_norm.py) against the contract's generic formula.

First-order gradients on every engine are compared in tests/backends/contract/test_fused.py; here, float64
agreement with the composition, the one graph node, the second-order (graph-mode) rule and the fallbacks.
"""

import numpy as np
import pytest

from highlevel.backends.contract.fused import FusedContract
from highlevel.backends.native import NativeBackend, Tensor
from highlevel.backends.native.autograd import grad

B = NativeBackend()


def _leaves(shape, axis, seed=0):
    rng = np.random.default_rng(seed)
    c = shape[axis]
    arrays = [rng.standard_normal(shape) * 3 + 1, rng.standard_normal(c), rng.standard_normal(c)]
    return [Tensor(a, requires_grad=True) for a in arrays]


# channels last is run on a wide 2-D view (k tiles of the channels per row): k = 12, 1 (7 rows: prime), 8
@pytest.mark.parametrize("shape,axis", [((4, 3, 3, 5), -1), ((7, 3), -1), ((2, 8, 128), -1), ((6, 3, 4), 1)])
def test_values_and_gradients_match_the_composition_in_float64(shape, axis):
    fused, composed = _leaves(shape, axis), _leaves(shape, axis)
    y, mean, var = B.fused_batch_norm(*fused, axis, 1e-3)
    y2, mean2, var2 = FusedContract.fused_batch_norm(B, *composed, axis, 1e-3)
    assert y._node.name == "fused_batch_norm" and all(t._node is None for t in y._node.inputs)
    for a, b in ((y, y2), (mean, mean2), (var, var2)):
        np.testing.assert_allclose(a.data, b.data, rtol=1e-12, atol=1e-13)
    cot = np.random.default_rng(1).standard_normal(shape)
    for a, b in zip(grad([y], fused, [cot]), grad([y2], composed, [cot])):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_second_derivatives_match_the_composition():
    def second(fn):
        x, scale, offset = _leaves((5, 4), -1, 2)
        y = fn(B, x, scale, offset, -1, 1e-3)[0]
        (gx,) = grad([B.sum(B.multiply(y, y * y))], [x], create_graph=True)
        return [np.asarray(g) for g in grad([B.sum(B.multiply(gx, gx))], [x, scale])]

    for a, b in zip(second(type(B).fused_batch_norm), second(FusedContract.fused_batch_norm)):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-11)


def test_one_value_per_channel_and_half_floats_keep_the_generic_formula():
    y, _, _ = B.fused_batch_norm(Tensor(np.ones((1, 3)), requires_grad=True), None, None, -1, 1e-3)
    assert y._node.name != "fused_batch_norm"
    y, _, _ = B.fused_batch_norm(Tensor(np.ones((4, 3), np.float16), requires_grad=True), None, None, -1, 1e-3)
    assert y._node.name != "fused_batch_norm"
