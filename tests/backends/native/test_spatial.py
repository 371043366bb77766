"""Native convolutions and pools against oracles: forward values and gradients (input and kernel).

Oracles, both in float64 so that tolerances can be tight:

* ``torch.nn.functional`` for ``conv`` and ``depthwise_conv`` (TensorFlow-style "same" padding is built with
  an explicit asymmetric ``F.pad``);
* Keras 3's own JAX implementation (``keras.src.backend.jax.nn``) under ``jax.enable_x64`` for
  ``conv_transpose`` (the Keras output-size rule) and the pools (``"same"`` average over real entries only),
  differentiated with ``jax.vjp``.

Everything goes through ``hl.ops`` on the native backend.
"""

import numpy as np
import pytest

import highlevel as hl

torch = pytest.importorskip("torch")
F = torch.nn.functional


@pytest.fixture(autouse=True)
def native():
    """Every test here runs on the native backend only (the shared ``backend`` fixture spans all four)."""
    with hl.config.backend_scope("native") as b:
        yield b


RNG = np.random.default_rng(0)
TOL = dict(rtol=1e-9, atol=1e-10)


# ------------------------------------------------------------------------------------------------ helpers
def native_run(op, arrays, **kwargs):
    """Forward value and the gradients of sum(op(*arrays) * G) for a random G, all as numpy arrays."""
    tensors = [hl.ops.convert_to_tensor(a) for a in arrays]
    out = hl.ops.convert_to_numpy(op(*tensors, **kwargs))
    cot = RNG.standard_normal(out.shape).astype(out.dtype)
    cot_t = hl.ops.convert_to_tensor(cot)

    def loss(*xs):
        return hl.ops.sum(hl.ops.multiply(op(*xs, **kwargs), cot_t))

    _, grads = hl.ops.value_and_grad(loss, argnums=tuple(range(len(arrays))))(*tensors)
    return out, cot, [hl.ops.convert_to_numpy(g) for g in grads]


def to_first(a):
    """channels_last -> channels_first."""
    return np.ascontiguousarray(np.moveaxis(a, -1, 1))


def to_last(a):
    return np.moveaxis(a, 1, -1)


