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


@pytest.mark.parametrize("shape", [(7, 300), (2, 3, 1030), (1, 5000), (0, 4)])
def test_int8_matmul_is_the_exact_int32_product_on_every_engine(backend, shape):
    # 1030 and 5000 inputs pass the largest exact float32 partial sums (128 * 128 * 1024): an engine computing
    # through floats must switch to float64 there; the extremes -128 and 127 make the largest products
    rng = np.random.default_rng(len(shape))
    x = rng.integers(-128, 128, shape).astype(np.int8)
    kernel = rng.integers(-128, 128, (shape[-1], 9)).astype(np.int8)
    if x.size:
        x.reshape(-1, shape[-1])[0], kernel[:, 0] = -128, -128
    want = np.matmul(x.astype(np.int64), kernel.astype(np.int64))
    got = hl.ops.int8_matmul(hl.ops.convert_to_tensor(x), hl.ops.convert_to_tensor(kernel))
    assert hl.ops.dtype(got) == "int32"
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(got), want)
    generic = FusedContract.int8_matmul(backend, hl.ops.convert_to_tensor(x), hl.ops.convert_to_tensor(kernel))
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(generic), want)


def test_int8_matmul_compiles_inside_a_step(backend):
    x = np.random.default_rng(1).integers(-128, 128, (4, 64)).astype(np.int8)
    kernel = np.random.default_rng(2).integers(-128, 128, (64, 3)).astype(np.int8)
    layer = hl.layers.Dense(3, use_bias=False)
    model = hl.Sequential([hl.Input((64,)), layer])
    model.quantize("int8")
    layer.kernel.assign(kernel)
    layer.kernel_scale.assign(np.ones(3, np.float32))
    # the inputs quantizer scales each row by 127 / max|row|: rows whose maximum is 127 stay integers
    x[:, 0] = 127
    x = np.clip(x, -127, 127)
    got = model.predict_on_batch(x.astype(np.float32))
    np.testing.assert_allclose(got, x.astype(np.float64) @ kernel, rtol=1e-6)
