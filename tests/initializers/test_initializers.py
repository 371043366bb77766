"""Initializers: values, statistics, seeding on the host stream, argument errors."""

import math

import numpy as np
import pytest

import highlevel as hl
from highlevel import initializers
from highlevel.initializers import compute_fans


def np_of(t):
    return np.asarray(hl.ops.convert_to_numpy(t))


# ----------------------------------------------------------------------------------------- constants
def test_zeros_ones_constant(backend):
    assert np_of(initializers.Zeros()((2, 3))).tolist() == [[0.0] * 3] * 2
    assert np_of(initializers.Ones()((2,), "int32")).tolist() == [1, 1]
    assert hl.ops.dtype(initializers.Ones()((2,), "int32")) == "int32"
    c = initializers.Constant(2.5)((3,), "float64")
    assert hl.ops.dtype(c) == "float64" and np_of(c).tolist() == [2.5] * 3
    assert hl.ops.dtype(initializers.Zeros()((2,))) == "float32"
    assert np_of(initializers.Zeros()((2,), "bool")).tolist() == [False, False]
    assert np_of(initializers.Constant(3)((2,), "int32")).tolist() == [3, 3]
    assert initializers.Constant(np.float32(1.5)).get_config() == {"value": 1.5}
    assert initializers.Constant(hl.ops.convert_to_tensor([1.0, 2.0])).get_config() == {"value": [1.0, 2.0]}


def test_constant_broadcast_and_error(backend):
    v = initializers.Constant(np.array([1.0, 2.0]))((2, 2))
    assert np_of(v).tolist() == [[1.0, 2.0], [1.0, 2.0]]
    with pytest.raises(ValueError, match="broadcast"):
        initializers.Constant([1.0, 2.0, 3.0])((2, 2))


def test_identity(backend):
    v = initializers.Identity(gain=3.0)((2, 3))
    np.testing.assert_array_equal(np_of(v), 3.0 * np.eye(2, 3))
    with pytest.raises(ValueError, match="2-D"):
        initializers.Identity()((2, 2, 2))
    assert initializers.IdentityInitializer is initializers.Identity


# ----------------------------------------------------------------------------------------- fans
@pytest.mark.parametrize(
    "shape,fans",
    [
        ((), (1, 1)),
        ((5,), (5, 5)),
        ((3, 7), (3, 7)),
        ((3, 4, 5), (12, 15)),
        ((3, 3, 16, 32), (144, 288)),
        ((2, 3, 3, 4, 8), (18 * 4, 18 * 8)),
    ],
)
def test_compute_fans(shape, fans):
    assert compute_fans(shape) == fans


def test_compute_fans_axes():
    assert compute_fans((2, 3, 4), input_axes=(0, 1), output_axes=(2,)) == (6, 4)


# ----------------------------------------------------------------------------------------- statistics
N = (200, 300)


@pytest.mark.parametrize(
    "cls,scale,fan_kind,dist",
    [
        (initializers.GlorotUniform, 1.0, "avg", "uniform"),
        (initializers.GlorotNormal, 1.0, "avg", "normal"),
        (initializers.HeUniform, 2.0, "in", "uniform"),
        (initializers.HeNormal, 2.0, "in", "normal"),
        (initializers.LecunUniform, 1.0, "in", "uniform"),
        (initializers.LecunNormal, 1.0, "in", "normal"),
    ],
)
def test_presets_statistics(backend, cls, scale, fan_kind, dist):
    w = np_of(cls(seed=11)(N)).astype(np.float64)
    fan = {"avg": (N[0] + N[1]) / 2, "in": N[0]}[fan_kind]
    var = scale / fan
    assert abs(w.mean()) < 4 * math.sqrt(var / w.size)
    assert w.var() == pytest.approx(var, rel=0.03)
    if dist == "uniform":
        assert np.abs(w).max() <= math.sqrt(3 * var) * (1 + 1e-6)
    else:  # truncated at two (pre-truncation) standard deviations
        assert np.abs(w).max() <= 2 * math.sqrt(var) / 0.87962566103423978 * (1 + 1e-6)


