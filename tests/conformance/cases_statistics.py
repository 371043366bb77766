"""Conformance cases: NaN-ignoring reductions, medians and quantiles, the weighted average, window functions.

Their generic definitions live in ``backends/contract/statistics.py``. The references are numpy's own functions
in float64, except where numpy has no answer worth matching (each such line says why):

* ``nanargmax``/``nanargmin`` of an all-NaN slice: numpy raises; every Keras backend gives -1, and so do we.
  Of ``[nan, -inf]``: numpy and every Keras backend give 0, the index of the NaN they are told to ignore; we give
  the index of the real entry;
* quantiles next to an infinity: numpy interpolates ``1 * (1 - 0) + inf * 0`` into NaN even where the quantile
  falls exactly on an entry (``quantile([1, 2, inf], 0.5)`` is NaN); Keras's backends disagree with numpy and each
  other (JAX ``[1, inf, nan]``, PyTorch ``[1, nan, nan]``, TensorFlow ``[nan, inf, inf]`` for q = 0, 0.5, 1 of
  ``[1, inf]``); the right answer is ``[1, inf, inf]``;
* ``"nearest"`` rounds a virtual index of .5 to the even position, as numpy, PyTorch and TensorFlow do (Keras on
  JAX rounds down); the virtual index ``q * (n - 1)`` is float64, as numpy's (Keras on TensorFlow computes it in
  float32 and takes ``quantile(arange(11), 0.7, "lower")`` to be 6, not 7);
* the median or a quantile of an empty slice is NaN, as numpy says (Keras on JAX, PyTorch and TensorFlow raise);
* ``kaiser`` with a large ``beta`` is finite (Keras on JAX and PyTorch give NaN for beta = 200, the overflow of
  ``I0``), and a negative ``beta`` gives the window of ``-beta`` as numpy's (PyTorch raises, TensorFlow gives
  ``1 / w``); windows of a length below 1 are empty, as numpy's (Keras on JAX, PyTorch and TensorFlow raise).

Gradients: the NaN-ignoring ops are differentiated on inputs that hold NaNs (their gradient there is 0), the order
statistics on well-separated values (no ties), so that the gradient flows to the selected or interpolated entries.
"""

import functools
import warnings

import numpy as np

from .harness import (
    BOOL,
    F32_64,
    FLOAT,
    INT32,
    INTS,
    NONE,
    SAME,
    SUM,
    C,
    Gen,
    const,
    distinct,
    fixed,
    ints,
    normal,
    uniform,
)

NAN = float("nan")
INF = float("inf")
HALF = ("float16", "bfloat16")
N = (NONE,)
METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quiet(fn):
    """numpy warns on all-NaN and empty slices ("Mean of empty slice", "All-NaN slice"); the values are compared."""

    @functools.wraps(fn)
    def ref(*args, **kwargs):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            return fn(*args, **kwargs)

    return ref


def _on_floats(fn):
    """``fn`` on float64 data (numpy's quantiles refuse bools), warnings silenced."""

    @functools.wraps(fn)
    def ref(x, *args, **kwargs):
        return _quiet(fn)(np.asarray(x, np.float64), *args, **kwargs)

    return ref


def with_nans(gen, p=0.3):
    """``gen``'s draws with about a fraction ``p`` of the entries NaN, drawn again until every slice along every
    axis keeps two numbers (one along an axis of length 2): the gradient cases then have finite outputs, and a
    standard deviation is never of a single number."""

    def fn(rng):
        v = np.array(gen(rng), dtype=np.float64)
        for _ in range(1000):
            hole = rng.random(v.shape) < p
            if all(np.all(np.sum(~hole, axis=a) >= min(2, n - 1)) for a, n in enumerate(v.shape)):
                return np.where(hole, np.nan, v)
        raise AssertionError(f"no NaN pattern for shape {v.shape}")  # pragma: no cover

    return Gen(fn, f"with_nans({gen!r})")


