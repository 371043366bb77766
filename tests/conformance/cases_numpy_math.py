"""Conformance cases: the elementwise, bitwise and special-function ops of ``contract/numpy_math.py`` (and the
``initial``/``dtype``/``retstep``/``axis`` arguments of ``max``, ``min``, ``prod`` and ``linspace``).

One line per case; see :func:`harness.C`. Each runs on every engine through ``hl.ops`` against a float64 numpy (or
scipy) reference. Where Keras's own backends disagree, the line says which answer is taken and why: the
mathematically defined one, which is numpy's.
"""

import numpy as np
import scipy.special

from .harness import BOOL, F32, F32_64, FLOAT, INTS, NONE, C, const, distinct, fixed, fixed_dtype, ints, normal, uniform

try:
    import ml_dtypes
except ImportError:  # pragma: no cover - jax and tensorflow bring it
    ml_dtypes = None

NAN, INF = float("nan"), float("inf")
N = (NONE,)
SIGNED = INTS + ("int8", "int16")
UNSIGNED = ("uint8", "uint16", "uint32")


def _nextafter_in(dtype):
    """numpy's nextafter computed in ``dtype`` (the harness hands the reference float64 values): a float32 step
    is a float32 ulp."""

    def ref(x1, x2):
        dt = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
        return np.nextafter(np.asarray(x1).astype(dt), np.asarray(x2).astype(dt)).astype(np.float64)

    ref.__name__ = f"nextafter_{dtype}"
    return ref


def _view_from(source):
    """numpy's view of the values in their run dtype ``source`` (the harness hands the reference float64 values)."""

    def ref(x, dtype=None):
        dt = ml_dtypes.bfloat16 if source == "bfloat16" else np.dtype(source)
        x = np.array(np.asarray(x).astype(dt), order="C")
        if dtype == "bool":
            return x.view(np.uint8) != 0
        return x.view(dtype or x.dtype)

    ref.__name__ = f"view_from_{source}"
    return ref


def _saturate_cast(x, dtype):
    """The float64 reference of saturate_cast: clamp to ``dtype``'s range, NaN to 0 for integer and bool targets,
    then cast (a float to int cast truncates toward zero, as every engine's)."""
    x = np.asarray(x, np.float64) if np.asarray(x).dtype.kind == "f" else np.asarray(x)
    if dtype == "bool":
        return np.where(np.isnan(x), 0.0, np.clip(x, 0, 1)) != 0
    if np.dtype(dtype).kind == "f":
        top = float(np.finfo(dtype).max)
        return np.clip(x, -top, top).astype(dtype)
    info = np.iinfo(dtype)
    if x.dtype.kind != "f":
        return np.clip(x, info.min, info.max).astype(dtype)
    # the extremes as integers: float64 cannot hold 2**63 - 1, and casting 2**63 to int64 overflows
    above, below = x >= float(info.max), x <= float(info.min)
    inside = np.where(above | below | np.isnan(x), 0.0, x).astype(dtype)
    return np.where(above, np.asarray(info.max, dtype), np.where(below, np.asarray(info.min, dtype), inside))


def _i0(x):
    # I0 grows like e^|x| / sqrt(2 pi |x|): +inf at both infinities (numpy's and scipy's i0 give NaN there)
    x = np.asarray(x, np.float64)
    return np.where(np.isinf(x), np.inf, scipy.special.i0(np.where(np.isinf(x), 0.0, x)))


def _identity(x, dtype=None):
    return np.asarray(x)


def _zeros(shape, dtype=None):
    return np.zeros(shape)


def _zeros_like(x, dtype=None):
    return np.zeros_like(x, dtype=np.float64)


def _eye(n, dtype=None):
    return np.eye(n)


def _get_item(x, key):
    return np.asarray(x)[key]


# consecutive Fibonacci numbers: the pairs on which Euclid's algorithm takes the most steps for their size
_FIB = [0, 1]
while len(_FIB) < 93:
    _FIB.append(_FIB[-1] + _FIB[-2])