@pytest.mark.parametrize("mode,fan", [("fan_in", 200), ("fan_out", 300), ("fan_avg", 250)])
@pytest.mark.parametrize("distribution", ["truncated_normal", "untruncated_normal", "uniform"])
def test_variance_scaling_modes(mode, fan, distribution):
    w = np_of(initializers.VarianceScaling(scale=3.0, mode=mode, distribution=distribution, seed=5)(N))
    assert w.astype(np.float64).var() == pytest.approx(3.0 / fan, rel=0.03)


def test_variance_scaling_conv_kernel():
    w = np_of(initializers.VarianceScaling(2.0, "fan_in", "untruncated_normal", seed=2)((3, 3, 64, 32)))
    assert w.var() == pytest.approx(2.0 / (9 * 64), rel=0.03)


def test_random_normal_uniform_truncated(backend):
    w = np_of(initializers.RandomNormal(mean=1.0, stddev=2.0, seed=1)((100_000,))).astype(np.float64)
    assert w.mean() == pytest.approx(1.0, abs=0.03) and w.std() == pytest.approx(2.0, rel=0.02)
    u = np_of(initializers.RandomUniform(-3.0, 5.0, seed=1)((100_000,))).astype(np.float64)
    assert u.min() >= -3.0 and u.max() <= 5.0 and u.mean() == pytest.approx(1.0, abs=0.05)
    t = np_of(initializers.TruncatedNormal(mean=-1.0, stddev=0.5, seed=1)((100_000,))).astype(np.float64)
    assert t.min() >= -2.0 and t.max() <= 0.0
    assert t.std() == pytest.approx(0.5 * 0.87962566103423978, rel=0.02)


def test_orthogonal(backend):
    for shape in [(6, 6), (8, 3), (3, 8), (2, 3, 4)]:
        q = np_of(initializers.Orthogonal(gain=2.0, seed=4)(shape)).astype(np.float64)
        assert q.shape == shape
        flat = q.reshape(-1, shape[-1])
        if flat.shape[0] >= flat.shape[1]:
            np.testing.assert_allclose(flat.T @ flat, 4.0 * np.eye(flat.shape[1]), atol=1e-5)
        else:
            np.testing.assert_allclose(flat @ flat.T, 4.0 * np.eye(flat.shape[0]), atol=1e-5)
    with pytest.raises(ValueError, match="rank >= 2"):
        initializers.Orthogonal()((4,))


def test_orthogonal_matches_host_reference():
    # Keras' recipe on the same host draws: QR of a normal matrix, column signs from diag(R).
    from highlevel.random.host import make_rng

    a = make_rng(9).standard_normal((5, 3))
    q, r = np.linalg.qr(a)
    expected = (q * np.sign(np.diag(r))).T  # 3 rows < 5 columns: transposed
    got = np_of(initializers.Orthogonal(seed=9)((3, 5), "float64"))
    np.testing.assert_array_equal(got, expected)


def test_values_equal_the_host_float64_reference():
    from highlevel.random.host import make_rng

    got = np_of(initializers.RandomNormal(0.5, 2.0, seed=21)((4, 5), "float64"))
    np.testing.assert_array_equal(got, 0.5 + 2.0 * make_rng(21).standard_normal((4, 5)))
    got32 = np_of(initializers.RandomUniform(-1.0, 1.0, seed=21)((7,)))
    np.testing.assert_array_equal(got32, make_rng(21).uniform(-1.0, 1.0, size=(7,)).astype(np.float32))


# ----------------------------------------------------------------------------------------- seeding
ALL_RANDOM = [
    initializers.RandomNormal,
    initializers.RandomUniform,
    initializers.TruncatedNormal,
    initializers.VarianceScaling,
    initializers.GlorotUniform,
    initializers.GlorotNormal,
    initializers.HeUniform,
    initializers.HeNormal,
    initializers.LecunUniform,
    initializers.LecunNormal,
    initializers.Orthogonal,
]


