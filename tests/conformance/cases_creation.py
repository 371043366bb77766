"""Conformance cases: tensor creation, conversion and casting (the core ops of the contract).

These check the dtype defaults of the contract: Python floats give floatx, Python ints int32, bools bool,
numpy arrays keep their dtype, ``arange`` of ints is int32, ``full`` takes the dtype of its fill value.
"""

import numpy as np

from .harness import F32, NONE, SAME, C, fixed_dtype, ints, normal, raw, round_to

N = (NONE,)


def _zeros(shape, dtype=None):
    return np.zeros(shape)


def _ones(shape, dtype=None):
    return np.ones(shape)


def _full(shape, fill_value, dtype=None):
    return np.full(shape, float(fill_value))


def _arange(start, stop=None, step=1, dtype=None):
    return np.arange(start, stop, step) if stop is not None else np.arange(start)


def _eye(N, M=None, k=0, dtype=None):
    return np.eye(N, M, k)


def _linspace(start, stop, num=50, endpoint=True, dtype=None):
    return np.linspace(start, stop, num, endpoint=endpoint)


def _convert(x, dtype=None):
    return np.asarray(x)


def _cast(x, dtype):
    return round_to(np.asarray(x), dtype)


def _like(x, dtype=None):
    return np.zeros_like(x, dtype=np.float64)


def _ones_like(x, dtype=None):
    return np.ones_like(x, dtype=np.float64)


def _full_like(x, fill_value, dtype=None):
    return np.full_like(x, fill_value, dtype=np.float64)


def _identity(x, **unused):
    return x


CASES = [
    C("zeros", "default", ((2, 3),), _zeros, dtypes=N, out="float32"),
    C("zeros", "int32", ((2, 3), "int32"), _zeros, dtypes=N, out="int32"),
    C("zeros", "size0", ((0, 3),), _zeros, dtypes=N, out="float32"),
    C("zeros", "bool", ((2,),), _zeros, dtypes=N, out="bool", dtype="bool"),
    C("ones", "default", ((2, 3),), _ones, dtypes=N, out="float32"),
    C("ones", "float64", ((3,),), _ones, dtypes=N, out="float64", dtype="float64"),
    C("ones", "int-scalar-shape", ((4,), "int64"), _ones, dtypes=N, out="int64"),
    C("full", "weak-float", ((2, 3), 1.5), _full, dtypes=N, out="float32"),
    C("full", "weak-int", ((2,), 7), _full, dtypes=N, out="int32"),
    C("full", "bool", ((2,), True), _full, dtypes=N, out="bool"),
    C("full", "dtype", ((2, 2), 2), _full, dtypes=N, out="float64", dtype="float64"),
    C("full", "dtype-int8", ((2, 2), -3), _full, dtypes=N, out="int8", dtype="int8"),
    C("arange", "stop", (5,), _arange, dtypes=N, out="int32"),
    C("arange", "start-stop-step", (1, 8, 2), _arange, dtypes=N, out="int32"),
    C("arange", "negative-step", (10, 0, -3), _arange, dtypes=N, out="int32"),
    C("arange", "float", (0.0, 1.0, 0.25), _arange, dtypes=N, out="float32"),
    C("arange", "dtype", (5,), _arange, dtypes=N, out="float32", dtype="float32"),
    C("arange", "empty", (3, 3), _arange, dtypes=N, out="int32"),
    C("eye", "square", (3,), _eye, dtypes=N, out="float32"),
    C("eye", "rect-k", (3, 4, 1), _eye, dtypes=N, out="float32"),
    C("eye", "k-neg-int", (3,), _eye, dtypes=N, out="int32", k=-1, dtype="int32"),
    C("linspace", "basic", (0.0, 1.0, 5), _linspace, dtypes=N, out="float32"),
    C("linspace", "no-endpoint", (-1.0, 1.0, 4), _linspace, dtypes=N, out="float32", endpoint=False),
    C("linspace", "num1", (2.0, 3.0, 1), _linspace, dtypes=N, out="float32"),
    C("linspace", "float64", (0.0, 1.0, 7), _linspace, dtypes=N, out="float64", dtype="float64"),
    C("convert_to_tensor", "py-float", (2.5,), _convert, dtypes=N, out="float32"),
    C("convert_to_tensor", "py-int", (3,), _convert, dtypes=N, out="int32"),
    C("convert_to_tensor", "py-bool", (True,), _convert, dtypes=N, out="bool"),
    C("convert_to_tensor", "int-list", ([[1, 2], [3, -4]],), _convert, dtypes=N, out="int32"),
    C("convert_to_tensor", "float-list", ([[1.5, 2], [3, 4]],), _convert, dtypes=N, out="float32"),
    C("convert_to_tensor", "bool-list", ([True, False],), _convert, dtypes=N, out="bool"),
    C("convert_to_tensor", "np-float64", (raw(np.array([1.0, 2.5])),), _convert, dtypes=N, out="float64"),
    C("convert_to_tensor", "np-int64", (raw(np.array([1, 2], np.int64)),), _convert, dtypes=N, out="int64"),
    C("convert_to_tensor", "np-uint8", (raw(np.array([1, 255], np.uint8)),), _convert, dtypes=N, out="uint8"),
    C("convert_to_tensor", "np-float32-scalar", (raw(np.float32(2.5)),), _convert, dtypes=N, out="float32"),
    C("convert_to_tensor", "dtype", ([1, 2],), _convert, dtypes=N, out="float32", dtype="float32"),
    C("convert_to_tensor", "tensor-dtype", (normal(3),), _convert, out="float16", dtype="float16"),
    C("convert_to_tensor", "tensor", (normal(3),), _convert, dtypes=("float32", "int32", "bool"), out=SAME),
    *[
        C("cast", f"to-{dt}", (normal(3, 4, scale=3),), _cast, dtypes=F32, out=fixed_dtype(dt), dtype=dt)
        for dt in ("int32", "int64", "float16", "bfloat16", "float64", "bool")
    ],
    C("cast", "from-int", (ints(3, 4),), _cast, dtypes=("int32", "int64", "uint8"), out="float32", dtype="float32"),
    C("cast", "from-bool", (ints(3, 4, low=0, high=2),), _cast, dtypes=("bool",), out="float32", dtype="float32"),
    C("cast", "grad-f32-f64", (normal(3, 4),), _cast, grad=(0,), out="float64", dtype="float64"),
    C(
        "cast",
        "grad-f32-f16",
        (normal(3, 4),),
        _identity,
        grad=(0,),
        out="float16",
        dtype="float16",
        tol_op="cast-float16",
    ),
    C("copy", "basic", (normal(3, 4),), _identity, dtypes=("float32", "int32", "bool"), grad=(0,)),
    C("zeros_like", "basic", (normal(3, 4),), _like, dtypes=("float32", "int32", "bool"), out=SAME),
    C("zeros_like", "dtype", (normal(3, 4),), _like, out="int32", dtype="int32"),
    C("ones_like", "basic", (normal(3, 4),), _ones_like, dtypes=("float32", "int64"), out=SAME),
    C("full_like", "basic", (normal(3, 4), 2.5), _full_like, out=SAME),
    C("full_like", "int", (ints(3, 4), 3), _full_like, dtypes=("int32",), out=SAME),
    C("stop_gradient", "value", (normal(3, 4),), _identity, dtypes=("float32", "float64")),
]