COMPARISONS = [
    C(
        "isclose",
        "basic",
        (const([1.0, 1.0, 2.0, -3.0, 0.0, 1e-9]), const([1.0, 1.001, 2.0000002, -3.00001, 1e-9, 0.0])),
        dtypes=F32_64,
        out=BOOL,
    ),
    C(
        "isclose",
        "tolerances",
        (const([1.0, 10.0, 100.0, -5.0]), const([1.1, 11.0, 112.0, -4.0])),
        dtypes=F32_64,
        out=BOOL,
        rtol=0.1,
        atol=0.05,
    ),
    C(
        "isclose",
        "special",
        (const([INF, INF, -INF, NAN, NAN, 1.0]), const([INF, -INF, -INF, NAN, 1.0, INF])),
        dtypes=F32_64,
        out=BOOL,
    ),
    C("isclose", "equal-nan", (const([INF, NAN, NAN, 1.0]), const([INF, NAN, 1.0, NAN])), out=BOOL, equal_nan=True),
    C("isclose", "broadcast", (ints(3, 1, 4, low=-3, high=4), ints(5, 4, low=-3, high=4)), out=BOOL, atol=1.5),
    # integers compare by the same formula (in float64), as numpy (and Keras's JAX and numpy backends) do; Keras's
    # torch and TensorFlow backends compare them exactly, ignoring atol/rtol
    C("isclose", "int", (ints(3, 4, low=-3, high=4), ints(3, 4, low=-3, high=4)), dtypes=INTS, out=BOOL, atol=1.5),
    C("isclose", "bool", (ints(6, low=0, high=2), ints(6, low=0, high=2)), dtypes=("bool",), out=BOOL),
    C("isclose", "weak", (ints(3, 4, low=0, high=4), 2), dtypes=("int32", "float32"), out=BOOL),
    C("isclose", "size0", (normal(0, 3), normal(0, 3)), out=BOOL),
    C("allclose", "true", (const([1.0, 2.0, -3.0]), const([1.0, 2.00001, -3.0])), dtypes=F32_64, out=BOOL),
    C("allclose", "false", (const([1.0, 2.0, -3.0]), const([1.0, 2.1, -3.0])), dtypes=F32_64, out=BOOL),
    C("allclose", "nan", (const([1.0, NAN]), const([1.0, NAN])), out=BOOL),
    C("allclose", "equal-nan", (const([1.0, NAN]), const([1.0, NAN])), out=BOOL, equal_nan=True),
    C("allclose", "int", (ints(3, 4), ints(3, 4)), dtypes=("int32",), out=BOOL, atol=10),
    C("isneginf", "special", (const([-INF, INF, NAN, 0.0, -1.0]),), dtypes=F32_64 + ("float16",), out=BOOL),
    C("isneginf", "int", (ints(5),), dtypes=INTS, out=BOOL),
    C("isposinf", "special", (const([-INF, INF, NAN, 0.0, 1.0]),), dtypes=F32_64 + ("float16",), out=BOOL),
    C("isposinf", "int", (ints(5),), dtypes=INTS, out=BOOL),
    C("isreal", "basic", (normal(3, 4),), dtypes=F32_64 + INTS, out=BOOL),
    C("isreal", "bool", (ints(4, low=0, high=2),), dtypes=("bool",), out=BOOL),
    C(
        "signbit",
        "special",
        (const([-1.0, -0.0, 0.0, 2.0, -INF, INF, NAN, -NAN]),),
        dtypes=F32_64 + ("float16",),
        out=BOOL,
    ),
    # (a NaN's sign does not survive every engine's cast to bfloat16, which makes these inputs: none here)
    C("signbit", "bf16", (const([-1.0, -0.0, 0.0, 2.0, -INF, INF, -3e-5]),), dtypes=("bfloat16",), out=BOOL),
    C("signbit", "int", (ints(3, 4),), dtypes=SIGNED, out=BOOL),
    C("signbit", "unsigned", (ints(5, low=0, high=200),), dtypes=("uint8",), out=BOOL),
    C("signbit", "bool", (ints(4, low=0, high=2),), dtypes=("bool",), out=BOOL),
]