def tf_same_pads(in_size, kernel, strides, dilation):
    """TensorFlow "same" padding as a torch F.pad list (last spatial dim first)."""
    pads = []
    for i, k, s, d in zip(in_size, kernel, strides, dilation):
        k_eff = (k - 1) * d + 1
        o = -(-i // s)
        total = max((o - 1) * s + k_eff - i, 0)
        pads = [total // 2, total - total // 2] + pads
    return pads


def torch_conv(x, w, strides, padding, dilation, groups, cot):
    """Reference conv in float64 with torch: channels_last x, Keras kernel (*k, Cin/groups, F)."""
    nd = w.ndim - 2
    tx = torch.tensor(to_first(x), requires_grad=True)
    tw = torch.tensor(np.ascontiguousarray(np.moveaxis(np.moveaxis(w, -1, 0), -1, 1)), requires_grad=True)
    xin = tx
    if padding == "same":
        xin = F.pad(tx, tf_same_pads(x.shape[1:-1], w.shape[:nd], (strides,) * nd, (dilation,) * nd))
    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[nd]
    out = conv(xin, tw, stride=strides, dilation=dilation, groups=groups)
    out.backward(torch.tensor(to_first(cot)))
    dw = np.moveaxis(np.moveaxis(tw.grad.numpy(), 0, -1), 0, -2)
    return to_last(out.detach().numpy()), to_last(tx.grad.numpy()), dw


@pytest.fixture(scope="module")
def knn():
    """Keras 3's JAX implementation of the nn ops (used as a pure function library, any KERAS_BACKEND)."""
    pytest.importorskip("jax")
    pytest.importorskip("keras")
    from keras.src.backend.jax import nn

    return nn


def jax_run(fn, arrays, cot):
    """Forward and VJP of a JAX function in float64."""
    import jax
    import jax.numpy as jnp

    with jax.enable_x64(True):
        out, vjp = jax.vjp(fn, *[jnp.asarray(a) for a in arrays])
        assert out.dtype == jnp.float64
        grads = vjp(jnp.asarray(cot))
        return np.asarray(out), [np.asarray(g) for g in grads]


def compare_with_jax(op, ref, arrays, **kwargs):
    out, cot, grads = native_run(op, arrays, **kwargs)
    ref_out, ref_grads = jax_run(ref, arrays, cot)
    assert out.shape == ref_out.shape
    np.testing.assert_allclose(out, ref_out, **TOL)
    for g, r in zip(grads, ref_grads):
        assert g.shape == r.shape
        np.testing.assert_allclose(g, r, **TOL)


SIZES = {1: (9,), 2: (7, 6), 3: (6, 5, 5)}


# --------------------------------------------------------------------------------------------------- conv
@pytest.mark.parametrize("nd", [1, 2, 3])
@pytest.mark.parametrize("strides", [1, 2])
@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("dilation", [1, 2])
@pytest.mark.parametrize("groups", [1, 2, 4])
def test_conv_matches_torch(nd, strides, padding, dilation, groups):
    # groups=4 has one input channel per group: the depthwise code path
    x = RNG.standard_normal((2,) + SIZES[nd] + (4,))
    w = RNG.standard_normal((3,) * nd + (4 // groups, 8))
    out, cot, (dx, dw) = native_run(hl.ops.conv, [x, w], strides=strides, padding=padding, dilation_rate=dilation)
    ref, ref_dx, ref_dw = torch_conv(x, w, strides, padding, dilation, groups, cot)
    assert out.shape == ref.shape
    np.testing.assert_allclose(out, ref, **TOL)
    np.testing.assert_allclose(dx, ref_dx, **TOL)
    np.testing.assert_allclose(dw, ref_dw, **TOL)


@pytest.mark.parametrize("nd", [1, 2, 3])
@pytest.mark.parametrize("padding", ["valid", "same"])
def test_conv_channels_first(nd, padding):
    x = RNG.standard_normal((2,) + SIZES[nd] + (4,))
    w = RNG.standard_normal((3,) * nd + (2, 6))
    kw = dict(strides=2, padding=padding, dilation_rate=1)
    out_l, cot, (dx_l, dw_l) = native_run(hl.ops.conv, [x, w], **kw)
    ref, ref_dx, ref_dw = torch_conv(x, w, 2, padding, 1, 2, cot)
    np.testing.assert_allclose(out_l, ref, **TOL)
    # the same numbers in channels_first layout, with the channels_first cotangent
    xf = to_first(x)
    tensors = [hl.ops.convert_to_tensor(a) for a in (xf, w)]
    cot_f = hl.ops.convert_to_tensor(to_first(cot))

    def loss(a, b):
        return hl.ops.sum(hl.ops.multiply(hl.ops.conv(a, b, data_format="channels_first", **kw), cot_f))

    _, (dx_f, dw_f) = hl.ops.value_and_grad(loss, argnums=(0, 1))(*tensors)
    out_f = hl.ops.convert_to_numpy(hl.ops.conv(xf, w, data_format="channels_first", **kw))
    np.testing.assert_allclose(out_f, to_first(ref), **TOL)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(dx_f), to_first(ref_dx), **TOL)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(dw_f), ref_dw, **TOL)


def test_conv_agrees_with_keras(knn):
    x = RNG.standard_normal((2, 7, 6, 4))
    w = RNG.standard_normal((3, 2, 2, 6))
    kw = dict(strides=(2, 1), padding="same", dilation_rate=1)
    compare_with_jax(hl.ops.conv, lambda a, b: knn.conv(a, b, **kw), [x, w], **kw)


# ------------------------------------------------------------------------------------------ depthwise_conv
@pytest.mark.parametrize("nd", [1, 2, 3])
@pytest.mark.parametrize("strides", [1, 2])
@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("dilation", [1, 2])
def test_depthwise_conv_matches_torch(nd, strides, padding, dilation):
    c, mult = 3, 2
    x = RNG.standard_normal((2,) + SIZES[nd] + (c,))
    w = RNG.standard_normal((3,) * nd + (c, mult))
    out, cot, (dx, dw) = native_run(
        hl.ops.depthwise_conv, [x, w], strides=strides, padding=padding, dilation_rate=dilation
    )
    # depthwise = grouped conv with one input channel per group; output channel c * mult + m
    wg = w.reshape(w.shape[:nd] + (1, c * mult))
    ref, ref_dx, ref_dw = torch_conv(x, wg, strides, padding, dilation, c, cot)
    np.testing.assert_allclose(out, ref, **TOL)
    np.testing.assert_allclose(dx, ref_dx, **TOL)
    np.testing.assert_allclose(dw, ref_dw.reshape(w.shape), **TOL)


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_depthwise_conv_agrees_with_keras(knn, data_format):
    shape = (2, 7, 6, 3) if data_format == "channels_last" else (2, 3, 7, 6)
    x = RNG.standard_normal(shape)
    w = RNG.standard_normal((3, 3, 3, 2))
    kw = dict(strides=2, padding="same", dilation_rate=1, data_format=data_format)
    compare_with_jax(hl.ops.depthwise_conv, lambda a, b: knn.depthwise_conv(a, b, **kw), [x, w], **kw)


# ------------------------------------------------------------------------------------------ conv_transpose
TRANSPOSE_CASES = [
    # (nd, kernel, strides, padding, output_padding, dilation)
    (1, 3, 1, "valid", None, 1),
    (1, 3, 2, "same", None, 1),
    (1, 2, 2, "same", None, 1),
    (1, 3, 2, "valid", 1, 1),
    (1, 3, 2, "same", 0, 1),
    (1, 2, 3, "valid", None, 1),
    (1, 3, 1, "same", None, 2),
    (2, 3, 2, "valid", 1, 1),
    (2, 3, (2, 1), "same", (1, 0), 1),
    (3, 2, 2, "valid", 1, 1),
]


@pytest.mark.parametrize("nd,k,strides,padding,output_padding,dilation", TRANSPOSE_CASES)
def test_conv_transpose_agrees_with_keras(knn, nd, k, strides, padding, output_padding, dilation):
    x = RNG.standard_normal((2,) + SIZES[nd][:nd] + (4,))
    w = RNG.standard_normal((k,) * nd + (5, 4))
    kw = dict(strides=strides, padding=padding, output_padding=output_padding, dilation_rate=dilation)
    compare_with_jax(hl.ops.conv_transpose, lambda a, b: knn.conv_transpose(a, b, **kw), [x, w], **kw)


def test_conv_transpose_channels_first(knn):
    x = RNG.standard_normal((2, 4, 5, 6))
    w = RNG.standard_normal((3, 3, 5, 4))
    kw = dict(strides=2, padding="same", output_padding=1, data_format="channels_first")
    compare_with_jax(hl.ops.conv_transpose, lambda a, b: knn.conv_transpose(a, b, **kw), [x, w], **kw)


def test_conv_transpose_is_the_input_gradient_of_conv():
    x = RNG.standard_normal((2, 8, 8, 3))
    w = RNG.standard_normal((3, 3, 3, 5))
    g = RNG.standard_normal((2, 4, 4, 5))

    def loss(a):
        return hl.ops.sum(hl.ops.multiply(hl.ops.conv(a, w, strides=2, padding="same"), g))

    dx = hl.ops.convert_to_numpy(hl.ops.grad(loss)(hl.ops.convert_to_tensor(x)))
    # conv's kernel (*k, in, out) is conv_transpose's (*k, out_channels, in_channels)
    y = hl.ops.convert_to_numpy(hl.ops.conv_transpose(g, w, strides=2, padding="same"))
    np.testing.assert_allclose(y, dx, **TOL)


# --------------------------------------------------------------------------------------------------- pools
POOL_CASES = [
    # (nd, pool_size, strides, padding)
    (1, 2, None, "valid"),
    (1, 3, 2, "same"),
    (2, 3, 2, "same"),
    (2, (3, 2), 1, "same"),
    (2, 2, None, "same"),
    (3, 3, 2, "same"),
]


@pytest.mark.parametrize("name", ["max_pool", "average_pool"])
@pytest.mark.parametrize("nd,pool,strides,padding", POOL_CASES)
def test_pool_agrees_with_keras(knn, name, nd, pool, strides, padding):
    x = RNG.standard_normal((2,) + SIZES[nd] + (3,))
    pool_t = pool if isinstance(pool, tuple) else (pool,) * nd
    strides_t = pool_t if strides is None else (strides,) * nd
    ref = getattr(knn, name)
    compare_with_jax(
        getattr(hl.ops, name),
        lambda a: ref(a, pool_t, strides_t, padding),
        [x],
        pool_size=pool,
        strides=strides,
        padding=padding,
    )


@pytest.mark.parametrize("name", ["max_pool", "average_pool"])
def test_pool_channels_first(knn, name):
    x = RNG.standard_normal((2, 3, 7, 6))
    ref = getattr(knn, name)
    compare_with_jax(
        getattr(hl.ops, name),
        lambda a: ref(a, (3, 3), (2, 2), "same", data_format="channels_first"),
        [x],
        pool_size=3,
        strides=2,
        padding="same",
        data_format="channels_first",
    )


def test_average_pool_same_averages_real_entries_only():
    x = np.arange(1.0, 6.0).reshape(1, 5, 1)
    y = hl.ops.convert_to_numpy(hl.ops.average_pool(x, 2, strides=2, padding="same"))
    # windows [1, 2], [3, 4], [5] (+ one padded entry that does not count)
    np.testing.assert_allclose(y.ravel(), [1.5, 3.5, 5.0])
    ones = np.ones((2, 5, 4, 3))
    y = hl.ops.convert_to_numpy(hl.ops.average_pool(ones, 3, strides=1, padding="same"))
    np.testing.assert_allclose(y, np.ones_like(y))


def test_max_pool_ties_send_the_gradient_to_the_first_max():
    x = np.array([[[1.0], [1.0], [0.0], [2.0], [2.0], [2.0]]])
    g = hl.ops.grad(lambda a: hl.ops.sum(hl.ops.max_pool(a, 3, strides=3)))(hl.ops.convert_to_tensor(x))
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(g).ravel(), [1, 0, 0, 1, 0, 0])
    # overlapping windows: each window's first max gets that window's gradient; they accumulate
    g = hl.ops.grad(lambda a: hl.ops.sum(hl.ops.max_pool(a, 2, strides=1)))(hl.ops.convert_to_tensor(x))
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(g).ravel(), [1, 1, 0, 2, 1, 0])


