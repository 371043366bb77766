"""Conformance cases: shape, indexing, joining, sorting and one-hot ops."""

import numpy as np

from .harness import F32_64, INT32, INTS, NONE, SAME, C, distinct, fixed, ints, mask, normal, raw


def _reshape(x, newshape):
    return np.reshape(x, newshape)


def _pad(x, pad_width, mode="constant", constant_values=None):
    if mode == "constant":
        return np.pad(x, pad_width, mode, constant_values=0 if constant_values is None else constant_values)
    return np.pad(x, pad_width, mode)


def _getitem(x, key):
    return x[key]


def _slice(x, start_indices, shape):
    return x[tuple(slice(s, s + n) for s, n in zip(start_indices, shape))]


def _slice_update(x, start_indices, updates):
    out = np.array(x, copy=True)
    out = out.astype(np.result_type(out, updates))
    out[tuple(slice(s, s + n) for s, n in zip(start_indices, updates.shape))] = updates
    return out


def _argsort(x, axis=-1):
    return np.argsort(x, axis=axis, kind="stable").astype(np.int32)


def _top_k(x, k, sorted=True):
    idx = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, idx, axis=-1), idx.astype(np.int32)


def _one_hot(x, num_classes, axis=-1, dtype=None):
    x = np.asarray(x)
    out = (x[..., None] == np.arange(num_classes)).astype(np.float64)
    return np.moveaxis(out, -1, axis)


def _split(x, indices_or_sections, axis=0):
    return np.split(x, indices_or_sections, axis=axis)


def _where(condition, x1, x2):
    return np.where(condition, x1, x2)


IDX = fixed(np.array([2, 0, -1, 1], dtype=np.int32))
LABELS = fixed(np.array([0, 2, 1, 3], dtype=np.int32))

