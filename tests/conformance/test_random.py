"""Random ops on every backend: shape, dtype, range and moments of 10k draws; seeds.

Engines use their own generators, so draws differ between backends; what must agree is the distribution
(mean/std within 6 standard errors of 10,000 draws, a false alarm rate below 1e-8) and the seed contract:
the same seed gives the same draw, a different counter a different draw.
"""

import numpy as np
import pytest

N = 10_000
SEED = (1234, 0)


def _draw(b, op, seed=SEED, dtype=None, shape=(N,)):
    if op == "random_shuffle":
        return b.random_shuffle(b.arange(shape[0]), seed=seed)
    kwargs = dict(OPS[op][0])
    if dtype is not None:
        kwargs["dtype"] = dtype
    return getattr(b, op)(shape, seed=seed, **kwargs)


def _trunc_std(k=2.0):
    """Std of a standard normal truncated to [-k, k]."""
    from math import erf, exp, pi, sqrt

    phi = exp(-k * k / 2) / sqrt(2 * pi)
    z = erf(k / sqrt(2))
    return sqrt(1 - 2 * k * phi / z)


# op -> (kwargs, default dtype, expected mean, expected std, support [lo, hi))
OPS = {
    "random_normal": ({"mean": 2.0, "stddev": 3.0}, "float32", 2.0, 3.0, (-np.inf, np.inf)),
    "random_uniform": ({"minval": -2.0, "maxval": 3.0}, "float32", 0.5, 5 / np.sqrt(12), (-2.0, 3.0)),
    "random_truncated_normal": ({"mean": -1.0, "stddev": 2.0}, "float32", -1.0, 2.0 * _trunc_std(), (-5.0, 3.0 + 1e-6)),
    "random_randint": ({"minval": 3, "maxval": 9}, "int32", 5.5, np.sqrt((6**2 - 1) / 12), (3, 9)),
}
DRAWS = list(OPS)


@pytest.mark.parametrize("op", DRAWS)
def test_shape_dtype_range_moments(backend, op):
    kwargs, dtype, mean, std, (lo, hi) = OPS[op]
    x = _draw(backend, op)
    assert backend.dtype(x) == dtype, f"{backend.name} {op}: dtype {backend.dtype(x)!r}, expected {dtype!r}"
    assert backend.shape(x) == (N,), f"{backend.name} {op}: shape {backend.shape(x)}, expected {(N,)}"
    v = np.asarray(backend.to_numpy(x), np.float64)
    assert np.isfinite(v).all(), f"{backend.name} {op}: non-finite draws"
    assert v.min() >= lo and v.max() < hi, (
        f"{backend.name} {op}{kwargs}: draws outside [{lo}, {hi}): min {v.min()}, max {v.max()}"
    )
    se_mean, se_std = std / np.sqrt(N), std / np.sqrt(2 * N) * 1.5  # 1.5: margin for non-normal kurtosis
    assert abs(v.mean() - mean) < 6 * se_mean, (
        f"{backend.name} {op}{kwargs}: mean of {N} draws {v.mean():.4f}, expected {mean:.4f} +- {6 * se_mean:.4f}"
    )
    assert abs(v.std() - std) < 6 * se_std, (
        f"{backend.name} {op}{kwargs}: std of {N} draws {v.std():.4f}, expected {std:.4f} +- {6 * se_std:.4f}"
    )
    if op == "random_randint":
        assert set(np.unique(v).astype(int)) == set(range(3, 9)), f"{backend.name}: randint misses values"


@pytest.mark.parametrize("op", DRAWS + ["random_shuffle"])
def test_same_seed_same_draw_other_counter_other_draw(backend, op):
    a = backend.to_numpy(_draw(backend, op, seed=(7, 3), shape=(500,)))
    b = backend.to_numpy(_draw(backend, op, seed=(7, 3), shape=(500,)))
    np.testing.assert_array_equal(a, b, err_msg=f"{backend.name} {op}: seed (7, 3) twice gave different draws")
    c = backend.to_numpy(_draw(backend, op, seed=(7, 4), shape=(500,)))
    assert not np.array_equal(a, c), f"{backend.name} {op}: seeds (7, 3) and (7, 4) gave the same draw"
    d = backend.to_numpy(_draw(backend, op, seed=(8, 3), shape=(500,)))
    assert not np.array_equal(a, d), f"{backend.name} {op}: seeds (7, 3) and (8, 3) gave the same draw"


