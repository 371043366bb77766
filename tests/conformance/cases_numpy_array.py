"""Conformance cases: array building, indexing and search (the ops of ``contract/numpy_array.py``).

One line per case; see :func:`harness.C`. The references are numpy's (float64), except where highlevel chose one
behaviour among those of Keras's backends; each such reference says what it computes and why:

* ``argpartition``: Keras's backends return different (valid) partitions, and the torch and TensorFlow ones cast
  float inputs to int32 first. highlevel returns the stable sort's indices on every engine, a valid partition
  for every ``kth``; the reference is that sort.
* ``unique``: ``sorted=False`` keeps the order of first occurrence (TensorFlow's; the other backends ignore the
  flag and sort); with ``size`` the padding is ``fill_value`` (0 when None, as Keras documents: its JAX backend
  pads with the minimum instead), padded indices are 0 (a valid index, unlike the 1 of Keras's backends) and
  padded counts 0; every index output is int32 (Keras's torch backend gives int64).
* ``histogram``: the counts and edges are in the float dtype of ``x`` (floatx for integers), as three of Keras's
  backends give them (numpy gives int64 counts, TensorFlow int32 edges for integer input, which are wrong when
  the bins do not divide).
* ``digitize`` of decreasing bins, ``correlate`` with ``x2`` longer than ``x1``, ``cross`` of 2-vectors, ``vdot``
  of matrices, ``vstack`` of 1-D tensors, ``corrcoef`` of one variable: numpy's results (Keras's torch or
  TensorFlow backend gets each of these wrong or raises).
* ``select`` promotes its choices and default by the promotion table (float32 choices and a Python int default
  give float32; Keras's numpy and TensorFlow backends give float64).
* ``unravel_index`` returns coordinates in the dtype of the indices (int64 in, int64 out), as Keras's output
  spec says (three of its backends give int32).
"""

import warnings

import numpy as np

from highlevel.backends.contract import dtypes as D

from .harness import (
    BOOL,
    F32,
    F32_64,
    FLOAT,
    INT32,
    INTS,
    NONE,
    SAME,
    C,
    const,
    distinct,
    fixed,
    fixed_dtype,
    ints,
    mask,
    normal,
    positive,
    uniform,
)

N = (NONE,)
INT64 = fixed_dtype("int64")