UNARY = [
    C("cbrt", "basic", (normal(3, 4, scale=3, away=[0.0], margin=0.1),), dtypes=F32_64, grad=(0,)),
    C("cbrt", "exact", (const([-8.0, 27.0, 0.0, 64.0, -1000.0, INF, -INF, NAN]),), dtypes=F32_64),
    C("cbrt", "range", (const([1e30, -1e-30, 3.3e38, -3.3e38, 1.2e-38]),), dtypes=F32_64),
    C("cbrt", "int", (ints(3, 4, low=-30, high=30),), dtypes=INTS, out=FLOAT),
    C("cbrt", "bool", (ints(4, low=0, high=2),), dtypes=("bool",), out=FLOAT),
    C("cbrt", "size0", (normal(0, 3),)),
    C("fabs", "basic", (normal(3, 4, away=[0.0]),), dtypes=F32_64 + ("float16",), grad=(0,)),
    C("fabs", "int", (ints(3, 4),), dtypes=INTS + ("int8",), out=FLOAT),
    C("fabs", "uint8", (ints(3, 4, low=0, high=200),), dtypes=("uint8",), out=FLOAT),
    C("fabs", "bool", (ints(4, low=0, high=2),), dtypes=("bool",), out=FLOAT),
    C("trunc", "basic", (normal(3, 4, scale=3),), dtypes=F32_64, grad=(0,)),
    C("trunc", "special", (const([-1.7, -0.5, -0.0, 0.2, 1.5, 2.0, INF, -INF, NAN]),), dtypes=F32_64 + ("float16",)),
    C("trunc", "int", (ints(3, 4),), dtypes=SIGNED),
    C("trunc", "bool", (ints(4, low=0, high=2),), dtypes=("bool",)),
    C("sinc", "basic", (normal(3, 4, scale=2),), dtypes=F32_64, grad=(0,)),
    C("sinc", "zero", (const([0.0, -0.0, 1e-20, -1e-8, 0.5, 1.0, -2.5]),), dtypes=F32_64),
    C("sinc", "near-zero", (uniform(3, 4, low=-0.1, high=0.1),), grad=(0,)),
    C("sinc", "int", (ints(3, 4),), dtypes=INTS, out=FLOAT),
    C("i0", "basic", (normal(3, 4, scale=3),), _i0, dtypes=F32_64, grad=(0,)),
    # both sides of the switch from the power series to the asymptotic expansion at |x| = 20
    C("i0", "wide", (uniform(40, low=-30.0, high=30.0),), _i0, dtypes=F32_64),
    # (entries of one size per case: the finite differences of a loss of 1e10 would drown gradients of 1)
    C("i0", "switch-grad", (uniform(4, low=17.0, high=26.0),), _i0, grad=(0,)),
    C("i0", "switch-grad-neg", (uniform(4, low=-26.0, high=-17.0),), _i0, grad=(0,)),
    C("i0", "large", (const([50.0, 80.0, -85.0, 120.0]),), _i0),
    C("i0", "large-f64", (const([50.0, 200.0, -700.0]),), _i0, dtypes=("float64",)),
    C("i0", "special", (const([0.0, INF, -INF, NAN]),), _i0, dtypes=F32_64),
    C("i0", "int", (ints(3, 4),), _i0, dtypes=INTS, out=FLOAT),
    C("i0", "half", (uniform(3, 4, low=-5.0, high=5.0),), _i0, dtypes=("float16", "bfloat16")),
    C("erfc", "basic", (normal(3, 4, scale=2),), scipy.special.erfc, dtypes=F32_64, grad=(0,)),
    # the tail, where 1 - erf(x) would have lost every digit (erfc(9) = 4e-37 is still a normal float32)
    C("erfc", "tail", (const([3.0, 5.0, 8.0, 9.0, -1.0, -3.0, -6.0]),), scipy.special.erfc, dtypes=F32_64),
    C("erfc", "tail-f64", (const([10.0, 15.0, 26.0]),), scipy.special.erfc, dtypes=("float64",)),
    C("erfc", "special", (const([0.0, INF, -INF, NAN]),), scipy.special.erfc, dtypes=F32_64),
    C("erfc", "int", (ints(3, 4, low=-3, high=4),), scipy.special.erfc, dtypes=INTS, out=FLOAT),
    C("erfinv", "basic", (uniform(3, 4, low=-0.95, high=0.95),), scipy.special.erfinv, dtypes=F32_64, grad=(0,)),
    C(
        "erfinv",
        "tails",
        (const([0.999, -0.9999, 0.99999, 1.0, -1.0, 1.5, -2.0, NAN, 0.0, 1e-30]),),
        scipy.special.erfinv,
        dtypes=F32_64,
    ),
    C("erfinv", "tails-f64", (const([1 - 1e-12, -(1 - 1e-15), 1e-300]),), scipy.special.erfinv, dtypes=("float64",)),
    C("erfinv", "int", (ints(3, 4, low=-1, high=2),), scipy.special.erfinv, dtypes=INTS, out=FLOAT),
]