@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16", "int32", "int8"])
def test_max_pool_same_padding_never_wins(dtype):
    x = hl.ops.cast(-np.arange(1.0, 6.0).reshape(1, 5, 1) - 100.0, dtype)
    y = hl.ops.convert_to_numpy(hl.ops.cast(hl.ops.max_pool(x, 2, strides=2, padding="same"), "float64"))
    np.testing.assert_allclose(y.ravel(), [-101.0, -103.0, -105.0])


# ----------------------------------------------------------------------------------------- dtypes, errors
@pytest.mark.parametrize("case", ["conv", "depthwise_conv", "conv_transpose", "max_pool", "average_pool"])
def test_float32_stays_float32(case):
    x = RNG.standard_normal((2, 6, 6, 4)).astype(np.float32)
    kernels = {"conv": (3, 3, 2, 6), "depthwise_conv": (3, 3, 4, 2), "conv_transpose": (3, 3, 5, 4)}
    if case in kernels:
        w = RNG.standard_normal(kernels[case]).astype(np.float32)
        args, kw = [x, w], dict(strides=2, padding="same")
    else:
        args, kw = [x], dict(pool_size=3, strides=2, padding="same")
    op = getattr(hl.ops, case)
    out, _, grads = native_run(op, args, **kw)
    assert out.dtype == np.float32
    assert all(g.dtype == np.float32 for g in grads)