# ------------------------------------------------------------------------------------- dtype rules
def TRACE(p):
    """trace: bool, int8 and int16 sum in int32, uint8 and uint16 in uint32; other dtypes are kept."""
    d = D.result_type(p[0])
    return {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32", "uint16": "uint32"}.get(d, d)


def CORRELATE(p):
    """correlate: int64 computes in float64, other non-float dtypes (and float32) in float32."""
    d = D.result_type(*p)
    return "float64" if d == "int64" else d if d in ("bfloat16", "float16", "float64") else "float32"


def CORRCOEF(p):
    """corrcoef: int64 computes in float64, other integers in floatx."""
    d = D.result_type(p[0])
    return "float64" if d == "int64" else FLOAT(p)


# -------------------------------------------------------------------------------------- references
def _split(fn):
    def ref(x, indices_or_sections, axis=None):
        return fn(x, indices_or_sections) if axis is None else fn(x, indices_or_sections, axis=axis)

    return ref


def _stack(fn):
    return lambda xs: fn(xs)


def _rot90(x, k=1, axes=(0, 1)):
    return np.rot90(x, k, axes)


def _tri(N, M=None, k=0, dtype=None):
    return np.tri(N, M, k)


def _logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    return np.logspace(start, stop, num, endpoint=endpoint, base=base, axis=axis)


def _geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    return np.geomspace(start, stop, num, endpoint=endpoint, axis=axis)


def _cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # numpy deprecates 2-vectors; highlevel keeps them
        return np.cross(x1, x2, axisa, axisb, axisc, axis)


def _select(condlist, choicelist, default=0):
    return np.select(condlist, choicelist, default)


def _argpartition(x, kth, axis=-1):
    """The indices of a stable sort: a valid partition for every kth (see the module docstring)."""
    if axis is None:
        return np.argsort(np.ravel(x), kind="stable")
    return np.argsort(x, axis=axis, kind="stable")


def _unique(
    x, sorted=True, return_index=False, return_inverse=False, return_counts=False, axis=None, size=None, fill_value=None
):
    """numpy's unique; ``sorted=False`` reorders by first occurrence; ``size`` cuts or pads (values with
    ``fill_value`` or 0, indices with 0, counts with 0)."""
    values, index, inverse, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True, axis=axis, equal_nan=False
    )
    ax = 0 if axis is None else axis
    inverse = inverse.reshape(np.shape(x)) if axis is None else inverse.reshape(-1)
    if not sorted:
        by_first = np.argsort(index, kind="stable")
        rank = np.argsort(by_first)
        values, index, counts, inverse = (
            np.take(values, by_first, axis=ax),
            index[by_first],
            counts[by_first],
            rank[inverse],
        )
    if size is not None:
        n = len(index)
        if n >= size:
            values, index, counts = np.take(values, np.arange(size), axis=ax), index[:size], counts[:size]
        else:
            pad = [(0, 0)] * values.ndim
            pad[ax] = (0, size - n)
            values = np.pad(values, pad, constant_values=0 if fill_value is None else fill_value)
            index, counts = np.pad(index, (0, size - n)), np.pad(counts, (0, size - n))
    out = [values] + [index] * return_index + [inverse] * return_inverse + [counts] * return_counts
    return out[0] if len(out) == 1 else tuple(out)


def _nonzero(x):
    return np.nonzero(x)


def _searchsorted(a, v, side="left"):
    return np.searchsorted(a, v, side=side)


def _bincount(x, weights=None, minlength=0, sparse=False):
    if np.ndim(x) == 2:
        length = max(minlength, int(np.max(x)) + 1 if np.size(x) else 0)
        rows = [
            np.bincount(r, None if weights is None else w, minlength=length)
            for r, w in zip(x, weights if weights is not None else [None] * len(x))
        ]
        return np.stack(rows)
    return np.bincount(x, weights, minlength)


def _histogram(x, bins=10, range=None):
    return np.histogram(x, bins, range)


def _count_nonzero(x, axis=None):
    return np.asarray(np.count_nonzero(x, axis=axis))


def _unstack(x, num=None, axis=0):
    return [np.take(x, i, axis=axis) for i in range(np.shape(x)[axis])]


