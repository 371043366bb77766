"""JAX backend NN ops: activations against closed forms, convolutions and pooling against references.

Convolutions are checked against a direct numpy loop (conv, depthwise) and against Keras 3's JAX backend
as an oracle (conv_transpose output sizes and values), when keras is installed.
"""

import itertools
import math
import os

import numpy as np
import pytest

pytest.importorskip("jax")

import highlevel as hl  # noqa: E402
from highlevel.backends import get  # noqa: E402

RNG = np.random.RandomState(0)


@pytest.fixture(scope="module")
def b():
    return get("jax")


@pytest.fixture(scope="module")
def keras_jax_nn():
    os.environ.setdefault("KERAS_BACKEND", "jax")  # only decides which engine keras imports first
    pytest.importorskip("keras")
    from keras.src.backend.jax import nn

    return nn


def close(b, actual, expected, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(b.to_numpy(actual), expected, rtol=rtol, atol=atol)


def test_activations(b):
    x = np.linspace(-5, 5, 41).astype("float32")
    xd = x.astype(np.float64)
    sig = 1 / (1 + np.exp(-xd))
    close(b, b.relu(x), np.maximum(x, 0))
    close(b, b.relu6(x * 2), np.clip(x * 2, 0, 6))
    close(b, b.sigmoid(x), sig)
    close(b, b.softplus(x), np.log1p(np.exp(xd)))
    close(b, b.softsign(x), x / (1 + np.abs(x)))
    close(b, b.silu(x), xd * sig)
    close(b, b.gelu(x), 0.5 * xd * (1 + np.tanh(np.sqrt(2 / np.pi) * (xd + 0.044715 * xd**3))))
    from math import erf

    close(b, b.gelu(x, approximate=False), 0.5 * xd * (1 + np.vectorize(erf)(xd / np.sqrt(2))))
    close(b, b.elu(x, alpha=0.5), np.where(x > 0, xd, 0.5 * np.expm1(xd)))
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    close(b, b.selu(x), scale * np.where(x > 0, xd, alpha * np.expm1(xd)))
    close(b, b.leaky_relu(x), np.where(x >= 0, x, 0.2 * x))
    close(b, b.leaky_relu(x, negative_slope=0.1), np.where(x >= 0, x, 0.1 * x))
    close(b, b.hard_sigmoid(x), np.clip(x / 6 + 0.5, 0, 1))
    m = RNG.randn(3, 5).astype("float32")
    e = np.exp(m - m.max(axis=0, keepdims=True))
    close(b, b.softmax(m, axis=0), e / e.sum(axis=0, keepdims=True))
    close(b, b.log_softmax(m, axis=0), np.log(e / e.sum(axis=0, keepdims=True)))


def test_moments(b):
    x = RNG.randn(4, 5, 6).astype("float32")
    mean, var = b.moments(x, (0, 2))
    close(b, mean, x.mean(axis=(0, 2)))
    close(b, var, x.var(axis=(0, 2)))
    mean, var = b.moments(x, [1], keepdims=True)
    assert b.shape(mean) == (4, 1, 6) and b.shape(var) == (4, 1, 6)
    m16, v16 = b.moments(x.astype("float16"), (0,))
    assert b.dtype(m16) == "float16" and b.dtype(v16) == "float16"


def _same_pads(size, k, stride):
    out = -(-size // stride)
    total = max((out - 1) * stride + k - size, 0)
    return total // 2, total - total // 2


def _ref_conv(x, kernel, stride, padding, dilation, groups):
    """Direct channels_last N-D convolution with TF "same" padding and feature groups."""
    n = x.ndim - 2
    eff = [(kernel.shape[i] - 1) * dilation[i] + 1 for i in range(n)]
    if padding == "same":
        pads = [_same_pads(x.shape[1 + i], eff[i], stride[i]) for i in range(n)]
        x = np.pad(x, [(0, 0)] + pads + [(0, 0)])
    out_sp = [(x.shape[1 + i] - eff[i]) // stride[i] + 1 for i in range(n)]
    cin_g, cout = kernel.shape[-2], kernel.shape[-1]
    cout_g = cout // groups
    out = np.zeros((x.shape[0], *out_sp, cout), np.float64)
    for pos in itertools.product(*[range(o) for o in out_sp]):
        window = x[(slice(None),) + tuple(slice(p * s, p * s + e, d) for p, s, e, d in zip(pos, stride, eff, dilation))]
        for g in range(groups):
            patch = window[..., g * cin_g : (g + 1) * cin_g]
            k = kernel[..., g * cout_g : (g + 1) * cout_g]
            out[(slice(None),) + pos + (slice(g * cout_g, (g + 1) * cout_g),)] = np.tensordot(
                patch, k, axes=(list(range(1, n + 2)), list(range(n + 1)))
            )
    return out


CONV_CASES = [
    # (spatial shape, kernel spatial, in_ch, out_ch, groups, strides, padding, dilation)
    ((7,), (3,), 4, 6, 1, 1, "valid", 1),
    ((7,), (3,), 4, 6, 2, 2, "same", 1),
    ((8, 7), (3, 2), 3, 5, 1, (2, 1), "same", 1),
    ((8, 7), (3, 3), 4, 4, 4, 1, "same", 2),
    ((9, 9), (2, 2), 2, 3, 1, 3, "valid", 1),
    ((5, 6, 4), (2, 3, 2), 2, 3, 1, (1, 2, 1), "same", 1),
]


@pytest.mark.parametrize("case", CONV_CASES)
def test_conv_against_direct_loop(b, case):
    spatial, ksp, cin, cout, groups, strides, padding, dilation = case
    n = len(spatial)
    x = RNG.randn(2, *spatial, cin).astype("float32")
    k = RNG.randn(*ksp, cin // groups, cout).astype("float32")
    st = (strides,) * n if isinstance(strides, int) else strides
    dl = (dilation,) * n if isinstance(dilation, int) else dilation
    want = _ref_conv(x, k, st, padding, dl, groups)
    close(b, b.conv(x, k, strides=strides, padding=padding, dilation_rate=dilation), want, rtol=1e-4, atol=1e-4)
    # channels_first gives the same numbers with the channel axis moved
    xf = np.moveaxis(x, -1, 1)
    got = b.conv(xf, k, strides=strides, padding=padding, dilation_rate=dilation, data_format="channels_first")
    close(b, got, np.moveaxis(want, -1, 1), rtol=1e-4, atol=1e-4)


def test_depthwise_conv(b):
    x = RNG.randn(2, 7, 6, 3).astype("float32")
    k = RNG.randn(3, 3, 3, 2).astype("float32")
    # depthwise = grouped conv with one group per input channel, output channel c * M + m
    grouped = k.reshape(3, 3, 1, 6)
    for padding, strides in (("valid", 1), ("same", 2)):
        want = _ref_conv(x, grouped, (strides,) * 2, padding, (1, 1), 3)
        close(b, b.depthwise_conv(x, k, strides=strides, padding=padding), want, rtol=1e-4, atol=1e-4)


def test_conv_validates(b):
    with pytest.raises(ValueError, match="channels"):
        b.conv(np.zeros((1, 5, 5, 3), "float32"), np.zeros((3, 3, 2, 4), "float32"))
    # padding and data_format are checked once, by the front door (tests/ops/test_front_door_errors.py)
    with hl.config.backend_scope("jax"):
        with pytest.raises(ValueError, match="padding"):
            hl.ops.conv(np.zeros((1, 5, 5, 3), "float32"), np.zeros((3, 3, 3, 4), "float32"), padding="full")
        with pytest.raises(ValueError, match="data_format"):
            hl.ops.max_pool(np.zeros((1, 5, 5, 3), "float32"), 2, data_format="NHWC")


TRANSPOSE_CASES = [
    # (spatial, kernel, strides, padding, output_padding, dilation)
    ((5,), (3,), 2, "valid", None, 1),
    ((5,), (3,), 2, "same", None, 1),
    ((5,), (4,), 3, "same", 1, 1),
    ((4, 5), (3, 3), 2, "same", None, 1),
    ((4, 5), (2, 3), (2, 1), "valid", None, 1),
    ((4, 5), (3, 2), 2, "valid", 1, 1),
    ((4, 4), (3, 3), 1, "same", None, 2),
    ((3, 4), (5, 5), 2, "same", (1, 0), 1),
    ((3, 3, 4), (2, 3, 2), (2, 1, 2), "same", None, 1),
]


@pytest.mark.parametrize("case", TRANSPOSE_CASES)
def test_conv_transpose_matches_keras(b, keras_jax_nn, case):
    spatial, ksp, strides, padding, output_padding, dilation = case
    x = RNG.randn(2, *spatial, 3).astype("float32")
    k = RNG.randn(*ksp, 4, 3).astype("float32")
    want = np.asarray(
        keras_jax_nn.conv_transpose(
            x,
            k,
            strides,
            padding=padding,
            output_padding=output_padding,
            data_format="channels_last",
            dilation_rate=dilation,
        )
    )
    got = b.conv_transpose(x, k, strides, padding=padding, output_padding=output_padding, dilation_rate=dilation)
    assert b.shape(got) == want.shape
    close(b, got, want, rtol=1e-4, atol=1e-4)


def test_conv_transpose_is_the_gradient_of_conv(b):
    x = RNG.randn(1, 8, 8, 3).astype("float32")
    k = RNG.randn(3, 3, 3, 5).astype("float32")
    y = RNG.randn(1, 4, 4, 5).astype("float32")
    g = b.grad(lambda v: b.sum(b.multiply(b.conv(v, k, strides=2, padding="same"), y)))(x)
    # kernel of conv_transpose is (*spatial, out_channels, in_channels): conv's kernel as is
    close(b, b.conv_transpose(y, k, 2, padding="same"), b.to_numpy(g), rtol=1e-4, atol=1e-4)


def _ref_pool(x, pool, strides, padding, kind):
    n = x.ndim - 2
    if padding == "same":
        pads = [_same_pads(x.shape[1 + i], pool[i], strides[i]) for i in range(n)]
        fill = -np.inf if kind == "max" else np.nan
        x = np.pad(x.astype(np.float64), [(0, 0)] + pads + [(0, 0)], constant_values=fill)
    out_sp = [(x.shape[1 + i] - pool[i]) // strides[i] + 1 for i in range(n)]
    out = np.zeros((x.shape[0], *out_sp, x.shape[-1]))
    for pos in itertools.product(*[range(o) for o in out_sp]):
        win = x[(slice(None),) + tuple(slice(p * s, p * s + k) for p, s, k in zip(pos, strides, pool))]
        axes = tuple(range(1, n + 1))
        out[(slice(None),) + pos] = win.max(axis=axes) if kind == "max" else np.nanmean(win, axis=axes)
    return out


POOL_CASES = [
    ((7,), 2, None, "valid"),
    ((7,), 3, 2, "same"),
    ((6, 7), 2, None, "valid"),
    ((6, 7), 3, (2, 1), "same"),
    ((5, 5), (2, 3), 2, "same"),
    ((4, 5, 3), 2, 1, "same"),
]


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize("case", POOL_CASES)
def test_pooling(b, case, kind):
    spatial, pool_size, strides, padding = case
    n = len(spatial)
    x = RNG.randn(2, *spatial, 3).astype("float32")
    pool = (pool_size,) * n if isinstance(pool_size, int) else pool_size
    st = pool if strides is None else ((strides,) * n if isinstance(strides, int) else strides)
    want = _ref_pool(x, pool, st, padding, kind)
    op = b.max_pool if kind == "max" else b.average_pool
    close(b, op(x, pool_size, strides, padding), want, rtol=1e-5)
    got_cf = op(np.moveaxis(x, -1, 1), pool_size, strides, padding, data_format="channels_first")
    close(b, got_cf, np.moveaxis(want, -1, 1), rtol=1e-5)


def test_pool_gradients(b):
    x = b.convert_to_tensor(RNG.randn(1, 4, 4, 1).astype("float32"))
    g = b.to_numpy(b.grad(lambda v: b.sum(b.max_pool(v, 2)))(x))
    assert g.sum() == 4.0 and set(np.unique(g)) <= {0.0, 1.0}
    g = b.to_numpy(b.grad(lambda v: b.sum(b.average_pool(v, 2)))(x))
    np.testing.assert_allclose(g, np.full((1, 4, 4, 1), 0.25))


def test_integer_pooling_and_conv_inputs(b):
    xi = np.arange(16, dtype="int32").reshape(1, 4, 4, 1)
    assert b.dtype(b.max_pool(xi, 2)) == "int32"
    assert b.dtype(b.average_pool(xi, 2)) == "float32"
    assert b.dtype(b.conv(xi, np.ones((2, 2, 1, 1), "float32"))) == "float32"
    assert math.isclose(float(b.average_pool(xi, 4)[0, 0, 0, 0]), 7.5)
