"""The statistics ops beyond the conformance tables: symbolic tensors and compiled steps, Keras's signatures, and the
errors of the front door (``hl.ops.nanmean``, ``quantile``, ``average``, the window functions, ...)."""

import inspect
import warnings

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops

NAN = float("nan")

STATISTICS = (
    "nansum",
    "nanmean",
    "nanmax",
    "nanmin",
    "nanprod",
    "nanstd",
    "nanvar",
    "nanargmax",
    "nanargmin",
    "nancumsum",
    "nancumprod",
    "nanmedian",
    "nanpercentile",
    "nanquantile",
    "median",
    "percentile",
    "quantile",
    "average",
    "bartlett",
    "blackman",
    "hamming",
    "hanning",
    "kaiser",
)


def _np(x):
    return np.asarray(ops.convert_to_numpy(x))


def test_signatures_are_keras_signatures():
    import keras

    for name in STATISTICS:
        ours, theirs = inspect.signature(getattr(ops, name)), inspect.signature(getattr(keras.ops, name))
        assert list(ours.parameters) == list(theirs.parameters), name
        for p in ours.parameters.values():
            assert p.default == theirs.parameters[p.name].default, f"{name}({p.name}=...)"
        assert getattr(ops.numpy, name) is getattr(ops, name)


DTYPES = (
    "bool",
    "uint8",
    "uint16",
    "uint32",
    "int8",
    "int16",
    "int32",
    "int64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
)


@pytest.mark.parametrize(
    "name", [n for n in STATISTICS if n not in ("bartlett", "blackman", "hamming", "hanning", "kaiser")]
)
def test_result_dtypes_are_keras_result_dtypes(name):
    import keras

    extra = {"quantile": (0.5,), "nanquantile": (0.5,), "percentile": (50,), "nanpercentile": (50,)}.get(name, ())
    for dtype in DTYPES:
        want = getattr(keras.ops, name)(keras.KerasTensor((3, 4), dtype=dtype), *extra, axis=-1).dtype
        got = getattr(ops, name)(hl.Input((4,), dtype=dtype), *extra, axis=-1).dtype
        assert got == want, f"{name} of {dtype}: {got}, Keras says {want}"


def _statistics_model():
    inputs = hl.Input((6,))
    q = ops.quantile(inputs, [0.25, 0.75], axis=-1)  # (2, batch): the quantile axis comes first
    assert q.shape == (2, None)
    features = [
        ops.nanmean(inputs, axis=-1),
        ops.nanmax(inputs, axis=-1),
        ops.nanmedian(inputs, axis=-1),
        ops.nanstd(inputs, axis=-1),
        q[0],
        q[1],
        ops.average(inputs, axis=-1, weights=np.arange(1.0, 7.0, dtype=np.float32)),
    ]
    outputs = ops.stack(features, axis=-1)
    assert outputs.shape == (None, 7) and outputs.dtype == "float32"
    index = ops.nanargmax(inputs, axis=1)
    assert index.shape == (None,) and index.dtype == "int32"
    return hl.Model(inputs, [outputs, index])


def test_ops_on_symbolic_tensors_build_a_model_that_predicts(backend):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((10, 6)).astype(np.float32)
    x[x > 1.0] = NAN
    x[3] = NAN  # an all-NaN row
    got, index = _statistics_model().predict(x, batch_size=4, verbose=0)  # compiled where the engine compiles
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's "All-NaN slice" (the row of NaN)
        want = np.stack(
            [
                np.nanmean(x, -1),
                np.nanmax(x, -1),
                np.nanmedian(x, -1),
                np.nanstd(x, -1),
                np.quantile(x, 0.25, -1),
                np.quantile(x, 0.75, -1),
                np.average(x, -1, np.arange(1.0, 7.0)),
            ],
            -1,
        )
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    rows = ~np.isnan(x).all(1)
    np.testing.assert_array_equal(index[rows], np.nanargmax(x[rows], 1))
    assert (index[~rows] == -1).all()


def test_symbolic_output_shapes_and_dtypes():
    x = hl.Input((3, 4), dtype="int32")
    assert ops.median(x, axis=(1, 2), keepdims=True).shape == (None, 1, 1)
    assert ops.median(x).dtype == "float32"
    assert ops.nanpercentile(x, [10, 50, 90], axis=-1).shape == (3, None, 3)
    assert ops.nansum(hl.Input((3,), dtype="int8")).dtype == "int32"
    assert ops.nansum(hl.Input((3,), dtype="uint16")).dtype == "uint32"
    assert ops.nancumsum(hl.Input((3, 2), dtype="bool")).shape == (None,)
    assert ops.nanargmin(hl.Input((3, 2)), keepdims=True).shape == (1, 1, 1)