def _widened(p):
    """nansum/nanprod: bool, int8 and int16 give int32; uint8 and uint16 uint32; other dtypes are kept."""
    r = SAME(p)
    return {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32", "uint16": "uint32"}.get(r, r)


def _float_of_x(p):
    """The float dtype of a statistic of the first input (a float64 ``q`` tensor does not promote it)."""
    return FLOAT(p[:1])


def _nanarg(np_fn):
    def ref(x, axis=None, keepdims=False):
        empty = np.all(np.isnan(x), axis=axis, keepdims=keepdims)
        safe = np.where(np.all(np.isnan(x), axis=axis, keepdims=True), 0.0, x) if x.dtype.kind == "f" else x
        return np.where(empty, -1, np_fn(safe, axis=axis, keepdims=keepdims)).astype(np.int32)

    ref.__name__ = np_fn.__name__
    return ref


def _literal(value, dtype=np.float64):
    """A reference that is a value worked out by hand (where numpy's answer is not the one we keep)."""

    def ref(*args, **kwargs):
        return np.asarray(value, dtype=dtype)

    return ref


def _axes_family(op, gen, grad=(0,), out=None, ref=None, dtypes=F32_64):
    """The axis variants of a reduction: all entries, a negative axis, a tuple with a negative axis, keepdims."""
    kw = {} if out is None else {"out": out}
    ref = _quiet(ref or getattr(np, op))
    return [
        C(op, "all", (gen,), ref, dtypes=dtypes, grad=grad, **kw),
        C(op, "axis-neg", (gen,), ref, grad=grad, axis=-1, **kw),
        C(op, "axis-tuple-neg", (gen,), ref, grad=grad, axis=(0, -1), **kw),
        C(op, "keepdims", (gen,), ref, grad=grad, axis=1, keepdims=True, **kw),
        C(op, "keepdims-all", (gen,), ref, grad=grad, keepdims=True, **kw),
        C(op, "axis-empty", (gen,), ref, axis=(), **kw),  # reduces nothing: entry by entry
    ]


XN = with_nans(normal(2, 3, 4))
XN_DISTINCT = with_nans(distinct(2, 3, 4))
XN_POSITIVE = with_nans(uniform(2, 3, 4, low=0.5, high=1.5))
ALL_NAN_ROW = const([[NAN, NAN, NAN], [1.0, NAN, 3.0], [2.0, 5.0, 4.0]])
WITH_INF = const([[1.0, NAN, INF], [-INF, 2.0, NAN], [NAN, NAN, NAN]])

_REDUCTIONS = [
    *_axes_family("nansum", XN),
    C("nansum", "all-nan-row", (ALL_NAN_ROW,), _quiet(np.nansum), dtypes=F32_64, axis=1),
    C("nansum", "inf", (WITH_INF,), _quiet(np.nansum), axis=0),
    C("nansum", "int", (ints(3, 4),), np.nansum, dtypes=INTS, out=_widened, axis=1),
    C(
        "nansum",
        "small-int",
        (ints(3, 4, low=0, high=100),),
        np.nansum,
        out=_widened,
        axis=0,
        dtypes=("int8", "int16", "uint8", "uint16"),
    ),
    C("nansum", "bool", (ints(3, 4, low=0, high=2),), np.nansum, dtypes=("bool",), out=_widened, axis=-1),
    C("nansum", "half", (with_nans(normal(3, 4)),), _quiet(np.nansum), dtypes=HALF, axis=-1),
    C("nansum", "size0", (normal(0, 3),), np.nansum, axis=0),
    *_axes_family("nanmean", XN, out=FLOAT),
    C("nanmean", "all-nan-row", (ALL_NAN_ROW,), _quiet(np.nanmean), dtypes=F32_64, out=FLOAT, axis=1),
    C("nanmean", "int", (ints(3, 4),), np.nanmean, dtypes=INTS + ("bool",), out=FLOAT, axis=0),
    C("nanmean", "half", (with_nans(normal(3, 4)),), _quiet(np.nanmean), dtypes=HALF, out=FLOAT, axis=-1),
    C("nanmean", "size0", (normal(0, 3),), _quiet(np.nanmean), out=FLOAT, axis=0),
    *_axes_family("nanmax", XN_DISTINCT, out=SAME),
    C("nanmax", "all-nan-row", (ALL_NAN_ROW,), _quiet(np.nanmax), dtypes=F32_64, out=SAME, axis=1),
    C("nanmax", "inf", (WITH_INF,), _quiet(np.nanmax), out=SAME, axis=1),
    C("nanmax", "int", (ints(3, 4),), np.nanmax, dtypes=INTS + ("int8", "uint8"), out=SAME, axis=1),
    C("nanmax", "bool", (ints(3, 4, low=0, high=2),), np.nanmax, dtypes=("bool",), out=BOOL, axis=0),
    *_axes_family("nanmin", XN_DISTINCT, out=SAME),
    C("nanmin", "all-nan-row", (ALL_NAN_ROW,), _quiet(np.nanmin), dtypes=F32_64, out=SAME, axis=1),
    C("nanmin", "inf", (WITH_INF,), _quiet(np.nanmin), out=SAME, axis=0),
    C("nanmin", "int", (ints(3, 4),), np.nanmin, dtypes=INTS, out=SAME, axis=-1),
    C("nanmin", "bool", (ints(3, 4, low=0, high=2),), np.nanmin, dtypes=("bool",), out=BOOL, axis=1),
    *_axes_family("nanprod", XN_POSITIVE),
    C("nanprod", "all-nan-row", (ALL_NAN_ROW,), np.nanprod, dtypes=F32_64, axis=1),
    C("nanprod", "int", (ints(3, 4, low=-3, high=4),), np.nanprod, dtypes=INTS, out=_widened, axis=1),
    C(
        "nanprod",
        "small-int",
        (ints(3, 4, low=1, high=6),),
        np.nanprod,
        out=_widened,
        axis=0,
        dtypes=("int8", "uint8", "bool"),
    ),
    *_axes_family("nanvar", XN, out=FLOAT),
    C("nanvar", "all-nan-row", (ALL_NAN_ROW,), _quiet(np.nanvar), dtypes=F32_64, out=FLOAT, axis=1),
    C("nanvar", "int", (ints(3, 4),), np.nanvar, dtypes=INTS, out=FLOAT, axis=0),
    C("nanvar", "half", (with_nans(normal(3, 4)),), _quiet(np.nanvar), dtypes=HALF, out=FLOAT, axis=-1),
    *_axes_family("nanstd", XN, out=FLOAT),
    C("nanstd", "all-nan-row", (ALL_NAN_ROW,), _quiet(np.nanstd), dtypes=F32_64, out=FLOAT, axis=1),
    C("nanstd", "int", (ints(3, 4),), np.nanstd, dtypes=("int32",), out=FLOAT, axis=-1),
    C("nanstd", "half", (with_nans(normal(3, 4)),), _quiet(np.nanstd), dtypes=HALF, out=FLOAT, axis=-1),
]

_ARGS = [
    row
    for op, fn in (("nanargmax", np.nanargmax), ("nanargmin", np.nanargmin))
    for row in (
        C(op, "all", (with_nans(distinct(3, 4)),), _nanarg(fn), dtypes=F32_64, out=INT32),
        C(op, "axis0", (with_nans(distinct(3, 4)),), _nanarg(fn), out=INT32, axis=0),
        C(op, "axis-neg-keepdims", (with_nans(distinct(2, 3, 4)),), _nanarg(fn), out=INT32, axis=-1, keepdims=True),
        C(op, "keepdims-all", (with_nans(distinct(2, 3)),), _nanarg(fn), out=INT32, keepdims=True),
        # numpy raises on an all-NaN slice; -1, as every Keras backend gives
        C(op, "all-nan-row", (ALL_NAN_ROW,), _nanarg(fn), dtypes=F32_64, out=INT32, axis=1),
        C(op, "ties", (const([[1.0, 3.0, 3.0, NAN], [NAN, 2.0, 2.0, 0.0]]),), _nanarg(fn), out=INT32, axis=-1),
        C(op, "int", (ints(3, 4, low=0, high=3),), _nanarg(fn), dtypes=INTS + ("bool",), out=INT32, axis=1),
    )
] + [
    # numpy and every Keras backend give 0 here, the index of the NaN; the extreme of the real entries is at 1
    C("nanargmax", "nan-then-neg-inf", (const([NAN, -INF]),), _literal(1, np.int32), dtypes=F32_64, out=INT32),
    C("nanargmin", "nan-then-inf", (const([[NAN, INF], [INF, NAN]]),), _literal([1, 0], np.int32), out=INT32, axis=1),
]

_CUMULATIVE = [
    row
    for op in ("nancumsum", "nancumprod")
    for row in (
        C(op, "flat", (with_nans(uniform(3, 4, low=0.5, high=1.5)),), dtypes=F32_64, grad=(0,)),
        C(op, "axis-neg", (with_nans(uniform(2, 3, 4, low=0.5, high=1.5)),), grad=(0,), axis=-1),
        C(op, "axis0", (with_nans(uniform(2, 3, 4, low=0.5, high=1.5)),), grad=(0,), axis=0),
        C(op, "all-nan-row", (ALL_NAN_ROW,), axis=1),
        C(op, "int", (ints(3, 4, low=-2, high=3),), dtypes=INTS, out=SUM, axis=1),
        C(op, "bool", (ints(3, 4, low=0, high=2),), dtypes=("bool",), out=SUM, axis=0),
        C(op, "dtype", (with_nans(uniform(3, 4, low=0.5, high=1.5)),), out="float64", axis=1, dtype="float64"),
    )
]


def _quantile_cases(op, scale, ignore_nan):
    """The quantile family: ``scale`` 1 for quantiles, 100 for percentiles."""
    ref = _on_floats(getattr(np, op))
    gen2 = with_nans(distinct(3, 11)) if ignore_nan else distinct(3, 11)
    gen3 = with_nans(distinct(2, 3, 4)) if ignore_nan else distinct(2, 3, 4)
    levels = [0.0, 0.3, 0.5, 0.7, 1.0]

    def q(v):
        return round(v * scale, 10)  # 30.0, not 0.3 * 100 = 30.000000000000004

    return [
        C(op, "scalar", (gen3, q(0.3)), ref, dtypes=F32_64, out=FLOAT, grad=(0,)),
        C(op, "list-axis-tuple", (gen3, [q(0.25), q(0.5), q(0.9)]), ref, out=FLOAT, grad=(0,), axis=(0, -1)),
        C(op, "list-keepdims", (gen3, [q(0.1), q(0.6)]), ref, out=FLOAT, grad=(0,), axis=1, keepdims=True),
        C(op, "keepdims-all", (gen3, q(0.5)), ref, out=FLOAT, grad=(0,), keepdims=True),
        *[
            C(
                op,
                method,
                (gen2, [q(v) for v in levels]),
                ref,
                dtypes=F32_64,
                out=FLOAT,
                grad=(0,),
                axis=-1,
                method=method,
            )
            for method in METHODS
        ],
        # virtual indices 0.3 * 10 and 0.7 * 10 in float64: exactly 3 and 7
        *[
            C(op, f"exact-index-{method}", (const(np.arange(11.0)), [q(0.3), q(0.7)]), ref, out=FLOAT, method=method)
            for method in ("lower", "higher", "nearest")
        ],
        # virtual indices 0.5, 1.5 and 2.5: to the even position, as numpy (Keras on JAX rounds 1.5 down)
        *[
            C(
                op,
                f"nearest-half-even-{n}",
                (const(np.stack([np.arange(n, 0.0, -1), np.arange(n) * 2.0])), q(0.5)),
                ref,
                out=FLOAT,
                axis=1,
                method="nearest",
            )
            for n in (2, 4, 6)
        ],
        C(op, "int", (ints(3, 5), q(0.4)), ref, dtypes=INTS + ("bool",), out=FLOAT, axis=1),
        C(op, "half", (gen2, [q(0.2), q(0.5)]), ref, dtypes=HALF, out=FLOAT, axis=-1),
        C(
            op,
            "tensor-q",
            (gen2, fixed(np.array([q(0.2), q(0.75)], np.float32))),
            ref,
            out=_float_of_x,
            grad=(0,),
            axis=1,
        ),
        C(op, "tensor-q-scalar", (gen2, fixed(np.array(q(0.5), np.float64))), ref, out=_float_of_x, axis=-1),
        # NaN, as numpy's median and nanquantile (its quantile raises an IndexError)
        C(op, "size0", (normal(0, 3), q(0.5)), _literal([NAN] * 3), out=FLOAT, axis=0),
    ]


def _median_cases(op, ignore_nan):
    ref = _on_floats(getattr(np, op))
    gen = with_nans(distinct(2, 3, 4)) if ignore_nan else distinct(2, 3, 4)
    return [
        *_axes_family(op, gen, out=FLOAT, ref=ref),
        C(op, "even", (distinct(3, 6),), ref, out=FLOAT, grad=(0,), axis=1),
        C(op, "int", (ints(3, 4),), ref, dtypes=INTS + ("bool",), out=FLOAT, axis=1),
        C(op, "half", (normal(3, 5),), ref, dtypes=HALF, out=FLOAT, axis=-1),
        C(op, "size0", (normal(0, 3),), ref, out=FLOAT, axis=0),
    ]


_ORDER = [
    *_quantile_cases("quantile", 1, False),
    *_quantile_cases("percentile", 100, False),
    *_quantile_cases("nanquantile", 1, True),
    *_quantile_cases("nanpercentile", 100, True),
    *_median_cases("median", False),
    *_median_cases("nanmedian", True),
    # a NaN makes the slice's median and quantiles NaN
    C("median", "nan", (ALL_NAN_ROW,), out=FLOAT, dtypes=F32_64, axis=1),
    C("quantile", "nan", (ALL_NAN_ROW, [0.0, 0.5]), out=FLOAT, axis=0),
    # the quantile of an empty slice (all NaN) is NaN; the others use the numbers they have
    C("nanmedian", "all-nan-row", (ALL_NAN_ROW,), _quiet(np.nanmedian), dtypes=F32_64, out=FLOAT, axis=1),
    C(
        "nanquantile",
        "all-nan-row",
        (ALL_NAN_ROW, [0.2, 1.0]),
        _quiet(np.nanquantile),
        out=FLOAT,
        axis=1,
        method="midpoint",
    ),
    # on an entry, that entry; between a number and inf, inf (numpy: NaN for every level but the first)
    C("quantile", "inf", (const([2.0, INF, 1.0]), [0.0, 0.5, 0.75, 1.0]), _literal([1.0, 2.0, INF, INF]), out=FLOAT),
    C(
        "nanquantile",
        "inf",
        (const([NAN, 2.0, INF, 1.0]), [0.0, 0.5, 0.75, 1.0]),
        _literal([1.0, 2.0, INF, INF]),
        out=FLOAT,
    ),
    C(
        "median",
        "infinities",
        (const([[-INF, INF], [1.0, INF], [-INF, -INF]]),),
        _literal([NAN, INF, -INF]),
        out=FLOAT,
        axis=1,
    ),
    # a tensor q outside [0, 1] (which cannot be checked up front) gives NaN
    C(
        "quantile",
        "tensor-q-out-of-range",
        (const([3.0, 1.0, 2.0, 0.0, 4.0]), fixed(np.array([-0.5, 0.5, 1.5], np.float32))),
        _literal([NAN, 2.0, NAN]),
        out=_float_of_x,
    ),
]


# ``average(x, axis, weights)``: the weights are a positional argument, so that they can be differentiated
_AVERAGE = [
    C("average", "all", (normal(3, 4),), np.average, dtypes=F32_64, out=FLOAT, grad=(0,)),
    C("average", "axis-tuple", (normal(2, 3, 4), (0, 2)), np.average, out=FLOAT, grad=(0,)),
    C(
        "average",
        "weights-1d",
        (normal(3, 4), 1, uniform(4, low=0.5, high=2.0)),
        np.average,
        dtypes=F32_64,
        out=FLOAT,
        grad=(0, 2),
    ),
    C(
        "average",
        "weights-1d-neg-axis",
        (normal(2, 3, 4), -2, uniform(3, low=0.5, high=2.0)),
        np.average,
        out=FLOAT,
        grad=(0, 2),
    ),
    C(
        "average",
        "weights-same-shape",
        (normal(2, 3), 0, uniform(2, 3, low=0.5, high=2.0)),
        np.average,
        out=FLOAT,
        grad=(0, 2),
    ),
    C(
        "average",
        "weights-all",
        (normal(2, 3), None, uniform(2, 3, low=0.5, high=2.0)),
        np.average,
        out=FLOAT,
        grad=(0, 2),
    ),
    C("average", "int", (ints(3, 4), 1, ints(4, low=1, high=4)), np.average, dtypes=INTS, out=FLOAT),
    C(
        "average",
        "promote",
        (normal(3, 4), None, uniform(3, 4, low=0.5, high=2.0)),
        np.average,
        out=FLOAT,
        dtypes=(("float32", "float64"), ("int32", "float16")),
    ),
]


def _window(length):
    return [
        C(op, f"m{length}", (length,), dtypes=N, out="float32") for op in ("bartlett", "blackman", "hamming", "hanning")
    ]


_WINDOWS = [
    *[row for length in (0, 1, 2, 7, 16) for row in _window(length)],
    C("hamming", "negative-length", (-3,), dtypes=N, out="float32"),
    *[
        C("kaiser", f"m{length}-beta{beta:g}", (length, beta), dtypes=N, out="float32")
        for length, beta in (
            (0, 3.0),
            (1, 3.0),
            (2, 5.0),
            (5, 14.0),
            (16, 8.6),
            (6, 0.0),
            (9, 40.0),
            (4, 200.0),
            (7, -3.0),
        )
    ],
]

CASES = [*_REDUCTIONS, *_ARGS, *_CUMULATIVE, *_ORDER, *_AVERAGE, *_WINDOWS]