CASES = [
    C("reshape", "basic", (normal(2, 3, 4), (4, 6)), _reshape, dtypes=F32_64 + INTS, grad=(0,), out=SAME),
    C("reshape", "minus1", (normal(2, 3, 4), (-1, 2)), _reshape, grad=(0,), out=SAME),
    C("reshape", "size0", (normal(0, 3), (3, 0)), _reshape, out=SAME),
    C("transpose", "reverse", (normal(2, 3, 4),), grad=(0,), dtypes=F32_64 + ("int32", "bool")),
    C("transpose", "axes", (normal(2, 3, 4), (1, 2, 0)), grad=(0,)),
    C("transpose", "axes-neg", (normal(2, 3, 4), (-1, 0, -2)), grad=(0,)),
    C("swapaxes", "neg", (normal(2, 3, 4), 0, -1), grad=(0,)),
    C("moveaxis", "basic", (normal(2, 3, 4), 0, -1), grad=(0,)),
    C("moveaxis", "tuple", (normal(2, 3, 4), (0, 1), (2, 0)), grad=(0,)),
    C("concatenate", "axis0", ([normal(2, 3), normal(4, 3)],), grad=(0,), dtypes=F32_64 + INTS),
    C("concatenate", "axis-neg", ([normal(2, 3), normal(2, 1), normal(2, 2)],), grad=(0,), axis=-1),
    C("concatenate", "size0", ([normal(0, 3), normal(2, 3)],), grad=(0,), axis=0),
    C("concatenate", "promote", ([ints(2, 3), normal(2, 3)],), dtypes=(("int32", "float32"), ("float16", "float32"))),
    C("stack", "axis0", ([normal(2, 3), normal(2, 3), normal(2, 3)],), grad=(0,), dtypes=F32_64 + INTS),
    C("stack", "axis-neg", ([normal(2, 3), normal(2, 3)],), grad=(0,), axis=-1),
    C("stack", "promote", ([ints(2, 3), normal(2, 3)],), dtypes=(("int32", "float32"),)),
    C("split", "sections", (normal(6, 4), 3), _split, grad=(0,), out=SAME),
    C("split", "indices-axis-neg", (normal(3, 6), [1, 4]), _split, grad=(0,), out=SAME, axis=-1),
    C("expand_dims", "neg", (normal(2, 3), -1), grad=(0,), out=SAME),
    C("expand_dims", "tuple", (normal(2, 3), (0, 2)), grad=(0,), out=SAME),
    C("squeeze", "all", (normal(1, 3, 1),), grad=(0,)),
    C("squeeze", "axis-neg", (normal(1, 3, 1),), grad=(0,), axis=-1),
    C("take", "flat", (normal(3, 4), IDX), grad=(0,), out=SAME),
    C("take", "axis1-neg-index", (normal(3, 4), IDX), grad=(0,), out=SAME, axis=1, dtypes=F32_64 + INTS),
    C("take", "axis-neg", (normal(2, 3, 5), fixed(np.array([[0, 4], [2, 2]], np.int32))), grad=(0,), out=SAME, axis=-1),
    C("take", "int64-indices", (normal(3, 4), fixed(np.array([1, 1, 0], np.int64))), grad=(0,), out=SAME, axis=0),
    C(
        "take_along_axis",
        "axis1",
        (normal(3, 4), fixed(np.array([[0, 3], [1, 1], [2, 0]], np.int32))),
        grad=(0,),
        out=SAME,
        axis=1,
    ),
    C(
        "take_along_axis",
        "axis0",
        (normal(3, 4), fixed(np.array([[2, 0, 1, 1]], np.int32))),
        grad=(0,),
        out=SAME,
        axis=0,
    ),
    C("where", "basic", (mask(3, 4), normal(3, 4), normal(3, 4)), _where, grad=(1, 2), dtypes=F32_64 + INTS),
    C("where", "broadcast", (mask(3, 1), normal(1, 4), normal(3, 4)), _where, grad=(1, 2)),
    C("where", "weak-scalar", (mask(3, 4), normal(3, 4), 0.0), _where, grad=(1,)),
    C("where", "promote", (mask(3, 4), ints(3, 4), normal(3, 4)), _where, dtypes=(("int32", "float32"),)),
    C("pad", "constant", (normal(2, 3), ((1, 2), (0, 1))), _pad, grad=(0,), out=SAME, dtypes=F32_64 + INTS),
    C("pad", "constant-value", (normal(2, 3), ((1, 1), (2, 0))), _pad, grad=(0,), out=SAME, constant_values=1.5),
    *[
        C("pad", mode, (normal(3, 4), ((1, 2), (2, 1))), _pad, grad=(0,), out=SAME, mode=mode)
        for mode in ("reflect", "symmetric", "edge")
    ],
    C("tile", "basic", (normal(2, 3), (2, 1)), grad=(0,), out=SAME, dtypes=F32_64 + ("int32",)),
    C("tile", "more-reps", (normal(2, 3), (2, 1, 2)), grad=(0,), out=SAME),
    C("repeat", "flat", (normal(2, 3), 2), grad=(0,), out=SAME),
    C("repeat", "axis", (normal(2, 3), 3), grad=(0,), out=SAME, axis=1),
    C("repeat", "axis-neg-int", (ints(2, 3), 2), out=SAME, axis=-1, dtypes=INTS),
    C("broadcast_to", "basic", (normal(3, 1), (2, 3, 4)), grad=(0,), out=SAME, dtypes=F32_64 + ("int32",)),
    C("flip", "all", (normal(2, 3),), grad=(0,)),
    C("flip", "axis-neg", (normal(2, 3, 4),), grad=(0,), axis=-1),
    C("flip", "axis-tuple", (normal(2, 3, 4),), grad=(0,), axis=(0, 2)),
    C("getitem", "int", (normal(3, 4), 1), _getitem, grad=(0,), out=SAME),
    C("getitem", "neg-int", (normal(3, 4), -1), _getitem, grad=(0,), out=SAME),
    C("getitem", "slices", (normal(4, 5), (slice(1, 3), slice(None, None, 2))), _getitem, grad=(0,), out=SAME),
    C("getitem", "neg-slice", (normal(4, 5), (slice(-3, None), slice(None, -1))), _getitem, grad=(0,), out=SAME),
    C("getitem", "ellipsis-newaxis", (normal(2, 3, 4), (Ellipsis, None, 1)), _getitem, grad=(0,), out=SAME),
    C("getitem", "int-array", (normal(4, 3), raw(np.array([3, 0, 3]))), _getitem, grad=(0,), out=SAME),
    C("getitem", "int-array-axis1", (normal(4, 3), (slice(None), np.array([2, 0]))), _getitem, grad=(0,), out=SAME),
    C("slice", "basic", (normal(4, 5), (1, 2), (2, 3)), _slice, grad=(0,), out=SAME, dtypes=F32_64 + ("int32",)),
    C("slice_update", "basic", (normal(4, 5), (1, 2), normal(2, 3)), _slice_update, grad=(0, 2), out=SAME),
    C("slice_update", "int", (ints(4, 5), (0, 1), ints(2, 3)), _slice_update, dtypes=INTS, out=SAME),
    C("sort", "last", (distinct(3, 4),), grad=(0,), dtypes=F32_64 + INTS),
    C("sort", "axis0", (distinct(3, 4),), grad=(0,), axis=0),
    C("argsort", "last", (distinct(3, 4),), _argsort, out=INT32, dtypes=F32_64),
    C("argsort", "axis0", (distinct(3, 4),), _argsort, out=INT32, axis=0),
    C("argsort", "stable-ties", (ints(2, 6, low=0, high=3),), _argsort, out=INT32, dtypes=("float32", "int32")),
    C("top_k", "basic", (distinct(3, 6), 3), _top_k, grad=(0,), out=(SAME, INT32), dtypes=F32_64),
    C("top_k", "int", (distinct(3, 6, spacing=1, jitter=0), 3), _top_k, out=(SAME, INT32), dtypes=INTS),
    C("top_k", "k1", (distinct(2, 3, 5), 1), _top_k, grad=(0,), out=(SAME, INT32)),
    C("one_hot", "basic", (LABELS, 4), _one_hot, dtypes=(NONE,), out="float32"),
    C(
        "one_hot",
        "out-of-range",
        (fixed(np.array([[0, -1], [4, 2]], np.int32)), 4),
        _one_hot,
        dtypes=(NONE,),
        out="float32",
    ),
    C("one_hot", "axis0", (LABELS, 4), _one_hot, dtypes=(NONE,), out="float32", axis=0),
    C("one_hot", "dtype", (LABELS, 4), _one_hot, dtypes=(NONE,), out="int32", dtype="int32"),
]