@pytest.mark.parametrize("op", DRAWS)
def test_tensor_seed(backend, op):
    seed = backend.convert_to_tensor(np.array([7, 3], np.int32))
    a = backend.to_numpy(_draw(backend, op, seed=seed, shape=(100,)))
    b = backend.to_numpy(_draw(backend, op, seed=backend.convert_to_tensor(np.array([7, 3], np.int32)), shape=(100,)))
    np.testing.assert_array_equal(
        a, b, err_msg=f"{backend.name} {op}: the same int32 seed tensor twice gave different draws"
    )


@pytest.mark.parametrize("dtype", ["float64", "float16", "bfloat16"])
@pytest.mark.parametrize("op", ["random_normal", "random_uniform", "random_truncated_normal"])
def test_float_dtypes(backend, op, dtype):
    if dtype == "float64" and not backend.capabilities.supports_float64:
        pytest.skip(f"{backend.name}: capabilities.supports_float64 is False")
    if dtype == "bfloat16" and not backend.capabilities.supports_bfloat16:
        pytest.skip(f"{backend.name}: capabilities.supports_bfloat16 is False")
    x = _draw(backend, op, dtype=dtype, shape=(2000,))
    assert backend.dtype(x) == dtype, f"{backend.name} {op}: dtype {backend.dtype(x)!r}, expected {dtype!r}"
    v = np.asarray(backend.to_numpy(x)).astype(np.float64)
    _, _, mean, std, (lo, hi) = OPS[op]
    assert np.isfinite(v).all() and v.min() >= lo and v.max() <= hi, f"{backend.name} {op} {dtype}: range"
    assert abs(v.mean() - mean) < 6 * std / np.sqrt(2000) + 0.02, f"{backend.name} {op} {dtype}: mean {v.mean()}"


def test_randint_dtypes(backend):
    for dtype in ("int64", "uint8", "int16"):
        x = backend.random_randint((1000,), 0, 5, dtype=dtype, seed=SEED)
        assert backend.dtype(x) == dtype, f"{backend.name} randint: dtype {backend.dtype(x)!r}, expected {dtype!r}"
        v = np.asarray(backend.to_numpy(x))
        assert v.min() >= 0 and v.max() < 5, f"{backend.name} randint {dtype}: values outside [0, 5)"


def test_shuffle_is_a_permutation_along_axis(backend):
    x = np.arange(60, dtype=np.float32).reshape(20, 3)
    y = backend.to_numpy(backend.random_shuffle(backend.convert_to_tensor(x), axis=0, seed=SEED))
    assert y.shape == (20, 3)
    assert not np.array_equal(x, y), f"{backend.name}: shuffle of 20 rows left them in order"
    # rows move whole
    np.testing.assert_array_equal(np.sort(y[:, 0]), x[:, 0])
    np.testing.assert_array_equal(y[:, 1] - y[:, 0], np.ones(20))
    z = backend.to_numpy(backend.random_shuffle(backend.convert_to_tensor(x), axis=1, seed=SEED))
    np.testing.assert_array_equal(np.sort(z, axis=1), x, err_msg=f"{backend.name}: shuffle along axis 1")
    assert backend.dtype(backend.random_shuffle(backend.convert_to_tensor(x), seed=SEED)) == "float32"


@pytest.mark.parametrize("rate", [0.0, 0.3])
def test_dropout(backend, rate):
    x = backend.ones((N,))
    y = np.asarray(backend.to_numpy(backend.random_dropout(x, rate, seed=SEED)), np.float64)
    assert backend.dtype(backend.random_dropout(x, rate, seed=SEED)) == "float32"
    kept = y != 0
    np.testing.assert_allclose(y[kept], 1.0 / (1.0 - rate), rtol=1e-6)
    p = 1 - rate
    assert abs(kept.mean() - p) < 6 * np.sqrt(p * (1 - p) / N) + 1e-12, (
        f"{backend.name}: dropout kept {kept.mean():.4f} of entries, expected {p}"
    )