BINARY = [
    *[
        row
        for op in ("fmax", "fmin")
        for row in (
            C(op, "basic", (normal(3, 4), normal(3, 4)), dtypes=F32_64, grad=(0, 1)),
            C(op, "broadcast", (normal(3, 1, 4), normal(5, 4)), grad=(0, 1)),
            # NaN loses to a number (numpy's fmax/fmin; maximum/minimum propagate it instead)
            C(op, "nan", (const([1.0, NAN, NAN, 3.0, -INF]), const([2.0, 1.0, NAN, NAN, NAN])), dtypes=F32_64),
            C(op, "nan-grad", (const([1.0, NAN, -2.0, NAN]), const([NAN, 0.5, -1.0, 3.0])), grad=(0, 1)),
            C(op, "int", (ints(3, 4), ints(3, 4)), dtypes=INTS + ("int8",)),
            C(op, "uint8", (ints(3, 4, low=0, high=200), ints(3, 4, low=0, high=200)), dtypes=("uint8",)),
            C(op, "weak", (ints(3, 4, low=-3, high=4), 2), dtypes=("int32", "float32", "int8")),
            C(op, "mixed", (ints(3, 4), normal(3, 4)), dtypes=(("int32", "float32"), ("int8", "uint8"))),
        )
    ],
    C("fmod", "float", (normal(3, 4, scale=3), normal(3, 4, away=[0.0], margin=0.3)), dtypes=F32_64, grad=(0, 1)),
    C(
        "fmod",
        "signs",
        (const([-7.5, 7.5, -7.5, 7.5, -0.5, 0.0, 5.0]), const([2.0, -2.0, -2.0, 2.0, 3.0, 1.0, INF])),
        dtypes=F32_64,
    ),
    C("fmod", "float-zero", (const([1.0, -2.0, 0.0]), const([0.0, 0.0, 0.0])), dtypes=F32_64),
    C("fmod", "int-signs", (ints(4, 5, low=-9, high=10), const([[3, -3, 2, -2, 7]] * 4)), dtypes=SIGNED),
    # an integer divisor of 0 gives 0 (numpy, and Keras's JAX and numpy backends; its torch and TensorFlow
    # backends raise a division error)
    C("fmod", "int-zero", (const([5, -5, 0]), const([0, 0, 0])), dtypes=INTS),
    C("fmod", "uint8", (ints(3, 4, low=0, high=200), ints(3, 4, low=1, high=20)), dtypes=("uint8",)),
    C("fmod", "bool", (ints(6, low=0, high=2), const([1, 1, 1, 1, 1, 1])), dtypes=("bool",), out="int32"),
    C("fmod", "weak", (normal(3, 4, scale=3), 1.5), grad=(0,)),
    C("hypot", "basic", (normal(3, 4), normal(3, 4)), dtypes=F32_64, grad=(0, 1)),
    C("hypot", "broadcast", (normal(3, 1, 4), normal(5, 4)), grad=(0, 1)),
    C("hypot", "weak", (normal(3, 4), 2.0), grad=(0,)),
    # no overflow or underflow in the squares; an infinite leg wins over NaN (IEEE; Keras's TensorFlow backend
    # gives NaN)
    C(
        "hypot",
        "range",
        (const([3e30, 1e-30, 3e38, 0.0, INF, NAN, -INF, 1e-20]), const([4e30, 1e-30, 3e38, 0.0, NAN, INF, 2.0, 1e20])),
        dtypes=F32_64,
    ),
    C("hypot", "int", (ints(3, 4), ints(3, 4)), dtypes=INTS, out=FLOAT),
    C(
        "heaviside",
        "basic",
        (const([-2.0, -0.5, 0.0, 0.0, 1.5, NAN]), const([0.5, 0.5, 0.5, 2.0, 0.5, 0.5])),
        dtypes=F32_64,
    ),
    # NaN stays NaN (numpy; Keras's torch and TensorFlow backends return 0 or x2)
    C("heaviside", "weak", (normal(3, 4), 0.5)),
    C("heaviside", "grad", (ints(3, 4, low=-1, high=2), normal(3, 4)), grad=(1,)),
    C("heaviside", "int", (ints(3, 4, low=-1, high=2), ints(3, 4)), dtypes=INTS, out=FLOAT),
    C("heaviside", "broadcast", (ints(3, 1, 4, low=-1, high=2), normal(5, 4))),
    C("logaddexp2", "basic", (normal(3, 4, scale=3), normal(3, 4, scale=3)), dtypes=F32_64, grad=(0, 1)),
    C(
        "logaddexp2",
        "large",
        (const([1000.0, -1000.0, 1e4, -INF, INF, 1.0]), const([1000.0, -1000.0, -1e4, -INF, 1.0, 2.0])),
        dtypes=F32_64,
    ),
    C("logaddexp2", "broadcast", (normal(3, 1, 4), normal(5, 4)), grad=(0, 1)),
    C("logaddexp2", "int", (ints(3, 4), ints(3, 4)), dtypes=INTS, out=FLOAT),
    C(
        "ldexp",
        "basic",
        (normal(3, 4), fixed(np.arange(-6, 6, dtype=np.int32).reshape(3, 4))),
        dtypes=F32_64,
        grad=(0,),
        out=FLOAT,
    ),
    C(
        "ldexp",
        "exponent-dtypes",
        (normal(3, 4), ints(3, 4, low=-20, high=21)),
        dtypes=(
            ("float32", "int32"),
            ("float32", "int8"),
            ("float64", "int64"),
            ("float16", "int32"),
            ("bfloat16", "int16"),
        ),
        out=FLOAT,
    ),
    # every normal exponent of float32 is reached, overflow gives inf (subnormal results are left out: TensorFlow
    # and XLA flush them to 0)
    C(
        "ldexp",
        "range",
        (
            const([1.0, 1.5, -3.0, 0.0, INF, NAN, 1.0, 1024.0, 2.0**-100]),
            const([127, -126, 100, 500, -5, 3, 200, -130, 150]),
        ),
        dtypes=(("float32", "int32"),),
        out=FLOAT,
    ),
    C(
        "ldexp",
        "range-f64",
        (const([1.0, 1.5, 2.0**-500, 3.0]), const([1023, -1022, 1500, 2000])),
        dtypes=(("float64", "int32"),),
        out=FLOAT,
    ),
    C("ldexp", "int-mantissa", (ints(3, 4), ints(3, 4, low=-3, high=4)), dtypes=(("int32", "int32"),), out=FLOAT),
    C("ldexp", "weak-exponent", (normal(3, 4), 3), out=FLOAT),
    C("ldexp", "broadcast", (normal(3, 1, 4), ints(5, 4, low=-4, high=5)), dtypes=(("float32", "int32"),), out=FLOAT),
    # the neighbouring float of the result's own dtype (Keras's torch and TensorFlow backends step in float64 and
    # round back, returning x1 unchanged for float32)
    C("nextafter", "f32", (normal(3, 4), normal(3, 4)), _nextafter_in("float32"), dtypes=F32, out=FLOAT),
    C("nextafter", "f64", (normal(3, 4), normal(3, 4)), np.nextafter, dtypes=("float64",), out=FLOAT),
    C("nextafter", "f16", (normal(3, 4), normal(3, 4)), _nextafter_in("float16"), dtypes=("float16",), out=FLOAT),
    C("nextafter", "bf16", (normal(3, 4), normal(3, 4)), _nextafter_in("bfloat16"), dtypes=("bfloat16",), out=FLOAT),
    C(
        "nextafter",
        "special",
        (
            const([0.0, 0.0, -0.0, 1.0, 1.0, INF, -INF, NAN, 1.0, 3.4028234663852886e38, 2.0]),
            const([1.0, -1.0, 1.0, 1.0, NAN, 0.0, 0.0, 1.0, INF, INF, -INF]),
        ),
        _nextafter_in("float32"),
        dtypes=F32,
        out=FLOAT,
    ),
    C(
        "nextafter",
        "special-f64",
        (const([0.0, -0.0, 1.0, INF]), const([-1.0, 1.0, 2.0, 0.0])),
        np.nextafter,
        dtypes=("float64",),
        out=FLOAT,
    ),
    C("nextafter", "int", (ints(3, 4), ints(3, 4)), _nextafter_in("float32"), dtypes=INTS, out=FLOAT),
    C("nextafter", "broadcast", (normal(3, 1, 4), normal(5, 4)), _nextafter_in("float32"), out=FLOAT),
]