@pytest.mark.parametrize("window", ["bartlett", "blackman", "hamming", "hanning"])
def test_windows_take_a_concrete_length(backend, window):
    fn, ref = getattr(ops, window), getattr(np, window)
    for length in (5, np.int64(5), 5.0, ops.convert_to_tensor(5)):
        out = fn(length)
        assert ops.dtype(out) == "float32"
        np.testing.assert_allclose(_np(out), ref(5), atol=1e-7)
    with pytest.raises(TypeError, match="one integer"):
        fn(2.5)
    with pytest.raises(TypeError, match="symbolic"):
        fn(hl.Input((), dtype="int32"))


def test_kaiser_takes_beta_as_a_number_or_a_concrete_tensor(backend):
    want = np.kaiser(8, 6.5)
    np.testing.assert_allclose(_np(ops.kaiser(8, 6.5)), want, rtol=1e-6)
    np.testing.assert_allclose(_np(ops.kaiser(ops.convert_to_tensor(8), ops.convert_to_tensor(6.5))), want, rtol=1e-6)
    with pytest.raises(TypeError, match="beta"):
        ops.kaiser(8, [1.0, 2.0])
    with pytest.raises(ValueError, match="finite"):
        ops.kaiser(8, float("inf"))


def test_the_kaiser_window_is_accurate_for_any_beta():
    scipy_special = pytest.importorskip("scipy.special")
    from highlevel.backends.contract.statistics import i0e

    xs = np.concatenate([np.linspace(0, 40, 401), np.geomspace(40, 1e5, 50)])
    np.testing.assert_allclose([i0e(v) for v in xs], scipy_special.i0e(xs), rtol=3e-15)
    with hl.config.backend_scope("native"):
        for beta in (0.5, 8.6, 19.9, 20.1, 60.0, 700.0, 1e4):
            got = _np(ops.kaiser(33, beta))
            n = np.arange(33.0)
            arg = beta * np.sqrt(1 - ((n - 16) / 16) ** 2)
            want = np.exp(arg - beta) * scipy_special.i0e(arg) / scipy_special.i0e(beta)  # no overflow
            np.testing.assert_allclose(got, want.astype(np.float32), rtol=1e-6, atol=1e-30, err_msg=f"beta={beta}")


@pytest.mark.parametrize(
    "op,q",
    [("quantile", 1.5), ("quantile", [0.5, -0.1]), ("percentile", 101), ("nanpercentile", -1), ("nanquantile", NAN)],
)
def test_levels_outside_the_range_raise(op, q):
    with pytest.raises(ValueError, match=r"must be in the range \[0, 1(00)?\]"):
        getattr(ops, op)(np.arange(4.0), q)


def test_quantile_arguments_are_checked():
    x = np.arange(4.0)
    with pytest.raises(ValueError, match="`method` must be one of"):
        ops.quantile(x, 0.5, method="inverted_cdf")
    with pytest.raises(ValueError, match="1-D sequence"):
        ops.quantile(x, [[0.5]])
    with pytest.raises(ValueError, match="out of bounds"):
        ops.median(x, axis=1)


def test_quantile_levels_may_be_a_tensor(backend):
    x = ops.convert_to_tensor(np.arange(11.0, dtype=np.float32))
    got = ops.quantile(x, ops.convert_to_tensor(np.array([0.3, 0.7], np.float32)), method="lower")
    # the float32 levels are read in float64: 0.3f * 10 is just above 3, 0.7f * 10 just below 7
    np.testing.assert_array_equal(_np(got), [3.0, 6.0])
    assert ops.dtype(got) == "float32"


def test_average_weights_must_fit_the_axis():
    x = np.ones((2, 3), np.float32)
    with pytest.raises(ValueError, match="when `axis` is None"):
        ops.average(x, weights=np.ones(3))
    with pytest.raises(ValueError, match="one weight per position"):
        ops.average(x, axis=1, weights=np.ones(2))
    with pytest.raises(ValueError, match="1-D along a single axis"):
        ops.average(x, axis=(0, 1), weights=np.ones(3))
    np.testing.assert_allclose(_np(ops.average(x * [[1], [3]], axis=0, weights=np.array([1.0, 3.0]))), [2.5] * 3)
