"""Conformance cases: elementwise unary and binary ops, comparisons and logical ops.

One line per case; see :func:`harness.C`. Inputs of differentiable cases keep a margin from kinks and
discontinuities so that finite differences are meaningful.
"""

import math

import numpy as np

from .harness import BOOL, F32_64, FLOAT, FLOATS, INTS, C, const, fixed, ints, normal, positive, uniform

NAN, INF = float("nan"), float("inf")
_erf = np.vectorize(math.erf, otypes=[np.float64])


def _rsqrt(x):
    return 1.0 / np.sqrt(x)


def _nan_to_num_f32(x, **kw):
    # numpy's defaults depend on the input dtype: the float32 limits, not float64's
    return np.nan_to_num(x.astype(np.float32), **kw).astype(np.float64)


UNARY = [
    C("negative", "basic", (normal(3, 4),), dtypes=F32_64, grad=(0,)),
    C("negative", "int", (ints(3, 4),), dtypes=INTS),
    C("negative", "half", (normal(3, 4),), dtypes=("float16", "bfloat16")),
    C("abs", "basic", (normal(3, 4, away=[0.0]),), dtypes=F32_64, grad=(0,)),
    C("abs", "int", (ints(3, 4),), dtypes=INTS + ("int8",)),
    C("abs", "size0", (normal(0, 3),)),
    C("sign", "basic", (const([-2.0, -0.5, 0.0, 0.5, 3.0]),), dtypes=F32_64),
    C("sign", "grad", (normal(3, 4, away=[0.0]),), grad=(0,)),
    C("sign", "int", (ints(3, 4),), dtypes=INTS),
    C("sqrt", "basic", (positive(3, 4),), dtypes=F32_64 + ("float16", "bfloat16"), grad=(0,)),
    C("sqrt", "int", (ints(3, 4, low=0, high=9),), dtypes=INTS + ("uint8",), out=FLOAT),
    C("square", "basic", (normal(3, 4),), dtypes=F32_64, grad=(0,)),
    C("square", "int", (ints(3, 4),), dtypes=INTS),
    C("exp", "basic", (normal(3, 4),), dtypes=FLOATS, grad=(0,)),
    C("exp", "int", (ints(3, 4),), dtypes=INTS, out=FLOAT),
    C("expm1", "basic", (normal(3, 4),), dtypes=F32_64, grad=(0,)),
    C("expm1", "tiny", (uniform(8, low=-1e-6, high=1e-6),), dtypes=F32_64),
    C("log", "basic", (positive(3, 4),), dtypes=FLOATS, grad=(0,)),
    C("log", "int", (ints(3, 4, low=1, high=9),), dtypes=INTS, out=FLOAT),
    C("log1p", "basic", (uniform(3, 4, low=-0.5, high=2.0),), dtypes=F32_64, grad=(0,)),
    C("log1p", "tiny", (uniform(8, low=-1e-6, high=1e-6),), dtypes=F32_64),
    C("log2", "basic", (positive(3, 4),), dtypes=F32_64, grad=(0,)),
    C("log10", "basic", (positive(3, 4),), dtypes=F32_64, grad=(0,)),
    C("sin", "basic", (normal(3, 4, scale=2),), dtypes=F32_64, grad=(0,)),
    C("sin", "int", (ints(3, 4),), dtypes=("int32",), out=FLOAT),
    C("cos", "basic", (normal(3, 4, scale=2),), dtypes=F32_64, grad=(0,)),
    C("tan", "basic", (uniform(3, 4, low=-1.2, high=1.2),), dtypes=F32_64, grad=(0,)),
    C("arcsin", "basic", (uniform(3, 4, low=-0.9, high=0.9),), dtypes=F32_64, grad=(0,)),
    C("arccos", "basic", (uniform(3, 4, low=-0.9, high=0.9),), dtypes=F32_64, grad=(0,)),
    C("arctan", "basic", (normal(3, 4, scale=2),), dtypes=F32_64, grad=(0,)),
    C("sinh", "basic", (normal(3, 4),), dtypes=F32_64, grad=(0,)),
    C("cosh", "basic", (normal(3, 4),), dtypes=F32_64, grad=(0,)),
    C("tanh", "basic", (normal(3, 4, scale=2),), dtypes=FLOATS, grad=(0,)),
    C("tanh", "int", (ints(3, 4),), dtypes=("int32",), out=FLOAT),
    C("arcsinh", "basic", (normal(3, 4, scale=2),), dtypes=F32_64, grad=(0,)),
    C("arccosh", "basic", (uniform(3, 4, low=1.2, high=4.0),), dtypes=F32_64, grad=(0,)),
    C("arctanh", "basic", (uniform(3, 4, low=-0.9, high=0.9),), dtypes=F32_64, grad=(0,)),
    C("floor", "basic", (normal(3, 4, scale=3),), dtypes=F32_64, grad=(0,)),
    C("ceil", "basic", (normal(3, 4, scale=3),), dtypes=F32_64, grad=(0,)),
    C("reciprocal", "basic", (normal(3, 4, away=[0.0], margin=0.3),), dtypes=F32_64, grad=(0,)),
    C("rsqrt", "basic", (positive(3, 4),), _rsqrt, dtypes=F32_64, grad=(0,)),
    C("erf", "basic", (normal(3, 4),), _erf, dtypes=F32_64, grad=(0,)),
    C("erf", "int", (ints(3, 4, low=-2, high=3),), _erf, dtypes=("int32",), out=FLOAT),
    C("isnan", "special", (const([1.0, NAN, INF, -INF, 0.0]),), dtypes=F32_64, out=BOOL),
    C("isnan", "int", (ints(5),), dtypes=("int32",), out=BOOL),
    C("isinf", "special", (const([1.0, NAN, INF, -INF, 0.0]),), dtypes=F32_64, out=BOOL),
    C("isfinite", "special", (const([1.0, NAN, INF, -INF, 0.0]),), dtypes=F32_64, out=BOOL),
    C("isfinite", "int", (ints(5),), dtypes=("int32",), out=BOOL),
    C("logical_not", "basic", (ints(3, 4, low=0, high=2),), dtypes=("bool", "float32", "int32"), out=BOOL),
    C("round", "half-even", (const([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1.2, -3.7]),), dtypes=F32_64),
    C("round", "decimals", (const([0.123, 1.987, -2.345, 10.01]),), dtypes=F32_64, decimals=1),
    C("round", "grad", (normal(3, 4, scale=3),), grad=(0,)),
    C("clip", "basic", (normal(3, 4, away=[-0.5, 0.5], margin=0.05), -0.5, 0.5), dtypes=F32_64, grad=(0,)),
    C("clip", "int", (ints(3, 4), -2, 3), dtypes=INTS),
    C("clip", "half", (normal(3, 4), -0.5, 0.5), dtypes=("float16", "bfloat16")),
    C("nan_to_num", "defaults", (const([NAN, INF, -INF, 1.5]),), _nan_to_num_f32),
    C("nan_to_num", "values", (const([NAN, INF, -INF, 1.5]),), dtypes=F32_64, nan=-1.0, posinf=100.0, neginf=-100.0),
    C("nan_to_num", "grad", (normal(3, 4),), grad=(0,)),
]