_REARRANGE = {
    "a (b1 b) c -> b (c a) b1": lambda x, b1: np.transpose(
        x.reshape(x.shape[0], b1, x.shape[1] // b1, x.shape[2]), (2, 3, 0, 1)
    ).reshape(x.shape[1] // b1, x.shape[2] * x.shape[0], b1),
    "a b c -> c a b": lambda x: np.transpose(x, (2, 0, 1)),
    "a ... -> ... a": lambda x: np.moveaxis(x, 0, -1),
    "(a b) c -> a (c b)": lambda x, a: np.transpose(x.reshape(a, -1, x.shape[1]), (0, 2, 1)).reshape(a, -1),
}


def _rearrange(x, pattern, **axes_lengths):
    """The rearrangement of each pattern, written out with numpy's reshape and transpose."""
    return _REARRANGE[pattern](x, **axes_lengths)


SORTED = const([-1.5, -0.5, 0.0, 0.0, 0.5, 2.0])
SORTED_INTS = const([-3, -1, 0, 0, 2, 5])
BINS = const([-1.0, -0.25, 0.5, 1.0])
FLAT = fixed(np.array([5, 0, 11, 7, 3], np.int32))
COUNTS_X = fixed(np.array([1, 3, 1, 0, 4, 1], np.int32))

CASES = [
    # ------------------------------------------------------------------- joining, splitting
    C("append", "axis0", (normal(2, 3), normal(1, 3)), dtypes=F32_64 + INTS, grad=(0, 1), axis=0),
    C("append", "flat", (normal(2, 3), normal(4)), grad=(0, 1)),
    C("append", "axis-neg", (normal(2, 3), normal(2, 1)), grad=(0, 1), axis=-1),
    C("append", "promote", (ints(2), normal(3)), dtypes=(("int32", "float32"), ("int8", "int32"))),
    C("array_split", "sections", (normal(7, 2), 3), _split(np.array_split), dtypes=F32_64 + INTS, grad=(0,), out=SAME),
    C("array_split", "indices-axis-neg", (normal(2, 7), [2, 5]), _split(np.array_split), grad=(0,), out=SAME, axis=-1),
    C("array_split", "more-sections-than-entries", (normal(2), 3), _split(np.array_split), out=SAME),
    C("hsplit", "2d", (normal(3, 4), 2), _split(np.hsplit), dtypes=F32_64 + INTS, grad=(0,), out=SAME),
    C("hsplit", "1d-indices", (normal(6), [2, 3]), _split(np.hsplit), grad=(0,), out=SAME),
    C("vsplit", "indices", (normal(4, 3), [1]), _split(np.vsplit), dtypes=F32_64 + INTS, grad=(0,), out=SAME),
    C("dsplit", "sections", (normal(1, 2, 4), 2), _split(np.dsplit), dtypes=F32_64 + INTS, grad=(0,), out=SAME),
    C("hstack", "2d", ([normal(2, 3), normal(2, 1)],), _stack(np.hstack), dtypes=F32_64 + INTS, grad=(0,)),
    C("hstack", "1d", ([normal(2), normal(3)],), _stack(np.hstack), grad=(0,)),
    C("hstack", "promote", ([ints(2), normal(2)],), _stack(np.hstack), dtypes=(("int32", "float32"),)),
    C(
        "vstack",
        "1d-rows",  # 1-D tensors are rows (Keras's TensorFlow backend concatenates them flat)
        ([normal(3), normal(2, 3)],),
        _stack(np.vstack),
        dtypes=F32_64 + INTS,
        grad=(0,),
    ),
    C("dstack", "2d", ([normal(2, 3), normal(2, 3)],), _stack(np.dstack), dtypes=F32_64 + INTS, grad=(0,)),
    C("dstack", "1d-and-3d", ([normal(3), normal(1, 3, 2)],), _stack(np.dstack), grad=(0,)),
    C("unstack", "axis1", (normal(2, 3, 4),), _unstack, dtypes=F32_64 + INTS, grad=(0,), out=SAME, axis=1),
    C("unstack", "num-axis-neg", (normal(2, 3),), _unstack, grad=(0,), out=SAME, num=3, axis=-1),
    # ------------------------------------------------------------- flips, rotations, shifts
    C("fliplr", "basic", (normal(2, 3, 4),), dtypes=F32_64 + INTS + ("bool",), grad=(0,)),
    C("flipud", "basic", (normal(3),), dtypes=F32_64 + INTS, grad=(0,)),
    C("rot90", "k1", (normal(2, 3),), _rot90, dtypes=F32_64 + INTS, grad=(0,)),
    C("rot90", "k-neg-axes", (normal(2, 3, 4),), _rot90, grad=(0,), k=-3, axes=(2, 0)),
    C("rot90", "k2-axes-neg", (normal(2, 3, 4),), _rot90, grad=(0,), k=2, axes=(-1, -2)),
    C("rot90", "k3", (normal(3, 2),), _rot90, grad=(0,), k=3),
    C("rot90", "k4", (normal(3, 2),), _rot90, grad=(0,), k=4),
    C("roll", "flat", (normal(2, 3), 4), dtypes=F32_64 + INTS, grad=(0,)),
    C("roll", "axes", (normal(2, 3, 4), (1, -2)), grad=(0,), axis=(0, -1)),
    C("roll", "repeated-axis", (normal(5), (2, 4)), grad=(0,), axis=(0, 0)),
    C("roll", "shift-broadcast", (normal(3, 4), -1), grad=(0,), axis=(0, 1)),
    C("roll", "size0", (normal(0, 3), 1), axis=1),
    # --------------------------------------------------------------------------- diagonals
    C("diag", "vector-k-neg", (normal(3),), dtypes=F32_64 + INTS, grad=(0,), k=-1),
    C("diag", "vector-k", (normal(2),), grad=(0,), k=2),
    C("diag", "matrix-k", (normal(3, 4),), dtypes=F32_64 + INTS, grad=(0,), k=1),
    C("diag", "matrix-past-the-edge", (normal(3, 4),), k=5),
    C("diagonal", "axes-neg", (normal(2, 3, 4),), dtypes=F32_64 + INTS, grad=(0,), offset=1, axis1=-1, axis2=0),
    C("diagonal", "offset-neg", (normal(4, 3),), grad=(0,), offset=-2),
    C("diagonal", "offset-past-the-edge", (normal(4, 3),), offset=3),
    C("diagflat", "k-neg", (normal(2, 2),), dtypes=F32_64 + INTS, grad=(0,), k=-1),
    C("trace", "basic", (normal(3, 4),), dtypes=F32_64 + INTS, grad=(0,), out=TRACE),
    C("trace", "axes-offset", (normal(2, 3, 4),), grad=(0,), out=TRACE, offset=-1, axis1=2, axis2=1),
    C("trace", "small-ints", (ints(3, 3, low=0, high=2),), dtypes=("bool", "int8", "uint8"), out=TRACE),
    C("tri", "rect-k", (3,), _tri, dtypes=N, out="float32", M=4, k=1),
    C("tri", "k-neg-int", (4,), _tri, dtypes=N, out="int32", k=-2, dtype="int32"),
    C("vander", "basic", (normal(4),), dtypes=F32_64 + INTS, grad=(0,)),
    C("vander", "N-increasing", (normal(3),), grad=(0,), N=5, increasing=True),
    C("vander", "zero-entry", (const([0.0, 1.5, -2.0]),), grad=(0,)),
    C("vander", "N0", (normal(4),), N=0),
    # ------------------------------------------------------------------------------- grids
    C(
        "meshgrid",
        "xy",
        (normal(3), normal(2), normal(4)),
        dtypes=F32_64 + INTS,
        grad=(0, 1, 2),
        out=(SAME, SAME, SAME),
    ),
    C("meshgrid", "ij", (normal(3), normal(2)), grad=(0, 1), out=(SAME, SAME), indexing="ij"),
    C("meshgrid", "flattens", (normal(2, 2), normal(3)), out=(SAME, SAME)),
    C("logspace", "scalars", (0.5, 2.0), _logspace, dtypes=N, out="float32", num=5, base=2.0),
    C("logspace", "int-bounds-float64", (0, 3), _logspace, dtypes=N, out="float64", num=4, dtype="float64"),
    C(
        "logspace",
        "tensors-axis",
        (uniform(3), uniform(3, low=1, high=2)),
        _logspace,
        dtypes=F32_64,
        grad=(0, 1),
        out=FLOAT,
        num=4,
        axis=-1,
    ),
    C(
        "logspace",
        "no-endpoint",
        (uniform(2, 1), uniform(3)),
        _logspace,
        grad=(0, 1),
        out=FLOAT,
        num=3,
        endpoint=False,
        base=3.0,
        axis=1,
    ),
    C("geomspace", "scalars-negative", (-2.0, -50.0), _geomspace, dtypes=N, out="float32", num=6),
    C("geomspace", "no-endpoint", (1, 1000), _geomspace, dtypes=N, out="float32", num=3, endpoint=False),
    C(
        "geomspace",
        "tensors-axis",
        (positive(3), positive(3, low=4, high=9)),
        _geomspace,
        dtypes=F32_64,
        grad=(0, 1),
        out=FLOAT,
        num=4,
        axis=-1,
    ),
    # ---------------------------------------------------------------------------- products
    C("kron", "2d", (normal(2, 3), normal(3, 2)), dtypes=F32_64 + INTS, grad=(0, 1)),
    C("kron", "ranks", (normal(2), normal(2, 3, 1)), grad=(0, 1)),
    C("kron", "promote", (ints(2, 2), normal(2)), dtypes=(("int32", "float32"),)),
    C("cross", "3d-broadcast", (normal(4, 3), normal(3)), _cross, dtypes=F32_64 + INTS, grad=(0, 1)),
    C("cross", "axes", (normal(3, 2), normal(2, 3)), _cross, grad=(0, 1), axisa=0, axisb=-1, axisc=0),
    C("cross", "axis", (normal(3, 2), normal(3, 2)), _cross, grad=(0, 1), axis=0),
    C("cross", "2d", (normal(4, 2), normal(4, 2)), _cross, grad=(0, 1)),  # Keras's torch backend raises for 2-vectors
    C("cross", "2d-3d", (normal(2), normal(3)), _cross, grad=(0, 1)),
    C("cross", "3d-2d", (normal(2, 3), normal(2, 2)), _cross, grad=(0, 1)),
    C("dot", "matrix", (normal(3, 4), normal(4, 2)), dtypes=F32_64 + INTS, grad=(0, 1)),
    C("dot", "nd", (normal(2, 3, 4), normal(5, 4, 2)), grad=(0, 1)),
    C("dot", "vectors", (normal(4), normal(4)), grad=(0, 1)),
    C("dot", "nd-vector", (normal(2, 3, 4), normal(4)), grad=(0, 1)),
    C("dot", "vector-nd", (normal(3), normal(2, 3, 4)), grad=(0, 1)),
    C("dot", "scalar", (normal(3), 2.5), grad=(0,)),
    C("dot", "promote", (ints(3, 4), normal(4, 2)), dtypes=(("int32", "float32"),)),
    C("inner", "nd", (normal(2, 3), normal(4, 3)), dtypes=F32_64 + INTS, grad=(0, 1)),
    C("inner", "vectors", (normal(3), normal(3)), grad=(0, 1)),
    C("inner", "scalar", (normal(2, 3), 0.5), grad=(0,)),
    C("vdot", "matrices", (normal(2, 3), normal(3, 2)), dtypes=F32_64 + INTS, grad=(0, 1)),  # torch: 1-D only
    # ----------------------------------------------------------------------------- indexing
    C("unravel_index", "int32", (FLAT, (3, 4)), dtypes=N, out=(INT32, INT32)),
    # the dtype of the indices, as Keras's output spec says (three of its backends give int32)
    C(
        "unravel_index",
        "int64-3d",
        (fixed(np.array([[0, 23], [17, 6]], np.int64)), (2, 3, 4)),
        dtypes=N,
        out=(INT64,) * 3,
    ),
    C(
        "select",
        "basic",
        ([mask(3, 4), mask(3, 4)], [normal(3, 4), normal(3, 4)]),
        _select,
        dtypes=F32_64 + INTS,
        grad=(1,),
    ),
    C(
        "select",
        "default-broadcast",
        ([mask(3, 1), mask(1, 4)], [normal(3, 4), normal(4)]),
        _select,
        grad=(1,),
        default=-1,
    ),
    # the promotion table: float32 choices and an int default give float32 (numpy and TensorFlow: float64)
    C(
        "select",
        "promote",
        (
            [
                mask(
                    3,
                ),
                mask(
                    3,
                ),
            ],
            [ints(3), normal(3)],
        ),
        _select,
        dtypes=(("int32", "float32"),),
        default=-1,
    ),
    C("isin", "ints", (ints(3, 4, low=0, high=6), ints(5, low=0, high=9)), dtypes=INTS + ("float32",), out=BOOL),
    C("isin", "invert", (ints(3, 4, low=0, high=6), ints(2, 2, low=0, high=9)), out=BOOL, invert=True, dtypes=INTS),
    C("isin", "empty", (ints(4), normal(0)), out=BOOL, dtypes=F32),
    C("isin", "mixed", (ints(5), ints(3)), out=BOOL, dtypes=(("int32", "float32"), ("int8", "int64"))),
    # ------------------------------------------------------------------------------ search
    # Keras's backends partition differently (torch and TensorFlow cast floats to int32): a stable sort, everywhere
    C("argpartition", "last", (distinct(3, 5), 2), _argpartition, dtypes=F32_64 + INTS, out=INT32),
    C(
        "argpartition",
        "axis0-ties",
        (ints(4, 3, low=0, high=3), -1),
        _argpartition,
        dtypes=("float32", "int32"),
        out=INT32,
        axis=0,
    ),
    C("argpartition", "flat", (distinct(2, 3), 4), _argpartition, out=INT32, axis=None),
    C("searchsorted", "left", (SORTED, normal(3, 4)), _searchsorted, dtypes=F32_64, out=INT32),
    C(
        "searchsorted",
        "right-ties",
        (SORTED_INTS, ints(2, 5)),
        _searchsorted,
        dtypes=INTS + ("float32",),
        out=INT32,
        side="right",
    ),
    C("searchsorted", "left-ties", (SORTED_INTS, ints(2, 5)), _searchsorted, dtypes=INTS, out=INT32),
    C(
        "searchsorted",
        "mixed",
        (SORTED_INTS, normal(4, scale=3)),
        _searchsorted,
        dtypes=(("int32", "float32"),),
        out=INT32,
    ),
    C("digitize", "increasing", (normal(3, 4), BINS), np.digitize, dtypes=F32_64, out=INT32),
    # decreasing bins as numpy (Keras's torch backend gets them wrong, its TensorFlow backend raises)
    C("digitize", "decreasing", (normal(3, 4), const([1.0, 0.5, -0.25, -1.0])), np.digitize, out=INT32),
    C("digitize", "ties", (ints(10, low=-4, high=7), SORTED_INTS), np.digitize, dtypes=INTS, out=INT32),
    C(
        "digitize",
        "decreasing-ties",
        (ints(10, low=-4, high=7), const([5, 2, 0, 0, -1, -3])),
        np.digitize,
        dtypes=INTS,
        out=INT32,
    ),
    C("digitize", "one-edge", (normal(5), const([0.0])), np.digitize, out=INT32),
    # ------------------------------------------------------------------------------ unique
    C(
        "unique",
        "flat-all-outputs",
        (ints(3, 4, low=0, high=5),),
        _unique,
        dtypes=F32_64 + INTS,
        out=(SAME, INT32, INT32, INT32),
        return_index=True,
        return_inverse=True,
        return_counts=True,
    ),
    C("unique", "values-grad", (distinct(5),), _unique, grad=(0,)),
    C(
        "unique",
        "axis",
        (ints(4, 3, low=0, high=2),),
        _unique,
        dtypes=("float32", "int32"),
        out=(SAME, INT32, INT32, INT32),
        axis=-1,
        return_index=True,
        return_inverse=True,
        return_counts=True,
    ),
    # sorted=False: first-occurrence order (Keras's TensorFlow backend; its others ignore the flag and sort)
    C(
        "unique",
        "unsorted",
        (ints(9, low=0, high=4),),
        _unique,
        dtypes=("float32", "int32"),
        out=(SAME, INT32, INT32, INT32),
        sorted=False,
        return_index=True,
        return_inverse=True,
        return_counts=True,
    ),
    C(
        "unique",
        "nan-each-distinct",
        (const([1.0, np.nan, 2.0, np.nan, 1.0]),),
        _unique,
        out=(SAME, INT32),
        return_counts=True,
    ),
    C("unique", "empty", (normal(0, 2),), _unique, out=(SAME, INT32, INT32), return_inverse=True, return_counts=True),
    # padding: fill_value (0 by default, as Keras documents; its JAX backend pads with the minimum), index 0
    C(
        "unique",
        "size-pad",
        (ints(3, 4, low=0, high=4),),
        _unique,
        dtypes=F32_64 + INTS,
        out=(SAME, INT32, INT32, INT32),
        size=7,
        fill_value=-1,
        return_index=True,
        return_inverse=True,
        return_counts=True,
    ),
    C(
        "unique",
        "size-cut",
        (ints(12, low=0, high=6),),
        _unique,
        dtypes=("int32",),
        out=(SAME, INT32, INT32),
        size=2,
        return_index=True,
        return_counts=True,
    ),
    C("unique", "size-default-fill", (ints(5, low=3, high=5),), _unique, dtypes=("float32",), size=4),
    C(
        "unique",
        "size-unsorted",
        (ints(9, low=0, high=4),),
        _unique,
        dtypes=("float32", "int32"),
        out=(SAME, INT32, INT32, INT32),
        sorted=False,
        size=6,
        fill_value=9,
        return_index=True,
        return_inverse=True,
        return_counts=True,
    ),
    C(
        "unique",
        "size-unsorted-cut",
        (ints(9, low=0, high=5),),
        _unique,
        dtypes=("int32",),
        out=(SAME, INT32),
        sorted=False,
        size=2,
        return_counts=True,
    ),
    C(
        "unique",
        "size-axis",
        (ints(5, 2, low=0, high=2),),
        _unique,
        dtypes=("float32", "int32"),
        out=(SAME, INT32, INT32),
        axis=0,
        size=6,
        return_inverse=True,
        return_counts=True,
    ),
    C("unique", "size-grad", (distinct(2, 3),), _unique, grad=(0,), size=8),
    C("unique", "size-empty", (normal(0),), _unique, out=(SAME, INT32), size=3, return_counts=True),
    C("nonzero", "2d", (ints(3, 4, low=0, high=2),), _nonzero, dtypes=("float32", "int32", "bool"), out=(INT32, INT32)),
    C("nonzero", "1d-none", (ints(4, low=0, high=1),), _nonzero, out=(INT32,)),
    C("nonzero", "3d", (ints(2, 3, 2, low=-1, high=2),), _nonzero, out=(INT32, INT32, INT32)),
    # ---------------------------------------------------------------------------- counting
    C("bincount", "minlength", (COUNTS_X,), _bincount, dtypes=N, out=INT32, minlength=8),
    C("bincount", "weights", (COUNTS_X, normal(6)), _bincount, dtypes=F32_64, grad=(1,)),
    C(
        "bincount",
        "int-weights",
        (COUNTS_X, ints(6)),
        _bincount,
        dtypes=INTS + ("int8",),
        out=lambda p: D.result_type("int32", *p),
    ),
    C(
        "bincount",
        "2d",
        (fixed(np.array([[1, 2, 1], [0, 0, 4]], np.int32)),),
        _bincount,
        dtypes=N,
        out=INT32,
        minlength=3,
    ),
    C(
        "bincount",
        "2d-weights",
        (fixed(np.array([[1, 2, 1], [0, 0, 4]], np.int64)), normal(2, 3)),
        _bincount,
        grad=(1,),
    ),
    C("bincount", "empty", (fixed(np.zeros((0,), np.int32)),), _bincount, dtypes=N, out=INT32, minlength=2),
    C("histogram", "basic", (normal(20),), _histogram, dtypes=F32_64, grad=(0,), out=(SAME, SAME), bins=5),
    C("histogram", "range", (normal(20),), _histogram, out=(SAME, SAME), bins=3, range=(-1.0, 1.5)),
    # float counts and edges (Keras's TensorFlow backend gives int32 edges, wrong when the bins do not divide)
    C("histogram", "int", (ints(12, low=0, high=9),), _histogram, dtypes=INTS, out=(FLOAT, FLOAT), bins=4),
    C("histogram", "constant", (const([2.0, 2.0, 2.0]),), _histogram, out=(SAME, SAME), bins=2),
    C("count_nonzero", "all", (ints(3, 4, low=-1, high=2),), _count_nonzero, dtypes=F32 + INTS + ("bool",), out=INT32),
    C("count_nonzero", "axis-neg", (ints(3, 4, low=-1, high=2),), _count_nonzero, out=INT32, axis=-1),
    C("count_nonzero", "axes", (ints(2, 3, 4, low=-1, high=2),), _count_nonzero, out=INT32, axis=(0, 2)),
    # ------------------------------------------------------------------------- differences
    C("diff", "basic", (normal(3, 5),), dtypes=F32_64 + INTS, grad=(0,)),
    C("diff", "n2-axis0", (normal(4, 3),), grad=(0,), n=2, axis=0),
    C("diff", "n0", (normal(3),), grad=(0,), n=0),
    C("diff", "n-past-the-end", (normal(2, 3),), n=4),
    C("diff", "bool", (ints(6, low=0, high=2),), dtypes=("bool",)),
    C("trapezoid", "dx", (normal(3, 5),), dtypes=F32_64, grad=(0,), dx=0.5),
    C("trapezoid", "x-1d", (normal(3, 5), normal(5)), grad=(0, 1)),
    C("trapezoid", "x-nd-axis0", (normal(4, 3), normal(4, 3)), grad=(0, 1), axis=0),
    C("trapezoid", "int", (ints(2, 4),), dtypes=INTS, out=FLOAT),
    # --------------------------------------------------------------------------- statistics
    # (2, 4): x2 longer than x1, where Keras's torch ("same") and TensorFlow ("valid") backends go wrong
    *[
        C("correlate", f"{mode}-{a}-{b}", (normal(a), normal(b)), dtypes=F32_64, grad=(0, 1), out=CORRELATE, mode=mode)
        for mode in ("valid", "same", "full")
        for a, b in ((5, 3), (2, 4))
    ],
    C("correlate", "int", (ints(5), ints(2)), dtypes=INTS, out=CORRELATE),
    C("correlate", "half", (normal(5), normal(3)), dtypes=("float16",), out=CORRELATE, mode="full"),
    C("corrcoef", "rows", (normal(3, 6),), dtypes=F32_64, grad=(0,), out=CORRCOEF),
    C("corrcoef", "one-variable", (normal(5),), out=CORRCOEF),  # a scalar 1, as numpy (Keras's TensorFlow raises)
    C("corrcoef", "int", (ints(3, 5),), dtypes=INTS, out=CORRCOEF),
    # ------------------------------------------------------------------------------ einops
    C(
        "rearrange",
        "split-merge",
        (normal(2, 6, 4), "a (b1 b) c -> b (c a) b1"),
        _rearrange,
        dtypes=F32_64 + INTS,
        grad=(0,),
        out=SAME,
        b1=3,
    ),
    C("rearrange", "transpose", (normal(2, 3, 4), "a b c -> c a b"), _rearrange, grad=(0,), out=SAME),
    C("rearrange", "ellipsis", (normal(2, 3, 4), "a ... -> ... a"), _rearrange, grad=(0,), out=SAME),
    C("rearrange", "split-first", (normal(6, 5), "(a b) c -> a (c b)"), _rearrange, grad=(0,), out=SAME, a=2),
]
