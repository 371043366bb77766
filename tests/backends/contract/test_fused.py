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


@pytest.mark.parametrize("axis", [-1, 1])
def test_fused_batch_norm_gradient_matches_the_generic_formula(backend, axis):
    # The normalized output's gradient with respect to x, scale and offset: an engine's fused kernel (PyTorch:
    # aten's batch norm and its backward) against the contract's formula on the same engine.
    rng = np.random.default_rng(3)
    x = rng.standard_normal((6, 4, 5)).astype("float32") * 2.0 + 1.0
    channels = x.shape[axis]
    scale = rng.standard_normal(channels).astype("float32")
    offset = rng.standard_normal(channels).astype("float32")
    cot = hl.ops.convert_to_tensor(rng.standard_normal(x.shape).astype("float32"))

    def grads(fn):
        def loss(x, scale, offset):
            y, _, _ = fn(backend, x, scale, offset, axis, 1e-3)
            return hl.ops.sum(y * cot)

        args = [hl.ops.convert_to_tensor(a) for a in (x, scale, offset)]
        _, g = hl.ops.value_and_grad(loss, argnums=(0, 1, 2))(*args)
        return [hl.ops.convert_to_numpy(v) for v in g]

    for got, want in zip(grads(type(backend).fused_batch_norm), grads(FusedContract.fused_batch_norm)):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    # and the statistics the layer's moving averages take
    y, mean, var = backend.fused_batch_norm(hl.ops.convert_to_tensor(x), None, None, axis, 1e-3)
    axes = tuple(d for d in range(3) if d != axis % 3)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(mean), x.mean(axis=axes), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(var), x.var(axis=axes), rtol=1e-5, atol=1e-6)