@pytest.mark.parametrize("cls", ALL_RANDOM, ids=lambda c: c.__name__)
def test_int_seed_repeats_and_none_seed_follows_global_stream(backend, cls):
    seeded = cls(seed=123)
    a, b = np_of(seeded((4, 5))), np_of(seeded((4, 5)))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, np_of(cls(seed=124)((4, 5))))
    unseeded = cls()
    hl.utils.set_random_seed(7)
    c, d = np_of(unseeded((4, 5))), np_of(unseeded((4, 5)))
    assert not np.array_equal(c, d)
    hl.utils.set_random_seed(7)
    np.testing.assert_array_equal(np_of(cls()((4, 5))), c)


def test_seed_generator_seed_advances_reproducibly(backend):
    g1 = hl.random.SeedGenerator(3)
    init = initializers.GlorotUniform(seed=g1)
    a, b = np_of(init((3, 3))), np_of(init((3, 3)))
    assert not np.array_equal(a, b)
    init2 = initializers.GlorotUniform(seed=hl.random.SeedGenerator(3))
    np.testing.assert_array_equal(np_of(init2((3, 3))), a)
    assert init.get_config()["seed"] == 3


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_float_dtypes(backend, dtype):
    t = initializers.HeNormal(seed=0)((3, 4), dtype)
    assert hl.ops.dtype(t) == dtype and hl.ops.shape(t) == (3, 4)


def test_random_initializer_rejects_int_dtype():
    with pytest.raises(ValueError, match="float dtype"):
        initializers.RandomNormal()((2,), "int32")


# ----------------------------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "make,match",
    [
        (lambda: initializers.RandomNormal(stddev=-1.0), "stddev"),
        (lambda: initializers.TruncatedNormal(stddev=float("nan")), "stddev"),
        (lambda: initializers.RandomUniform(minval=1.0, maxval=0.0), "maxval"),
        (lambda: initializers.VarianceScaling(scale=0.0), "scale"),
        (lambda: initializers.VarianceScaling(mode="fan_sideways"), "mode"),
        (lambda: initializers.VarianceScaling(distribution="cauchy"), "distribution"),
        (lambda: initializers.GlorotUniform(seed=-3), "seed"),
        (lambda: initializers.GlorotUniform(seed="abc"), "seed"),
    ],
)
def test_bad_arguments(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_bad_shape():
    with pytest.raises(ValueError, match="non-negative"):
        initializers.Zeros()((2, -1))


def test_variance_scaling_normal_means_truncated():
    assert initializers.VarianceScaling(distribution="normal").distribution == "truncated_normal"


@pytest.mark.parametrize(
    "name",
    [
        "glorot_uniform",
        "glorot_normal",
        "he_uniform",
        "he_normal",
        "lecun_uniform",
        "lecun_normal",
        "orthogonal",
        "truncated_normal",
        "random_uniform",
    ],
)
@pytest.mark.parametrize("shape", [(300, 200), (3, 3, 32, 64)])
def test_statistics_match_keras(name, shape):
    # Values differ from Keras by design (host stream vs Keras' generator); the distributions must not.
    import os

    os.environ.setdefault("KERAS_BACKEND", "jax")
    keras = pytest.importorskip("keras")
    theirs = np.asarray(keras.ops.convert_to_numpy(keras.initializers.get(name)(shape))).astype(np.float64)
    ours = np_of(initializers.get(name)(shape)).astype(np.float64)
    assert ours.shape == theirs.shape
    assert ours.var() == pytest.approx(theirs.var(), rel=0.05)
    if name != "orthogonal":  # bounded distributions: the same support
        assert np.abs(ours).max() <= np.abs(theirs).max() * 1.05 + 1e-7
        assert np.abs(ours).max() >= np.abs(theirs).max() * 0.9
