"""Convolution and pooling of the TensorFlow backend against plain-numpy references."""

import itertools

import numpy as np
import pytest

RNG = np.random.default_rng(0)


def _same_pads(size, k, s, d):
    eff = (k - 1) * d + 1
    out = -(-size // s)
    total = max((out - 1) * s + eff - size, 0)
    return total // 2, total - total // 2


def ref_conv(x, k, strides, padding, dil, groups=1):
    """Channels-last N-D convolution by the definition (cross-correlation, TF "same" padding)."""
    n = x.ndim - 2
    if padding == "same":
        pads = [_same_pads(x.shape[1 + i], k.shape[i], strides[i], dil[i]) for i in range(n)]
        x = np.pad(x, [(0, 0)] + pads + [(0, 0)])
    eff = [(k.shape[i] - 1) * dil[i] + 1 for i in range(n)]
    out_sp = [(x.shape[1 + i] - eff[i]) // strides[i] + 1 for i in range(n)]
    cin_g, cout = k.shape[-2], k.shape[-1]
    cout_g = cout // groups
    out = np.zeros((x.shape[0], *out_sp, cout))
    for kidx in np.ndindex(*k.shape[:n]):
        sl = tuple(
            slice(kidx[i] * dil[i], kidx[i] * dil[i] + (out_sp[i] - 1) * strides[i] + 1, strides[i]) for i in range(n)
        )
        patch = x[(slice(None),) + sl]
        for g in range(groups):
            out[..., g * cout_g : (g + 1) * cout_g] += (
                patch[..., g * cin_g : (g + 1) * cin_g] @ k[kidx][:, g * cout_g : (g + 1) * cout_g]
            )
    return out


def ref_conv_transpose(x, k, strides, padding, output_padding, dil):
    """Scatter form of the transposed convolution, sized and cropped by Keras 3's (JAX) padding rule."""
    n = x.ndim - 2
    ks = k.shape[:n]
    eff = [(ks[i] - 1) * dil[i] + 1 for i in range(n)]
    full_sp = [(x.shape[1 + i] - 1) * strides[i] + eff[i] for i in range(n)]
    full = np.zeros((x.shape[0], *full_sp, k.shape[-2]))
    for kidx in np.ndindex(*ks):
        sl = tuple(
            slice(kidx[i] * dil[i], kidx[i] * dil[i] + (x.shape[1 + i] - 1) * strides[i] + 1, strides[i])
            for i in range(n)
        )
        full[(slice(None),) + sl] += x @ k[kidx].T
    out = full
    for i in range(n):
        op = None if output_padding is None else output_padding[i]
        if padding == "valid":
            op = max(eff[i], strides[i]) - eff[i] if op is None else op
            lo, hi = eff[i] - 1, eff[i] - 1 + op
        else:
            pad_len = strides[i] + eff[i] - 2 if op is None else eff[i] + eff[i] % 2 - 2 + op
            lo = min(pad_len // 2 + pad_len % 2, eff[i] - 1)
            hi = pad_len - lo
        size = (x.shape[1 + i] - 1) * strides[i] + 1 + lo + hi - eff[i] + 1
        shift = eff[i] - 1 - lo
        ext = np.zeros(out.shape[: 1 + i] + (size + abs(shift) + out.shape[1 + i],) + out.shape[2 + i :])
        ext_key = [slice(None)] * out.ndim
        ext_key[1 + i] = slice(abs(shift), abs(shift) + out.shape[1 + i])
        ext[tuple(ext_key)] = out
        take = [slice(None)] * out.ndim
        take[1 + i] = slice(abs(shift) + shift, abs(shift) + shift + size)
        out = ext[tuple(take)]
    return out


def ref_pool(x, pool, strides, padding, kind):
    n = x.ndim - 2
    if padding == "same":
        pads = [_same_pads(x.shape[1 + i], pool[i], strides[i], 1) for i in range(n)]
    else:
        pads = [(0, 0)] * n
    fill = -np.inf if kind == "max" else np.nan
    xp = np.pad(x, [(0, 0)] + pads + [(0, 0)], constant_values=fill)
    out_sp = [(xp.shape[1 + i] - pool[i]) // strides[i] + 1 for i in range(n)]
    out = np.zeros((x.shape[0], *out_sp, x.shape[-1]))
    for o in np.ndindex(*out_sp):
        win = xp[(slice(None),) + tuple(slice(o[i] * strides[i], o[i] * strides[i] + pool[i]) for i in range(n))]
        win = win.reshape(x.shape[0], -1, x.shape[-1])
        out[(slice(None),) + o] = win.max(1) if kind == "max" else np.nanmean(win, 1)
    return out


CONV_CASES = [
    # (spatial dims, strides, padding, dilation, groups)
    (1, 1, "valid", 1, 1),
    (1, 2, "same", 1, 2),
    (1, 2, "same", 2, 1),
    (2, 1, "same", 1, 1),
    (2, (2, 1), "valid", 1, 1),
    (2, 2, "same", 2, 1),
    (2, 1, "valid", (2, 1), 2),
    (2, 3, "same", 1, 4),
    (3, 1, "same", 1, 1),
    (3, 2, "valid", 1, 2),
    (3, 1, "same", 2, 1),
]


def _t(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v)


@pytest.mark.parametrize("n,strides,padding,dil,groups", CONV_CASES)
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_conv(tfb, n, strides, padding, dil, groups, data_format):
    x = RNG.standard_normal((2,) + (7,) * n + (4,)).astype("float32")
    k = RNG.standard_normal((3,) * n + (4 // groups, 4)).astype("float32")
    want = ref_conv(x.astype("float64"), k, _t(strides, n), padding, _t(dil, n), groups)
    xin = x if data_format == "channels_last" else np.moveaxis(x, -1, 1)
    got = tfb.to_numpy(tfb.conv(xin, k, strides, padding, data_format, dil))
    if data_format == "channels_first":
        got = np.moveaxis(got, 1, -1)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "n,strides,padding,dil",
    [
        (1, 1, "valid", 1),
        (1, 2, "same", 1),
        (2, 1, "same", 1),
        (2, 2, "valid", 1),
        (2, (2, 1), "same", 1),
        (2, 1, "same", 2),
        (2, 2, "same", 2),
        (3, 1, "valid", 1),
        (3, 2, "same", 1),
    ],
)
def test_depthwise_conv(tfb, n, strides, padding, dil):
    c, mult = 3, 2
    x = RNG.standard_normal((2,) + (6,) * n + (c,)).astype("float32")
    k = RNG.standard_normal((3,) * n + (c, mult)).astype("float32")
    want = ref_conv(
        x.astype("float64"), k.reshape(k.shape[:n] + (1, c * mult)), _t(strides, n), padding, _t(dil, n), groups=c
    )
    got = tfb.to_numpy(tfb.depthwise_conv(x, k, strides, padding, None, dil))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "n,k,strides,padding,output_padding,dil",
    [
        (1, 3, 2, "valid", None, 1),
        (1, 3, 2, "same", None, 1),
        (1, 4, 3, "same", 1, 1),
        (1, 2, 3, "valid", None, 1),
        (2, 3, 2, "same", None, 1),
        (2, 3, 1, "valid", None, 2),
        (2, 3, 2, "same", None, 2),
        (2, 3, 2, "valid", 1, 2),
        (2, 3, 2, "same", 1, 1),
        (2, 5, 2, "same", 0, 1),
        (3, 2, 2, "same", None, 1),
        (3, 3, 1, "same", None, 2),
    ],
)
def test_conv_transpose(tfb, n, k, strides, padding, output_padding, dil):
    x = RNG.standard_normal((2,) + (5,) * n + (3,)).astype("float32")
    kern = RNG.standard_normal((k,) * n + (4, 3)).astype("float32")
    op = None if output_padding is None else _t(output_padding, n)
    want = ref_conv_transpose(x.astype("float64"), kern, _t(strides, n), padding, op, _t(dil, n))
    got = tfb.to_numpy(tfb.conv_transpose(x, kern, strides, padding, output_padding, None, dil))
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize(
    "n,pool,strides,padding",
    [
        (1, 2, None, "valid"),
        (1, 3, 2, "same"),
        (2, 2, None, "valid"),
        (2, 3, 2, "same"),
        (2, (2, 3), 1, "same"),
        (3, 2, 2, "same"),
    ],
)
def test_pool(tfb, kind, n, pool, strides, padding):
    x = RNG.standard_normal((2,) + (7,) * n + (3,)).astype("float32")
    s = _t(pool, n) if strides is None else _t(strides, n)
    want = ref_pool(x.astype("float64"), _t(pool, n), s, padding, kind)
    op = tfb.max_pool if kind == "max" else tfb.average_pool
    got = tfb.to_numpy(op(x, pool, strides, padding))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    xf = np.moveaxis(x, -1, 1)
    got_cf = tfb.to_numpy(op(xf, pool, strides, padding, "channels_first"))
    np.testing.assert_allclose(np.moveaxis(got_cf, 1, -1), want, rtol=1e-5, atol=1e-5)


def test_conv_gradient_matches_finite_differences(tfb):
    x = RNG.standard_normal((1, 5, 5, 2))
    k = RNG.standard_normal((3, 3, 2, 2))
    f = lambda a, b: tfb.sum(tfb.square(tfb.conv(a, b, 2, "same", None, 1)))  # noqa: E731
    _, (gx, gk) = tfb.value_and_grad(f, argnums=(0, 1))(x, k)
    eps = 1e-6
    for arr, g, which in ((x, gx, 0), (k, gk, 1)):
        for idx in itertools.islice(np.ndindex(*arr.shape), 0, None, 7):
            p = arr.copy()
            p[idx] += eps
            m = arr.copy()
            m[idx] -= eps
            args_p = (p, k) if which == 0 else (x, p)
            args_m = (m, k) if which == 0 else (x, m)
            fd = (tfb.to_numpy(f(*args_p)) - tfb.to_numpy(f(*args_m))) / (2 * eps)
            assert abs(fd - tfb.to_numpy(g)[idx]) < 1e-4
