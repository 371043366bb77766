"""Conformance cases: reductions (sum, mean, max, var, logsumexp, argmax, cumsum, ...).

Axes: None, int, negative int, tuple; keepdims; size-0 inputs; integer and bool inputs; NaN propagation;
logsumexp finite for inputs of +-1e4.
"""

import warnings

import numpy as np

from .harness import BOOL, F32_64, FLOAT, INT32, INTS, SUM, C, const, distinct, ints, normal, uniform

NAN = float("nan")


def _quiet(fn):
    """numpy warns on empty means ("Mean of empty slice"); the value (nan) is what we compare."""

    def ref(*args, **kwargs):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            return fn(*args, **kwargs)

    ref.__name__ = fn.__name__
    return ref


def _logsumexp(x, axis=None, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def _argmax(x, axis=None, keepdims=False):
    return np.argmax(x, axis=axis, keepdims=keepdims).astype(np.int32)


def _argmin(x, axis=None, keepdims=False):
    return np.argmin(x, axis=axis, keepdims=keepdims).astype(np.int32)


def _axes_family(op, gen, grad, dtypes=F32_64, out=None, ref=None):
    """The standard axis variants of a reduction: None, int, negative, tuple, keepdims."""
    kw = {} if out is None else {"out": out}
    return [
        C(op, "all", (gen,), ref, dtypes=dtypes, grad=grad, **kw),
        C(op, "axis0", (gen,), ref, grad=grad, axis=0, **kw),
        C(op, "axis-neg", (gen,), ref, grad=grad, axis=-1, **kw),
        C(op, "axis-tuple", (gen,), ref, grad=grad, axis=(0, 2), **kw),
        C(op, "axis-tuple-neg", (gen,), ref, grad=grad, axis=(-1, -2), **kw),
        C(op, "keepdims", (gen,), ref, grad=grad, axis=1, keepdims=True, **kw),
        C(op, "keepdims-all", (gen,), ref, grad=grad, axis=None, keepdims=True, **kw),
    ]


X = normal(2, 3, 4)

CASES = [
    *_axes_family("sum", X, (0,)),
    C("sum", "int", (ints(3, 4),), dtypes=INTS, out=SUM, axis=1),
    C("sum", "small-int", (ints(3, 4, low=0, high=5),), dtypes=("int8", "uint8"), out=SUM, axis=0),
    C("sum", "bool", (ints(3, 4, low=0, high=2),), dtypes=("bool",), out=SUM, axis=-1),
    C("sum", "size0", (normal(0, 3),), grad=(0,), axis=0),
    C("sum", "size0-all", (normal(2, 0),)),
    C("sum", "nan", (const([[1.0, NAN], [2.0, 3.0]]),), axis=1),
    C("sum", "half", (normal(3, 4),), dtypes=("float16", "bfloat16"), axis=-1),
    *_axes_family("mean", X, (0,), out=FLOAT),
    C("mean", "int", (ints(3, 4),), _quiet(np.mean), dtypes=INTS, out=FLOAT, axis=0),
    C("mean", "size0", (normal(0, 3),), _quiet(np.mean), axis=0),
    C("mean", "half", (normal(3, 4),), dtypes=("float16", "bfloat16"), axis=-1),
    *_axes_family("max", distinct(2, 3, 4), (0,)),
    C("max", "int", (ints(3, 4),), dtypes=INTS + ("uint8", "int8"), axis=1),
    C("max", "nan", (const([[1.0, NAN, 3.0], [2.0, 5.0, 4.0]]),), axis=1),
    C("max", "nan-all", (const([1.0, NAN, 3.0]),)),
    *_axes_family("min", distinct(2, 3, 4), (0,)),
    C("min", "int", (ints(3, 4),), dtypes=INTS, axis=-1),
    C("min", "nan", (const([[1.0, NAN, 3.0], [2.0, 5.0, 4.0]]),), axis=-1),
    *_axes_family("prod", uniform(2, 3, 4, low=0.5, high=1.5), (0,)),
    C("prod", "int", (ints(3, 4, low=-3, high=4),), dtypes=INTS, out=SUM, axis=1),
    C("prod", "size0", (normal(0, 3),), axis=0),
    *_axes_family("var", X, (0,), out=FLOAT),
    C("var", "int", (ints(3, 4),), dtypes=INTS, out=FLOAT, axis=0),
    *_axes_family("std", X, (0,), out=FLOAT),
    C("std", "int", (ints(3, 4),), dtypes=("int32",), out=FLOAT, axis=-1),
    *[
        row
        for op in ("any", "all")
        for row in (
            C(op, "all", (ints(3, 4, low=0, high=2),), dtypes=("bool", "float32", "int32"), out=BOOL),
            C(op, "axis", (ints(3, 4, low=0, high=2),), dtypes=("bool",), out=BOOL, axis=0),
            C(
                op,
                "axis-neg-keepdims",
                (ints(2, 3, 4, low=0, high=2),),
                dtypes=("bool",),
                out=BOOL,
                axis=-1,
                keepdims=True,
            ),
            C(op, "axis-tuple", (ints(2, 3, 4, low=0, high=2),), dtypes=("bool",), out=BOOL, axis=(0, 2)),
            C(op, "size0", (ints(0, 3, low=0, high=2),), dtypes=("bool",), out=BOOL, axis=0),
        )
    ],
    *_axes_family("logsumexp", X, (0,), ref=_logsumexp),
    C(
        "logsumexp",
        "large",
        (const([[1e4, -1e4, 0.0], [-1e4, -1e4, -1e4], [1e4, 1e4, 1e4]]),),
        _logsumexp,
        dtypes=F32_64,
        finite=True,
        axis=-1,
    ),
    C("logsumexp", "large-grad", (normal(3, 4, scale=1e3),), _logsumexp, finite=True, grad=(0,), axis=-1),
    C("logsumexp", "int", (ints(3, 4),), _logsumexp, dtypes=("int32",), out=FLOAT, axis=-1),
    *[
        row
        for op, ref in (("argmax", _argmax), ("argmin", _argmin))
        for row in (
            C(op, "all", (distinct(3, 4),), ref, dtypes=F32_64, out=INT32),
            C(op, "axis0", (distinct(3, 4),), ref, out=INT32, axis=0),
            C(op, "axis-neg", (distinct(2, 3, 4),), ref, out=INT32, axis=-1),
            C(op, "keepdims", (distinct(2, 3, 4),), ref, out=INT32, axis=1, keepdims=True),
            C(op, "int", (ints(3, 4, low=0, high=3),), ref, dtypes=INTS, out=INT32, axis=1),  # ties: first index
            C(op, "ties", (const([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 0.0, 0.0]]),), ref, out=INT32, axis=-1),
        )
    ],
    C("cumsum", "flat", (normal(3, 4),), dtypes=F32_64, grad=(0,)),
    C("cumsum", "axis-neg", (normal(2, 3, 4),), grad=(0,), axis=-1),
    C("cumsum", "axis0", (normal(2, 3, 4),), grad=(0,), axis=0),
    C("cumsum", "int", (ints(3, 4),), dtypes=INTS, out=SUM, axis=1),
    C("cumsum", "bool", (ints(3, 4, low=0, high=2),), dtypes=("bool",), out=SUM, axis=1),
    C("cumprod", "flat", (uniform(3, 4, low=0.5, high=1.5),), dtypes=F32_64, grad=(0,)),
    C("cumprod", "axis-neg", (uniform(2, 3, 4, low=0.5, high=1.5),), grad=(0,), axis=-1),
    C("cumprod", "int", (ints(3, 4, low=-2, high=3),), dtypes=INTS, out=SUM, axis=0),
]
