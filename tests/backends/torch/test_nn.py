"""TorchBackend NN ops: activations, and conv/pool against direct numpy references (TensorFlow padding).

The references loop over output positions, so they are slow but obviously right; shapes are kept small.
(During development the same ops were also compared with Keras 3 on JAX over ~3,000 configurations.)
"""

import itertools
import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from highlevel.backends import get  # noqa: E402

RNG = np.random.default_rng(1)


@pytest.fixture(scope="module")
def b():
    return get("torch")


def close(b, got, want, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(b.to_numpy(got), want, rtol=rtol, atol=atol)


# ------------------------------------------------------------------ references
def _same_pads(spatial, window, strides, dilation):
    pads = []
    for n, k, s, d in zip(spatial, window, strides, dilation):
        k_eff = (k - 1) * d + 1
        total = max((math.ceil(n / s) - 1) * s + k_eff - n, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def ref_conv(x, k, strides, padding, dilation):
    """Channels-last N-D convolution with groups = in_channels // k.shape[-2], by direct summation."""
    nd = x.ndim - 2
    window = k.shape[:nd]
    if padding == "same":
        pads = _same_pads(x.shape[1:-1], window, strides, dilation)
        x = np.pad(x, [(0, 0)] + pads + [(0, 0)])
    groups = x.shape[-1] // k.shape[-2]
    cin, cout = k.shape[-2], k.shape[-1]
    out_sp = [(n - ((w - 1) * d + 1)) // s + 1 for n, w, s, d in zip(x.shape[1:-1], window, strides, dilation)]
    out = np.zeros((x.shape[0], *out_sp, cout), np.float64)
    per_group = cout // groups
    for pos in itertools.product(*[range(o) for o in out_sp]):
        sl = tuple(slice(p * s, p * s + (w - 1) * d + 1, d) for p, s, w, d in zip(pos, strides, window, dilation))
        patch = x[(slice(None),) + sl]  # (batch, *window, channels)
        for g in range(groups):
            pg = patch[..., g * cin : (g + 1) * cin]
            kg = k[..., g * per_group : (g + 1) * per_group]
            out[(slice(None),) + pos + (slice(g * per_group, (g + 1) * per_group),)] = np.tensordot(
                pg, kg, axes=(list(range(1, nd + 2)), list(range(nd + 1)))
            )
    return out


def ref_pool(x, pool, strides, padding, kind):
    nd = x.ndim - 2
    fill = -np.inf if kind == "max" else np.nan
    if padding == "same":
        pads = _same_pads(x.shape[1:-1], pool, strides, (1,) * nd)
        x = np.pad(x, [(0, 0)] + pads + [(0, 0)], constant_values=fill)
    out_sp = [(n - w) // s + 1 for n, w, s in zip(x.shape[1:-1], pool, strides)]
    out = np.zeros((x.shape[0], *out_sp, x.shape[-1]))
    for pos in itertools.product(*[range(o) for o in out_sp]):
        sl = tuple(slice(p * s, p * s + w) for p, s, w in zip(pos, strides, pool))
        patch = x[(slice(None),) + sl]
        axes = tuple(range(1, nd + 1))
        out[(slice(None),) + pos] = patch.max(axis=axes) if kind == "max" else np.nanmean(patch, axis=axes)
    return out


# ----------------------------------------------------------------- activations
def test_activations_against_numpy(b):
    x = np.linspace(-8, 8, 41).astype(np.float32)
    sig = 1 / (1 + np.exp(-x.astype(np.float64)))
    close(b, b.relu(x), np.maximum(x, 0))
    close(b, b.relu6(x), np.clip(x, 0, 6))
    close(b, b.sigmoid(x), sig)
    close(b, b.softplus(x), np.log1p(np.exp(x.astype(np.float64))))
    close(b, b.softsign(x), x / (1 + np.abs(x)))
    close(b, b.silu(x), x * sig, atol=1e-5)
    tanh_gelu = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x.astype(np.float64) ** 3)))
    close(b, b.gelu(x), tanh_gelu)
    erf = np.vectorize(math.erf)
    close(b, b.gelu(x, approximate=False), 0.5 * x * (1 + erf(x / np.sqrt(2))))
    close(b, b.elu(x, 0.5), np.where(x > 0, x, 0.5 * np.expm1(x)))
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    close(b, b.selu(x), scale * np.where(x > 0, x, alpha * np.expm1(x)))
    close(b, b.leaky_relu(x), np.where(x >= 0, x, 0.2 * x))
    close(b, b.hard_sigmoid(x), np.clip(x / 6 + 0.5, 0, 1))
    m = x.reshape(41, 1) * np.ones((1, 3), np.float32)
    e = np.exp(m - m.max(axis=0))
    close(b, b.softmax(m, axis=0), e / e.sum(axis=0))
    close(b, b.log_softmax(m, axis=0), np.log(e / e.sum(axis=0)), atol=1e-4)
    close(b, b.softmax(m, axis=(0, 1)), np.exp(m) / np.exp(m).sum())


@pytest.mark.parametrize("name", ["softmax", "log_softmax", "sigmoid", "softplus", "logsumexp"])
def test_stable_for_large_inputs(b, name):
    x = np.array([1e4, -1e4, 0.0], np.float32)
    out = b.to_numpy(getattr(b, name)(x))
    assert np.isfinite(out).all()
    g = b.to_numpy(b.grad(lambda v: b.sum(getattr(b, name)(v)))(x))
    assert np.isfinite(g).all()


def test_moments(b):
    x = RNG.standard_normal((4, 5, 3)).astype(np.float32)
    mean, var = b.moments(x, axes=(0, 1))
    close(b, mean, x.mean(axis=(0, 1)))
    close(b, var, x.var(axis=(0, 1)))
    mean, var = b.moments(b.cast(x, "float16"), axes=(0, 1), keepdims=True)
    assert b.dtype(var) == "float16" and b.shape(mean) == (1, 1, 3)


# ----------------------------------------------------------------- convolution
CONV_CASES = [
    # (spatial, kernel window, in_ch, in_per_group, strides, dilation, padding)
    ((7,), (3,), 4, 4, 1, 1, "valid"),
    ((7,), (3,), 4, 2, 2, 1, "same"),
    ((8,), (2,), 2, 2, 1, 3, "same"),
    ((6, 5), (3, 2), 3, 3, (2, 1), 1, "same"),
    ((6, 5), (3, 3), 4, 1, 1, 2, "same"),
    ((6, 5), (2, 2), 4, 2, 2, 1, "valid"),
    ((4, 5, 3), (2, 3, 1), 2, 2, (1, 2, 1), 1, "same"),
]


@pytest.mark.parametrize("spatial, window, cin, cpg, strides, dilation, padding", CONV_CASES)
def test_conv_against_reference(b, spatial, window, cin, cpg, strides, dilation, padding):
    nd = len(spatial)
    x = RNG.standard_normal((2, *spatial, cin)).astype(np.float32)
    k = RNG.standard_normal((*window, cpg, 4)).astype(np.float32)
    s = strides if isinstance(strides, tuple) else (strides,) * nd
    d = dilation if isinstance(dilation, tuple) else (dilation,) * nd
    want = ref_conv(x.astype(np.float64), k.astype(np.float64), s, padding, d)
    close(b, b.conv(x, k, strides=strides, padding=padding, dilation_rate=dilation), want, rtol=1e-4, atol=1e-4)
    # channels_first gives the same numbers, transposed
    xf = np.moveaxis(x, -1, 1)
    got = b.conv(xf, k, strides=strides, padding=padding, data_format="channels_first", dilation_rate=dilation)
    close(b, got, np.moveaxis(want, -1, 1), rtol=1e-4, atol=1e-4)


def test_depthwise_conv_against_reference(b):
    x = RNG.standard_normal((2, 6, 5, 3)).astype(np.float32)
    k = RNG.standard_normal((3, 2, 3, 2)).astype(np.float32)  # multiplier 2
    # a depthwise conv is a grouped conv (groups = in_channels) whose output channel is c * mult + m
    want = ref_conv(x.astype(np.float64), k.reshape(3, 2, 1, 6).astype(np.float64), (2, 1), "same", (1, 1))
    close(b, b.depthwise_conv(x, k, strides=(2, 1), padding="same"), want, rtol=1e-4, atol=1e-4)


def test_conv_rejects_bad_channels(b):
    with pytest.raises(ValueError, match="multiple"):
        b.conv(np.ones((1, 5, 3), np.float32), np.ones((2, 2, 4), np.float32))


@pytest.mark.parametrize(
    "n, k, s, d, padding",
    [
        (6, 3, 2, 1, "same"),
        (6, 4, 2, 1, "same"),
        (5, 3, 1, 1, "same"),
        (5, 2, 1, 2, "same"),
        (7, 3, 2, 1, "valid"),
        (5, 3, 1, 2, "valid"),
        (8, 2, 2, 1, "valid"),
    ],
)
def test_conv_transpose_is_the_gradient_of_conv(b, n, k, s, d, padding):
    # where the shapes line up, conv_transpose(y) == d<conv(x), y>/dx (the contract's definition)
    x = RNG.standard_normal((2, n, n, 3)).astype(np.float32)
    kern = RNG.standard_normal((k, k, 3, 4)).astype(np.float32)
    y_shape = b.shape(b.conv(x, kern, strides=s, padding=padding, dilation_rate=d))
    y = RNG.standard_normal(y_shape).astype(np.float32)
    want = b.grad(lambda v: b.sum(b.multiply(b.conv(v, kern, strides=s, padding=padding, dilation_rate=d), y)))(x)
    got = b.conv_transpose(y, kern, strides=s, padding=padding, dilation_rate=d)
    close(b, got, b.to_numpy(want), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "n, k, s, padding, output_padding, expected",
    [
        (4, 3, 2, "same", None, 8),  # n * s
        (4, 3, 2, "valid", None, 9),  # (n - 1) * s + max(k, s)
        (4, 2, 3, "valid", None, 12),  # stride > kernel: zeros after the last window
        (4, 3, 2, "same", 0, 7),  # (n - 1) * s + k % 2 + output_padding
        (4, 3, 2, "valid", 1, 10),  # (n - 1) * s + k + output_padding
        (5, 4, 1, "same", None, 5),
    ],
)
def test_conv_transpose_output_sizes(b, n, k, s, padding, output_padding, expected):
    x = np.ones((1, n, 2), np.float32)
    kern = np.ones((k, 3, 2), np.float32)
    out = b.conv_transpose(x, kern, strides=s, padding=padding, output_padding=output_padding)
    assert b.shape(out) == (1, expected, 3)


def test_conv_transpose_valid_values_by_hand(b):
    # 1-D, one channel: each input scatters a copy of the kernel at i * stride
    x = np.array([1.0, 2.0], np.float32).reshape(1, 2, 1)
    kern = np.array([1.0, 10.0, 100.0], np.float32).reshape(3, 1, 1)
    out = b.conv_transpose(x, kern, strides=2, padding="valid")
    close(b, b.reshape(out, (-1,)), [1.0, 10.0, 102.0, 20.0, 200.0])
    out = b.conv_transpose(x, kern, strides=4, padding="valid")
    close(b, b.reshape(out, (-1,)), [1.0, 10.0, 100.0, 0.0, 2.0, 20.0, 200.0, 0.0])


# --------------------------------------------------------------------- pooling
@pytest.mark.parametrize(
    "spatial, pool, strides, padding",
    [
        ((7,), 2, None, "valid"),
        ((7,), 3, 2, "same"),
        ((6, 5), 2, None, "same"),
        ((6, 5), (3, 2), (2, 1), "same"),
        ((5, 5), 3, 1, "same"),
        ((4, 5, 3), 2, None, "same"),
        ((4, 5, 3), (2, 3, 1), 1, "valid"),
    ],
)
def test_pools_against_reference(b, spatial, pool, strides, padding):
    nd = len(spatial)
    x = RNG.standard_normal((2, *spatial, 3)).astype(np.float32)
    p = pool if isinstance(pool, tuple) else (pool,) * nd
    s = p if strides is None else (strides if isinstance(strides, tuple) else (strides,) * nd)
    close(b, b.max_pool(x, pool, strides, padding), ref_pool(x, p, s, padding, "max"))
    close(b, b.average_pool(x, pool, strides, padding), ref_pool(x, p, s, padding, "avg"))


def test_same_pools_pad_with_real_entries_only(b):
    x = -np.ones((1, 5, 1), np.float32)  # max pool must not see the padding as 0
    close(b, b.max_pool(x, 2, padding="same"), -np.ones((1, 3, 1)))
    row = np.array([1, 2, 3, 4, 5], np.float32).reshape(1, 5, 1)
    close(b, b.average_pool(row, 2, padding="same"), np.array([1.5, 3.5, 5.0]).reshape(1, 3, 1))
    ints = np.arange(10).reshape(1, 10, 1)
    got = b.max_pool(ints, 3, 2, "same")
    assert b.dtype(got) == "int64"
    close(b, got, ref_pool(ints.astype(np.float64), (3,), (2,), "same", "max"))


def test_pool_gradients(b):
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    g = b.to_numpy(b.grad(lambda v: b.sum(b.max_pool(v, 2)))(x))
    assert g.sum() == 4.0 and set(np.unique(g)) <= {0.0, 1.0}
    g = b.to_numpy(b.grad(lambda v: b.sum(b.average_pool(v, 2)))(x))
    np.testing.assert_allclose(g, np.full_like(x, 0.25))