INTEGER = [
    C("gcd", "signs", (ints(4, 5, low=-30, high=31), ints(4, 5, low=-30, high=31)), dtypes=SIGNED),
    C("gcd", "zeros", (const([0, 0, 5, -7, 12]), const([0, 3, 0, 0, -18])), dtypes=INTS),
    C("gcd", "unsigned", (ints(3, 4, low=0, high=250), ints(3, 4, low=0, high=250)), dtypes=("uint8", "uint16")),
    C("gcd", "broadcast", (ints(3, 1, 4, low=-40, high=41), ints(5, 4, low=-40, high=41)), dtypes=("int32",)),
    C("gcd", "weak", (ints(3, 4, low=-40, high=41), 6), dtypes=("int32", "int8")),
    C("gcd", "mixed", (ints(3, 4, low=0, high=100), ints(3, 4, low=0, high=200)), dtypes=(("int8", "uint8"),)),
    # consecutive Fibonacci numbers need the most steps of Euclid's algorithm for their size
    C(
        "gcd",
        "fibonacci-int32",
        (fixed(np.array([_FIB[46], _FIB[30] * 6], np.int32)), fixed(np.array([_FIB[45], _FIB[29] * 6], np.int32))),
        dtypes=N,
        out="int32",
    ),
    C(
        "gcd",
        "fibonacci-int64",
        (fixed(np.array([_FIB[92], _FIB[60] * 10], np.int64)), fixed(np.array([_FIB[91], _FIB[59] * 10], np.int64))),
        dtypes=N,
        out="int64",
    ),
    C("lcm", "signs", (ints(4, 5, low=-12, high=13), ints(4, 5, low=-12, high=13)), dtypes=SIGNED),
    C("lcm", "zeros", (const([0, 0, 5, -6]), const([0, 3, 0, 4])), dtypes=INTS),
    C("lcm", "unsigned", (ints(3, 4, low=0, high=15), ints(3, 4, low=0, high=15)), dtypes=("uint8",)),
    C("lcm", "broadcast", (ints(3, 1, 4, low=-12, high=13), ints(5, 4, low=-12, high=13)), dtypes=("int32",)),
    C("lcm", "weak", (ints(3, 4, low=-12, high=13), 4), dtypes=("int32",)),
    *[
        row
        for op in ("bitwise_and", "bitwise_or", "bitwise_xor")
        for row in (
            C(op, "int", (ints(3, 4, low=-20, high=21), ints(3, 4, low=-20, high=21)), dtypes=SIGNED),
            C(op, "unsigned", (ints(3, 4, low=0, high=256), ints(3, 4, low=0, high=256)), dtypes=UNSIGNED),
            # bools give the logical op (numpy, JAX and torch; Keras's TensorFlow backend refuses bools)
            C(op, "bool", (ints(3, 4, low=0, high=2), ints(3, 4, low=0, high=2)), dtypes=("bool",)),
            C(op, "mixed", (ints(3, 4, low=0, high=100), ints(3, 4, low=0, high=200)), dtypes=(("int8", "uint8"),)),
            C(op, "weak", (ints(3, 4, low=0, high=100), 5), dtypes=("int8", "uint8", "int32")),
            C(op, "broadcast", (ints(3, 1, 4, low=-9, high=10), ints(5, 4, low=-9, high=10)), dtypes=("int32",)),
        )
    ],
    *[
        row
        for op in ("bitwise_invert", "bitwise_not")
        for row in (
            C(op, "int", (ints(3, 4, low=-20, high=21),), dtypes=SIGNED),
            C(op, "unsigned", (ints(3, 4, low=0, high=256),), dtypes=UNSIGNED, ref=np.invert),
            C(op, "bool", (ints(3, 4, low=0, high=2),), dtypes=("bool",), ref=np.invert),
        )
    ],
    *[
        row
        for op in ("bitwise_left_shift", "left_shift")
        for row in (
            C(op, "basic", (ints(3, 4, low=-50, high=50), ints(3, 4, low=0, high=7)), dtypes=SIGNED, ref=np.left_shift),
            # counts outside [0, bits) give 0 (numpy, JAX and torch; TensorFlow leaves them undefined)
            C(
                op,
                "out-of-range",
                (const([1, 1, -1, 3, -16, 5]), const([31, 32, -1, 40, 33, 100])),
                dtypes=("int32", "int64", "int8"),
                ref=np.left_shift,
            ),
            C(
                op,
                "unsigned",
                (ints(3, 4, low=0, high=256), ints(3, 4, low=0, high=12)),
                dtypes=UNSIGNED,
                ref=np.left_shift,
            ),
            C(op, "weak", (ints(3, 4, low=-50, high=50), 3), dtypes=("int8", "int32"), ref=np.left_shift),
            C(
                op,
                "broadcast",
                (ints(3, 1, 4, low=-50, high=50), ints(5, 4, low=0, high=7)),
                dtypes=("int32",),
                ref=np.left_shift,
            ),
        )
    ],
    *[
        row
        for op in ("bitwise_right_shift", "right_shift")
        for row in (
            C(
                op,
                "basic",
                (ints(3, 4, low=-500, high=500), ints(3, 4, low=0, high=7)),
                dtypes=INTS + ("int16",),
                ref=np.right_shift,
            ),
            # counts outside [0, bits) give 0, or -1 for negative numbers (numpy, JAX and torch)
            C(
                op,
                "out-of-range",
                (const([-16, 16, -1, 16, 16, -5]), const([2, 31, 40, 32, -1, 100])),
                dtypes=("int32", "int64", "int8"),
                ref=np.right_shift,
            ),
            C(
                op,
                "unsigned",
                (ints(3, 4, low=0, high=256), ints(3, 4, low=0, high=12)),
                dtypes=UNSIGNED,
                ref=np.right_shift,
            ),
            C(op, "weak", (ints(3, 4, low=-50, high=50), 2), dtypes=("int8", "int32"), ref=np.right_shift),
        )
    ],
]

