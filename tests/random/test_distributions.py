"""``hl.random.gamma`` / ``beta`` / ``binomial`` / ``categorical`` on every backend: the distributions (moments
against theory, goodness of fit), seeds, shapes and dtypes, errors, and draws inside a compiled training step."""

import math

import numpy as np
import pytest
from scipy import stats

import highlevel as hl
from highlevel import ops

N = 20000  # draws per distribution check: the tolerances below are derived from it
Z = 5.0  # how many standard errors a moment may be off (a false alarm once in ~1.7 million checks)


def np_(x):
    return ops.convert_to_numpy(x)


def check_moments(x, mean, var, excess_kurtosis):
    """The sample mean and variance of ``x`` within ``Z`` standard errors of the true ``mean`` and ``var``.

    Standard errors: ``sqrt(var / n)`` for the mean, ``var * sqrt(2 / (n - 1) + excess_kurtosis / n)`` for the
    variance (the large-sample variance of the sample variance)."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    assert abs(x.mean() - mean) <= Z * math.sqrt(var / n), (x.mean(), mean)
    se_var = var * math.sqrt(2.0 / (n - 1) + excess_kurtosis / n)
    assert abs(x.var(ddof=1) - var) <= Z * se_var, (x.var(ddof=1), var)


def check_counts(samples, pmf):
    """A chi-square goodness-of-fit test of integer ``samples`` against ``pmf`` (values 0..len(pmf)-1)."""
    observed = np.bincount(np.asarray(samples, dtype=np.int64).ravel(), minlength=len(pmf))
    assert len(observed) == len(pmf), "a draw outside the support"
    expected = np.asarray(pmf) * observed.sum()
    assert (observed[expected == 0] == 0).all(), "a draw of probability 0"
    keep = expected > 5  # the chi-square approximation needs enough expected counts per cell
    chi2 = (((observed - expected) ** 2)[keep] / expected[keep]).sum()
    assert stats.chi2.sf(chi2, keep.sum() - 1) > 1e-4, (observed, expected)


@pytest.mark.parametrize("alpha", [0.3, 2.0, 9.0])
def test_gamma_matches_theory(backend, alpha):
    x = np_(hl.random.gamma((N,), alpha=alpha, seed=7))
    assert x.dtype == np.float32 and (x >= 0).all()
    check_moments(x, alpha, alpha, 6.0 / alpha)
    assert stats.kstest(x, stats.gamma(alpha).cdf).pvalue > 1e-4


@pytest.mark.parametrize("a,b", [(2.0, 5.0), (0.5, 0.5), (0.02, 0.05)])
def test_beta_matches_theory(backend, a, b):
    x = np_(hl.random.beta((N,), alpha=a, beta=b, seed=3))
    # small parameters: the draws pile up at 0 and 1 but stay finite and in range
    assert np.isfinite(x).all() and (x >= 0).all() and (x <= 1).all()
    mean, var = a / (a + b), a * b / ((a + b) ** 2 * (a + b + 1))
    kurt = 6 * ((a - b) ** 2 * (a + b + 1) - a * b * (a + b + 2)) / (a * b * (a + b + 2) * (a + b + 3))
    check_moments(x, mean, var, kurt)
    if min(a, b) >= 0.5:  # below, float32 rounds many draws to exactly 0 or 1: the KS test would see ties
        assert stats.kstest(x, stats.beta(a, b).cdf).pvalue > 1e-4


@pytest.mark.parametrize("n,p", [(10, 0.3), (1, 0.5), (40, 0.9)])
def test_binomial_matches_theory(backend, n, p):
    x = np_(hl.random.binomial((N,), counts=n, probabilities=p, seed=5))
    assert x.dtype == np.float32
    assert (x == np.round(x)).all() and x.min() >= 0 and x.max() <= n
    var = n * p * (1 - p)
    check_moments(x, n * p, var, (1 - 6 * p * (1 - p)) / var)
    check_counts(x, stats.binom(n, p).pmf(np.arange(n + 1)))


def test_binomial_edges_and_integer_dtype(backend):
    x = hl.random.binomial(
        (3, 4), counts=[[0.0], [3.0], [7.0]], probabilities=[0.0, 1.0, 1.0, 1.0], dtype="int32", seed=1
    )
    assert ops.dtype(x) == "int32"
    np.testing.assert_array_equal(np_(x), [[0, 0, 0, 0], [0, 3, 3, 3], [0, 7, 7, 7]])


def test_categorical_matches_softmax(backend):
    probs = np.array([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25], [1.0, 0.0, 0.0]])
    with np.errstate(divide="ignore"):
        logits = np.log(probs).astype("float32") + 3.0  # unnormalized; -inf marks an impossible class
    x = hl.random.categorical(logits, N, seed=11)
    assert ops.shape(x) == (3, N) and ops.dtype(x) == "int32"
    values = np_(x)
    for row, pmf in zip(values[:2], probs[:2]):
        check_counts(row, pmf)
    assert (values[2] == 0).all()  # the only class of probability > 0
    assert ops.dtype(hl.random.categorical(logits, 2, dtype="int64", seed=0)) == "int64"


def test_parameters_broadcast_per_element(backend):
    alpha = np.array([0.5, 4.0, 20.0], dtype="float32")
    x = np_(hl.random.gamma((4000, 3), alpha=alpha, seed=2))
    for j, a in enumerate(alpha):
        assert abs(x[:, j].mean() - a) <= Z * math.sqrt(a / 4000)
    y = np_(hl.random.binomial((2, 5000), counts=ops.convert_to_tensor([[4.0], [30.0]]), probabilities=0.5, seed=2))
    assert abs(y[0].mean() - 2.0) < 0.15 and abs(y[1].mean() - 15.0) < 0.3


@pytest.mark.parametrize(
    "draw",
    [
        lambda seed: hl.random.gamma((6,), 1.5, seed=seed),
        lambda seed: hl.random.beta((6,), 1.5, 2.5, seed=seed),
        lambda seed: hl.random.binomial((6,), 20, 0.4, seed=seed),
        lambda seed: hl.random.categorical(ops.zeros((2, 10)), 6, seed=seed),
    ],
    ids=["gamma", "beta", "binomial", "categorical"],
)
def test_seeds(backend, draw):
    # an int seed repeats its draw; another seed draws differently
    np.testing.assert_array_equal(np_(draw(4)), np_(draw(4)))
    assert not np.array_equal(np_(draw(4)), np_(draw(5)))
    # a SeedGenerator draws anew each call, and one of the same seed repeats the sequence
    g1, g2 = hl.random.SeedGenerator(9), hl.random.SeedGenerator(9)
    first, second = np_(draw(g1)), np_(draw(g1))
    assert not np.array_equal(first, second)
    np.testing.assert_array_equal(np_(draw(g2)), first)
    np.testing.assert_array_equal(np_(draw(g2)), second)
    # the global generator, reset by set_random_seed
    hl.utils.set_random_seed(21)
    a = np_(draw(None))
    hl.utils.set_random_seed(21)
    np.testing.assert_array_equal(np_(draw(None)), a)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_float_dtypes(backend, dtype):
    for x in (
        hl.random.gamma((50,), 2.0, dtype=dtype, seed=1),
        hl.random.beta((50,), 2.0, 2.0, dtype=dtype, seed=1),
        hl.random.binomial((50,), 5, 0.5, dtype=dtype, seed=1),
    ):
        assert ops.dtype(x) == dtype and ops.shape(x) == (50,)
        assert np.isfinite(np_(x)).all()
    hl.config.set_floatx("float64")
    try:
        assert ops.dtype(hl.random.gamma((2,), 1.0, seed=0)) == "float64"
    finally:
        hl.config.set_floatx("float32")


def test_bad_arguments_are_explained(backend):
    with pytest.raises(ValueError, match=r"`alpha` must be positive.*alpha=-1.0"):
        hl.random.gamma((3,), alpha=-1.0)
    with pytest.raises(ValueError, match="`beta` must be positive"):
        hl.random.beta((3,), alpha=1.0, beta=[1.0, 0.0, 2.0])
    with pytest.raises(ValueError, match=r"`probabilities` must be a probability, in \[0, 1\]"):
        hl.random.binomial((3,), counts=4, probabilities=1.5)
    with pytest.raises(ValueError, match="`counts` must be a whole number"):
        hl.random.binomial((3,), counts=2.5, probabilities=0.5)
    with pytest.raises(ValueError, match="`counts` must be a whole number"):
        hl.random.binomial((3,), counts=ops.convert_to_tensor([-1.0]), probabilities=0.5)
    with pytest.raises(ValueError, match=r"shape \(2,\) does not broadcast to the output shape \(3,\)"):
        hl.random.gamma((3,), alpha=[1.0, 2.0])
    with pytest.raises(ValueError, match="must be a float dtype.*int32"):
        hl.random.gamma((3,), 1.0, dtype="int32")
    with pytest.raises(ValueError, match="must be a float or integer dtype"):
        hl.random.binomial((3,), 1, 0.5, dtype="bool")
    with pytest.raises(ValueError, match=r"2-D tensor of shape \(batch_size, num_classes\).*\(3,\)"):
        hl.random.categorical([0.0, 1.0, 2.0], 2)
    with pytest.raises(ValueError, match="must be an integer dtype.*float32"):
        hl.random.categorical([[0.0, 1.0]], 2, dtype="float32")
    with pytest.raises(ValueError, match="num_samples"):
        hl.random.categorical([[0.0, 1.0]], -1)
    with pytest.raises(TypeError, match="seed must be an int"):
        hl.random.gamma((2,), 1.0, seed="x")


class _NoisyScale(hl.layers.Layer):
    """Multiplies its input by noise drawn with each new sampler during training: mean 1, small spread."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.generator = hl.random.SeedGenerator(3)

    def call(self, x, training=False):
        if not training:
            return x
        shape = ops.shape(x)
        g = hl.random.gamma(shape, 400.0, seed=self.generator) / 400.0
        b = hl.random.beta(shape, 400.0, 400.0, seed=self.generator) * 2.0
        keep = hl.random.binomial(shape, 1, 0.95, seed=self.generator) / 0.95
        pick = ops.cast(hl.random.categorical(ops.zeros((shape[0], 2)), 1, seed=self.generator), x.dtype)
        return x * g * b * keep * (1.0 + 0.0 * pick)


def test_samplers_inside_a_compiled_training_step(backend):
    hl.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5]])).astype("float32")
    noise = _NoisyScale()
    model = hl.Sequential([hl.Input((3,)), noise, hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="mse")
    before = model.evaluate(x, y, verbose=0)
    history = model.fit(x, y, batch_size=16, epochs=10, verbose=0)
    assert history.history["loss"][-1] < 0.2 * before
    # four draws per step, 4 steps per epoch: the generator's counter advanced inside the compiled step
    assert int(np_(noise.generator.state.value)[1]) == 4 * 4 * 10