BINARY = [
    # the four arithmetic ops share the same broadcasting and promotion cases
    *[
        row
        for op in ("add", "subtract", "multiply")
        for row in (
            C(op, "basic", (normal(3, 4), normal(3, 4)), dtypes=F32_64, grad=(0, 1)),
            C(op, "broadcast", (normal(3, 1, 4), normal(5, 4)), dtypes=F32_64, grad=(0, 1)),
            C(op, "broadcast-scalar-tensor", (normal(3, 4), normal()), grad=(0, 1)),
            C(op, "size0", (normal(0, 4), normal(4)), grad=(0, 1)),
            C(op, "int", (ints(3, 4), ints(4)), dtypes=INTS + ("int8", "int16")),
            C(op, "uint8", (ints(3, 4, low=5, high=10), ints(4, low=0, high=5)), dtypes=("uint8",)),
            C(op, "half", (normal(3, 4), normal(3, 4)), dtypes=("float16", "bfloat16")),
            C(
                op,
                "mixed",
                (ints(3, 4, low=0), normal(3, 4)),
                dtypes=(
                    ("int32", "float32"),
                    ("int64", "float16"),
                    ("float32", "float64"),
                    ("uint8", "int8"),
                    ("int32", "int64"),
                ),
            ),
            C(op, "weak-float", (normal(3, 4), 2.0), dtypes=("float32", "float16", "bfloat16"), grad=(0,)),
            C(op, "weak-float-int", (ints(3, 4, low=0), 2.5), dtypes=("int32", "int8", "uint8"), out=FLOAT),
            C(op, "weak-int", (ints(3, 4, low=0, high=5), 3), dtypes=("int8", "uint8", "int32", "float32")),
            C(op, "weak-left", (2.0, normal(3, 4)), grad=(1,)),
            C(op, "strong-np-float64", (normal(3, 4), fixed(np.float64(2.0)))),
        )
    ],
    C("add", "bool", (ints(3, 4, low=0, high=2), ints(3, 4, low=0, high=2)), dtypes=("bool",)),
    C("multiply", "nan", (const([1.0, NAN, 2.0]), const([NAN, 1.0, 3.0]))),
    C("divide", "basic", (normal(3, 4), normal(3, 4, away=[0.0], margin=0.3)), dtypes=F32_64, grad=(0, 1)),
    C("divide", "broadcast", (normal(3, 1, 4), normal(5, 4, away=[0.0], margin=0.3)), grad=(0, 1)),
    C("divide", "int", (ints(3, 4), ints(3, 4, low=1, high=5)), dtypes=INTS, out=FLOAT),
    C("divide", "weak-int", (ints(3, 4), 2), dtypes=("int32",), out=FLOAT),
    C("divide", "half", (normal(3, 4), normal(3, 4, away=[0.0], margin=0.3)), dtypes=("float16", "bfloat16")),
    C("floor_divide", "float", (normal(3, 4, scale=3), normal(3, 4, away=[0.0], margin=0.3)), dtypes=F32_64),
    C("floor_divide", "int-signs", (ints(4, 5, low=-9, high=10), const([[3, -3, 2, -2, 7]] * 4)), dtypes=INTS),
    C("mod", "float", (normal(3, 4, scale=3), normal(3, 4, away=[0.0], margin=0.3)), dtypes=F32_64, grad=(0, 1)),
    C("mod", "int-signs", (ints(4, 5, low=-9, high=10), const([[3, -3, 2, -2, 7]] * 4)), dtypes=INTS),
    C("power", "basic", (positive(3, 4), normal(3, 4)), dtypes=F32_64, grad=(0, 1)),
    C("power", "int", (ints(3, 4, low=0, high=5), ints(3, 4, low=0, high=4)), dtypes=INTS),
    C("power", "weak-int-exponent", (normal(3, 4), 3), grad=(0,)),
    C("power", "weak-float-exponent", (positive(3, 4), 0.5), dtypes=("float32", "float16"), grad=(0,)),
    C("arctan2", "basic", (normal(3, 4), normal(3, 4)), dtypes=F32_64, grad=(0, 1)),
    C("arctan2", "int", (ints(3, 4), ints(3, 4, low=1, high=5)), dtypes=("int32",), out=FLOAT),
    *[
        row
        for op in ("maximum", "minimum")
        for row in (
            C(op, "basic", (normal(3, 4), normal(3, 4)), dtypes=F32_64, grad=(0, 1)),
            C(op, "broadcast", (normal(3, 1, 4), normal(5, 4)), grad=(0, 1)),
            C(op, "weak", (normal(3, 4, away=[0.0]), 0.0), grad=(0,)),
            C(op, "int", (ints(3, 4), ints(3, 4)), dtypes=INTS + ("uint8",)),
            C(op, "mixed", (ints(3, 4, low=0), normal(3, 4)), dtypes=(("int32", "float32"),)),
            C(op, "nan", (const([1.0, NAN, 3.0, NAN]), const([NAN, 2.0, 1.0, NAN])), dtypes=F32_64),
        )
    ],
    C("logaddexp", "basic", (normal(3, 4), normal(3, 4)), dtypes=F32_64, grad=(0, 1)),
    C("logaddexp", "large", (const([1e4, -1e4, 1e4, -1e4]), const([1e4, -1e4, -1e4, 0.0])), finite=True),
    C("logaddexp", "int", (ints(3, 4), ints(3, 4)), dtypes=("int32",), out=FLOAT),
]