CREATION = [
    C("empty", "basic", ((2, 3),), _zeros, dtypes=N, out="float32"),
    C("empty", "int32", ((2, 0),), _zeros, dtypes=N, out="int32", dtype="int32"),
    C("empty_like", "basic", (normal(2, 3),), _zeros_like, dtypes=F32_64 + INTS),
    C("empty_like", "dtype", (normal(2, 3),), _zeros_like, out="int32", dtype="int32"),
    C("identity", "basic", (3,), _eye, dtypes=N, out="float32"),
    C("identity", "int32", (2,), _eye, dtypes=N, out="int32", dtype="int32"),
    C("identity", "empty", (0,), _eye, dtypes=N, out="float32"),
    C("array", "basic", (normal(2, 3),), _identity, dtypes=F32_64 + INTS + ("bool",)),
    C("array", "dtype", (normal(2, 3),), lambda x, dtype: np.asarray(x).astype(dtype), out="float64", dtype="float64"),
    C("array", "list", (fixed([[1, 2], [3, 4]]),), _identity, dtypes=N, out="int32"),
    C("view", "f32-i32", (normal(2, 4),), _view_from("float32"), out="int32", dtype="int32"),
    C("view", "f32-i16", (normal(2, 3),), _view_from("float32"), out="int16", dtype="int16"),
    C(
        "view",
        "i16-i32",
        (ints(2, 4, low=-300, high=300),),
        _view_from("int16"),
        dtypes=("int16",),
        out="int32",
        dtype="int32",
    ),
    C(
        "view",
        "i64-u8",
        (ints(3, low=-300, high=300),),
        _view_from("int64"),
        dtypes=("int64",),
        out="uint8",
        dtype="uint8",
    ),
    C("view", "f64-f32", (normal(2, 2),), _view_from("float64"), dtypes=("float64",), out="float32", dtype="float32"),
    C("view", "f32-0d", (normal(),), _view_from("float32"), out="uint32", dtype="uint32"),
    C(
        "view",
        "bool-u8",
        (ints(2, 3, low=0, high=2),),
        _view_from("bool"),
        dtypes=("bool",),
        out="uint8",
        dtype="uint8",
    ),
    C(
        "view",
        "u8-bool",
        (ints(2, 3, low=0, high=3),),
        _view_from("uint8"),
        dtypes=("uint8",),
        out="bool",
        dtype="bool",
    ),
    C("view", "bf16-i16", (normal(2, 3),), _view_from("bfloat16"), dtypes=("bfloat16",), out="int16", dtype="int16"),
    C("view", "same", (normal(2, 3),), _identity, dtypes=F32_64 + INTS),
    C("get_item", "basic", (normal(3, 4), (1, slice(None, None, 2))), _get_item, dtypes=F32_64 + INTS, grad=(0,)),
    C("get_item", "int", (normal(3, 4), -1), _get_item, grad=(0,)),
    C("get_item", "ellipsis-newaxis", (normal(2, 3, 4), (Ellipsis, None, 0)), _get_item, grad=(0,)),
    C(
        "saturate_cast",
        "f32-u8",
        (const([-1.0, 256.0, NAN, INF, -INF, 3.7, 254.9, 0.5]),),
        _saturate_cast,
        out="uint8",
        dtype="uint8",
    ),
    # float32 cannot hold 2**31 - 1: the bound is rounded toward 0, and the values beyond it get int32's exact
    # extremes (Keras's torch, TensorFlow and numpy backends overflow to -2**31 here; its JAX backend saturates)
    C(
        "saturate_cast",
        "f32-i32",
        (const([3e9, -3e9, NAN, 2147483520.0, -2147483648.0, 5.5, -7.9]),),
        _saturate_cast,
        out="int32",
        dtype="int32",
    ),
    C(
        "saturate_cast",
        "f64-i64",
        (const([1e19, -1e19, NAN, 2.0**62, -3.5]),),
        _saturate_cast,
        dtypes=("float64",),
        out="int64",
        dtype="int64",
    ),
    C(
        "saturate_cast",
        "f64-f32",
        (const([1e300, -1e300, INF, -INF, NAN, 1.5]),),
        _saturate_cast,
        dtypes=("float64",),
        out="float32",
        dtype="float32",
    ),
    C(
        "saturate_cast",
        "f32-f16",
        (const([1e5, -1e5, 65504.0, 3.0, INF]),),
        _saturate_cast,
        out="float16",
        dtype="float16",
    ),
    C(
        "saturate_cast",
        "i32-i8",
        (ints(3, 4, low=-300, high=300),),
        _saturate_cast,
        dtypes=("int32",),
        out="int8",
        dtype="int8",
    ),
    C(
        "saturate_cast",
        "i32-u8",
        (ints(3, 4, low=-300, high=300),),
        _saturate_cast,
        dtypes=("int32",),
        out="uint8",
        dtype="uint8",
    ),
    C(
        "saturate_cast",
        "i64-f16",
        (ints(3, 4, low=-100000, high=100000),),
        _saturate_cast,
        dtypes=("int64",),
        out="float16",
        dtype="float16",
    ),
    C("saturate_cast", "f32-bool", (const([-1.0, 0.0, 0.5, 2.0, NAN]),), _saturate_cast, out="bool", dtype="bool"),
    C(
        "saturate_cast",
        "same",
        (const([1e38, -3.4e38, INF, -INF, NAN, 1.5]),),
        _saturate_cast,
        out="float32",
        dtype="float32",
    ),
    C("saturate_cast", "widen", (normal(3, 4),), _saturate_cast, grad=(0,), out="float64", dtype="float64"),
]