def test_int_inputs_compute_in_floatx():
    x = np.arange(2 * 5 * 5 * 2).reshape(2, 5, 5, 2)
    w = np.ones((3, 3, 2, 1), dtype=np.int32)
    assert hl.ops.dtype(hl.ops.conv(x, w)) == "float32"
    assert hl.ops.dtype(hl.ops.average_pool(x, 2)) == "float32"
    y = hl.ops.max_pool(x.astype(np.int32), 2)
    assert hl.ops.dtype(y) == "int32"
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(y)[0, 0, 0], [12, 13])


def test_errors_are_clear():
    x = np.zeros((1, 5, 5, 4))
    with pytest.raises(ValueError, match="padding"):
        hl.ops.conv(x, np.zeros((3, 3, 4, 2)), padding="full")
    with pytest.raises(ValueError, match="multiple"):
        hl.ops.conv(x, np.zeros((3, 3, 3, 2)))
    with pytest.raises(ValueError, match="larger than the input"):
        hl.ops.conv(x, np.zeros((7, 7, 4, 2)))
    with pytest.raises(ValueError, match="rank 4"):
        hl.ops.conv(np.zeros((5, 5, 4)), np.zeros((3, 3, 4, 2)))
    with pytest.raises(ValueError, match="data_format"):
        hl.ops.max_pool(x, 2, data_format="NHWC")
    with pytest.raises(ValueError, match="strides"):
        hl.ops.average_pool(x, 2, strides=(1, 1, 1))
    with pytest.raises(ValueError, match="output_padding"):
        hl.ops.conv_transpose(x, np.zeros((3, 3, 2, 4)), strides=2, output_padding=2)
