"""The engines' fused optimizer updates against the contract's generic formula, which they replace."""

import numpy as np
import pytest

import highlevel as hl
from highlevel.backends.contract.fused import FusedContract


def _slots(dtype, rng):
    shapes = [(37, 19), (19,), ()]
    make = lambda f: [hl.Variable(np.asarray(f(s), dtype)) for s in shapes]  # noqa: E731
    w = make(lambda s: rng.standard_normal(s))
    m = make(lambda s: rng.standard_normal(s) * 0.1)
    v = make(lambda s: rng.random(s) * 0.01)
    hat = make(lambda s: rng.random(s) * 0.02)
    grads = [rng.standard_normal(s).astype(dtype) for s in shapes]
    return w, m, v, hat, grads


def _run(update, backend, dtype, amsgrad):
    w, m, v, hat, grads = _slots(dtype, np.random.default_rng(0))
    grads = [hl.ops.convert_to_tensor(g) for g in grads]
    alpha = hl.ops.convert_to_tensor(np.asarray(0.00123, dtype))
    for _ in range(2):
        update(backend, w, grads, m, v, alpha, 0.9, 0.999, 1e-7, hat if amsgrad else None)
    return [x.numpy() for x in w + m + v + hat]


#: How far an engine's fused Adam may round from the generic formula: its operations may be ordered
#: differently (native divides before it scales by alpha; PyTorch's lerp may fuse a multiply-add).
#: (A few units in the last place: relative, and absolute at the weights' scale for values near zero.)
TOL = {"float32": (2e-6, 1e-7), "float64": (1e-14, 1e-16)}


@pytest.mark.parametrize("amsgrad", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_adam_update_matches_the_generic_formula(backend, dtype, amsgrad):
    # The shapes include a 0-d (scalar) weight, which a fused update on numpy arrays must write in place too.
    fused = _run(type(backend).adam_update, backend, dtype, amsgrad)
    generic = _run(FusedContract.adam_update, backend, dtype, amsgrad)
    for got, want in zip(fused, generic):
        assert got.dtype == want.dtype == np.dtype(dtype) and got.shape == want.shape
        rtol, atol = TOL[dtype]
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)