COMPARISON = [
    row
    for op in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")
    for row in (
        C(op, "basic", (ints(3, 4, low=-2, high=3), ints(3, 4, low=-2, high=3)), dtypes=F32_64 + INTS, out=BOOL),
        C(op, "broadcast", (ints(3, 1, 4, low=-2, high=3), ints(5, 4, low=-2, high=3)), out=BOOL),
        C(op, "weak", (ints(3, 4, low=0, high=3), 1), dtypes=("float32", "int32", "uint8"), out=BOOL),
        C(
            op,
            "mixed",
            (ints(3, 4, low=-2, high=3), ints(3, 4, low=-2, high=3)),
            dtypes=(("int32", "float32"),),
            out=BOOL,
        ),
        C(op, "nan", (const([1.0, NAN, NAN]), const([NAN, 1.0, NAN])), out=BOOL),
    )
]

LOGICAL = [
    row
    for op in ("logical_and", "logical_or", "logical_xor")
    for row in (
        C(op, "basic", (ints(3, 4, low=0, high=2), ints(3, 4, low=0, high=2)), dtypes=("bool",), out=BOOL),
        C(op, "broadcast", (ints(3, 1, 4, low=0, high=2), ints(5, 4, low=0, high=2)), dtypes=("bool",), out=BOOL),
        C(
            op,
            "numbers",
            (ints(3, 4, low=-1, high=2), ints(3, 4, low=-1, high=2)),
            dtypes=("float32", "int32"),
            out=BOOL,
        ),
    )
]

CASES = UNARY + BINARY + COMPARISON + LOGICAL