# The arguments Keras has and these ops gained: max/min's initial, prod's dtype, linspace's retstep and axis.
SIGNATURES = [
    *[
        row
        for op in ("max", "min")
        for row in (
            C(op, "initial", (distinct(2, 3),), dtypes=F32_64, grad=(0,), axis=1, initial=0.1),
            C(op, "initial-all", (distinct(2, 3),), grad=(0,), initial=-0.1),
            C(op, "initial-keepdims", (distinct(2, 3, 4),), grad=(0,), axis=(0, 2), keepdims=True, initial=0.1),
            C(op, "initial-empty", (normal(0, 3),), axis=0, initial=-1.0),
            C(op, "initial-empty-keepdims", (normal(2, 0),), axis=1, keepdims=True, initial=2.0),
            C(op, "initial-int", (ints(3, 4),), dtypes=INTS, axis=0, initial=2),
        )
    ],
    C("prod", "dtype-int64", (ints(3, 4, low=-3, high=4),), dtypes=("int32",), out="int64", axis=1, dtype="int64"),
    C("prod", "dtype-float", (ints(3, 4, low=-3, high=4),), dtypes=("int32",), out="float32", dtype="float32"),
    C("prod", "dtype-widen", (uniform(3, 4, low=0.5, high=1.5),), grad=(0,), out="float64", axis=0, dtype="float64"),
    C("linspace", "arrays", (const([0.0, 1.0, -2.0]), const([1.0, 3.0, 2.0]), 5), dtypes=F32_64, grad=(0, 1)),
    C("linspace", "broadcast", (const([[0.0], [1.0]]), const([1.0, 3.0, 2.0]), 4), grad=(0, 1)),
    C("linspace", "axis", (const([0.0, 1.0]), const([1.0, 3.0]), 3), grad=(0, 1), axis=1),
    C("linspace", "axis-neg", (const([[0.0, 1.0]]), const([[1.0, 3.0]]), 4), axis=-1),
    C("linspace", "arrays-no-endpoint", (const([0.0, 1.0]), const([1.0, 3.0]), 4), endpoint=False),
    C("linspace", "retstep", (0.0, 1.0, 5), dtypes=N, out=(fixed_dtype("float32"),) * 2, retstep=True),
    C("linspace", "retstep-arrays", (const([0.0, 10.0]), const([1.0, 20.0]), 3), dtypes=F32_64, retstep=True, axis=1),
    C("linspace", "retstep-num1", (0.0, 1.0, 1), dtypes=N, out=(fixed_dtype("float32"),) * 2, retstep=True),
    # integer samples round down (numpy 2; Keras's torch backend rounds toward zero)
    C("linspace", "int", (-5, 0, 4), dtypes=N, out="int32", dtype="int32"),
    C("linspace", "num0", (0.0, 1.0, 0), dtypes=N, out="float32"),
    C("linspace", "strong-float64", (fixed(np.float64(0.0)), 1.0, 3), dtypes=N, out="float64"),
]

CASES = COMPARISONS + UNARY + BINARY + INTEGER + CREATION + SIGNATURES
