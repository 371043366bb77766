"""Conformance cases: scatters, segment reductions and ``in_top_k`` (``backends/contract/scatter_segment.py``).

Where Keras's backends disagree, the references say what highlevel computes, and why:

* an empty segment of ``segment_max`` is ``-inf`` (the identity of max; JAX's answer) where TensorFlow gives the
  lowest finite float (``-3.4e38``); ``segment_min`` likewise ``+inf``;
* of several ``scatter_update`` updates to one index the last one wins, and only it gets a gradient (JAX's
  gradient; TensorFlow and PyTorch send the cotangent to the overwritten updates too, which do not affect the
  result);
* ``segment_prod`` has a gradient (JAX raises for it), the product of the other entries, zeros included;
* ``num_segments=None`` is ``max(segment_ids) + 1`` (PyTorch and NumPy; TensorFlow's ``segment_sum`` counts the
  distinct ids instead, which is too few when an id is skipped, and JAX refuses None);
* ``in_top_k``: a target is in the top k when fewer than k predictions of its row are strictly greater (ties at
  the boundary count, as in every backend); a NaN target prediction or a target out of range gives False (JAX
  would let an out-of-range target count for k >= num_classes; TensorFlow also gives False for a row with any
  non-finite prediction, which is not the definition).
"""

import numpy as np

from .harness import BOOL, F32_64, FLOATS, INTS, C, const, fixed, ints, normal, uniform


# ------------------------------------------------------------------------------------------ references
def _rows(indices, target_shape, values):
    indices = np.asarray(indices)
    k = indices.shape[-1]
    rows = indices.reshape(-1, k)
    vals = np.broadcast_to(values, indices.shape[:-1] + tuple(target_shape[k:])).reshape(
        (-1,) + tuple(target_shape[k:])
    )
    return rows, vals


def _ref_scatter(indices, values, shape):
    values = np.asarray(values)
    out = np.zeros(shape, values.dtype)
    rows, vals = _rows(indices, shape, values)
    np.add.at(out, tuple(rows.T), vals)
    return out


_UFUNC = {"add": np.add, "max": np.maximum, "min": np.minimum, "mul": np.multiply}


def _ref_scatter_update(inputs, indices, updates, reduction=None):
    out = np.array(inputs, copy=True)
    rows, vals = _rows(indices, out.shape, np.asarray(updates).astype(out.dtype))
    if reduction is None:
        for row, v in zip(rows, vals):  # in order: the last update to an index wins
            out[tuple(row)] = v
    else:
        _UFUNC[reduction.lower()].at(out, tuple(rows.T), vals)
    return out


def _identity(ufunc, dtype):
    if ufunc is np.add:
        return 0
    if ufunc is np.multiply:
        return 1
    if dtype.kind == "f":
        return -np.inf if ufunc is np.maximum else np.inf
    info = np.iinfo(dtype)
    return info.min if ufunc is np.maximum else info.max


def _segment_ref(ufunc):
    def ref(data, segment_ids, num_segments=None, sorted=False):
        ids = np.asarray(segment_ids)
        n = num_segments if num_segments is not None else (int(ids.max()) + 1 if ids.size else 0)
        out = np.full((n,) + data.shape[1:], _identity(ufunc, data.dtype), data.dtype)
        keep = (ids >= 0) & (ids < n)
        ufunc.at(out, ids[keep], data[keep])
        return out

    return ref


def _ref_in_top_k(targets, predictions, k):
    classes = predictions.shape[-1]
    valid = (targets >= 0) & (targets < classes)
    at_target = np.take_along_axis(predictions, np.where(valid, targets, 0)[..., None], axis=-1)
    with np.errstate(invalid="ignore"):
        greater = np.sum(predictions > at_target, axis=-1)
    return (greater < k) & valid & ~np.isnan(at_target[..., 0].astype(np.float64))


_sum, _max, _min, _prod = (_segment_ref(u) for u in (np.add, np.maximum, np.minimum, np.multiply))

I32 = np.int32
IDS = fixed(np.array([0, 2, 0, 1, 2, 3, 1], I32))

CASES = [
    # scatter: values at repeated indices add up (every backend of Keras)
    C(
        "scatter",
        "entries",
        (fixed(np.array([[0, 1], [2, 0], [0, 1], [1, 2]], I32)), normal(4), (3, 3)),
        _ref_scatter,
        dtypes=F32_64,
        grad=(1,),
    ),
    C(
        "scatter",
        "entries-int",
        (fixed(np.array([[0, 1], [2, 0], [0, 1]], I32)), ints(3), (3, 2)),
        _ref_scatter,
        dtypes=INTS,
    ),
    C("scatter", "slices", (fixed(np.array([[1], [0], [1]], I32)), normal(3, 4), (3, 4)), _ref_scatter, grad=(1,)),
    C("scatter", "negative", (fixed(np.array([[-1, 0], [1, -2]], I32)), normal(2), (2, 3)), _ref_scatter, grad=(1,)),
    C(
        "scatter",
        "batched-indices",
        (fixed(np.array([[[0, 0], [1, 1]], [[2, 2], [0, 0]]], np.int64)), normal(2, 2), (3, 3)),
        _ref_scatter,
        grad=(1,),
    ),
    C("scatter", "broadcast-values", (fixed(np.array([[0], [2]], I32)), normal(1, 3), (4, 3)), _ref_scatter, grad=(1,)),
    C("scatter", "no-indices", (fixed(np.zeros((0, 2), I32)), normal(0), (2, 3)), _ref_scatter, grad=(1,)),
    C(
        "scatter",
        "bool",
        (fixed(np.array([[0], [2], [0]], I32)), ints(3, low=0, high=2), (4,)),
        _ref_scatter,
        dtypes=("bool",),
    ),
    # scatter_update: replace (the last of repeated updates wins), or combine
    C(
        "scatter_update",
        "replace",
        (normal(5), fixed(np.array([[1], [3], [1]], I32)), normal(3)),
        _ref_scatter_update,
        dtypes=F32_64,
        grad=(0, 2),
    ),
    C(
        "scatter_update",
        "replace-int",
        (ints(5), fixed(np.array([[1], [3], [1]], I32)), ints(3)),
        _ref_scatter_update,
        dtypes=INTS,
    ),
    C(
        "scatter_update",
        "replace-slices",
        (normal(3, 4), fixed(np.array([[2], [0]], I32)), normal(2, 4)),
        _ref_scatter_update,
        grad=(0, 2),
    ),
    C(
        "scatter_update",
        "replace-entries",
        (normal(3, 3), fixed(np.array([[0, 0], [2, 1], [0, 0]], np.int64)), normal(3)),
        _ref_scatter_update,
        grad=(0, 2),
    ),
    C(
        "scatter_update",
        "replace-negative",
        (normal(4, 2), fixed(np.array([[-1, -2], [0, 1]], I32)), normal(2)),
        _ref_scatter_update,
        grad=(0, 2),
    ),
    C(
        "scatter_update",
        "scalar-update",
        (normal(2, 3), fixed(np.array([[1]], I32)), const(1.5)),
        _ref_scatter_update,
        grad=(0,),
    ),
    C(
        "scatter_update",
        "add",
        (normal(5, 2), fixed(np.array([[1], [3], [1], [0]], I32)), normal(4, 2)),
        _ref_scatter_update,
        dtypes=F32_64 + INTS,
        grad=(0, 2),
        reduction="add",
    ),
    C(
        "scatter_update",
        "add-upper-case",
        (normal(4), fixed(np.array([[1], [1]], I32)), normal(2)),
        _ref_scatter_update,
        reduction="ADD",
    ),
    C(
        "scatter_update",
        "max",
        (normal(5, 2), fixed(np.array([[1], [3], [1], [0]], I32)), normal(4, 2)),
        _ref_scatter_update,
        dtypes=FLOATS + INTS,
        grad=(0, 2),
        reduction="max",
    ),
    C(
        "scatter_update",
        "min",
        (normal(5, 2), fixed(np.array([[1], [3], [1], [0]], I32)), normal(4, 2)),
        _ref_scatter_update,
        dtypes=F32_64 + INTS,
        grad=(0, 2),
        reduction="min",
    ),
    C(
        "scatter_update",
        "max-nan",
        (const([1.0, np.nan, 3.0]), fixed(np.array([[0], [2]], I32)), const([np.nan, 1.0])),
        _ref_scatter_update,
        reduction="max",
    ),
    C(
        "scatter_update",
        "mul",
        (normal(5, 2), fixed(np.array([[1], [3], [1], [0]], I32)), normal(4, 2)),
        _ref_scatter_update,
        dtypes=F32_64 + INTS,
        grad=(0, 2),
        reduction="mul",
    ),
    C(
        "scatter_update",
        "mul-zeros",
        (normal(4), fixed(np.array([[1], [1], [2], [2], [2]], I32)), const([0.0, 1.5, 0.0, 0.0, -2.0])),
        _ref_scatter_update,
        grad=(0, 2),
        reduction="mul",
    ),
    C(
        "scatter_update",
        "bool",
        (ints(4, low=0, high=2), fixed(np.array([[1], [3]], I32)), ints(2, low=0, high=2)),
        _ref_scatter_update,
        dtypes=("bool",),
    ),
    # segment reductions; ids outside [0, num_segments) are dropped
    C("segment_sum", "basic", (normal(7, 2), IDS), _sum, dtypes=FLOATS + INTS, grad=(0,), num_segments=4),
    C(
        "segment_sum",
        "dropped",
        (normal(6), fixed(np.array([0, -1, 2, 5, 2, 1], I32))),
        _sum,
        grad=(0,),
        num_segments=4,
    ),
    C("segment_sum", "inferred", (normal(4, 3), fixed(np.array([1, 0, 1, 3], I32))), _sum, grad=(0,)),
    C(
        "segment_sum",
        "sorted",
        (normal(5), fixed(np.array([0, 0, 1, 3, 3], np.int64))),
        _sum,
        grad=(0,),
        num_segments=4,
        sorted=True,
    ),
    C("segment_sum", "no-rows", (normal(0, 3), fixed(np.zeros(0, I32))), _sum, grad=(0,), num_segments=2),
    C("segment_max", "basic", (normal(7, 2), IDS), _max, dtypes=FLOATS + INTS, grad=(0,), num_segments=4),
    C(
        "segment_max",
        "empty-segment",
        (normal(4), fixed(np.array([0, 0, 2, -3], I32))),
        _max,
        dtypes=F32_64 + INTS,
        num_segments=4,
    ),
    C("segment_max", "nan", (const([1.0, np.nan, 2.0, 3.0]), fixed(np.array([0, 0, 1, 1], I32))), _max),
    C("segment_max", "inferred", (normal(5), fixed(np.array([2, 0, 1, 1, 0], I32))), _max, grad=(0,)),
    C("segment_min", "basic", (normal(7, 2), IDS), _min, dtypes=F32_64 + INTS, grad=(0,), num_segments=4),
    C(
        "segment_min",
        "empty-segment",
        (normal(4), fixed(np.array([0, 0, 2, 7], I32))),
        _min,
        dtypes=F32_64 + INTS,
        num_segments=4,
    ),
    C("segment_min", "inf", (const([np.inf, 2.0, -np.inf, np.inf]), fixed(np.array([0, 0, 1, 2], I32))), _min),
    C(
        "segment_prod",
        "basic",
        (uniform(7, 2, low=0.5, high=1.5), IDS),
        _prod,
        dtypes=FLOATS,
        grad=(0,),
        num_segments=4,
    ),
    C("segment_prod", "signs", (normal(6), fixed(np.array([1, 1, 0, 1, 0, 0], I32))), _prod, grad=(0,)),
    C(
        "segment_prod",
        "zeros",
        (const([0.0, 2.0, -1.5, 0.0, 0.0, 3.0, 0.5, 0.0, -2.0]), fixed(np.array([0, 0, 0, 1, 1, 1, 2, 2, 2], I32))),
        _prod,
        grad=(0,),
    ),
    C(
        "segment_prod",
        "int",
        (ints(6, low=-3, high=4), fixed(np.array([1, 1, 0, 1, 2, 0], I32))),
        _prod,
        dtypes=INTS,
        num_segments=4,
    ),
    C(
        "segment_prod",
        "nonfinite",
        (const([np.inf, 2.0, 0.0, np.inf, np.nan, 1.0]), fixed(np.array([0, 0, 1, 1, 2, 2], I32))),
        _prod,
    ),
    # in_top_k
    C(
        "in_top_k",
        "basic",
        (fixed(np.array([0, 3, 1, 2, 4], I32)), normal(5, 6), 2),
        _ref_in_top_k,
        out=BOOL,
        dtypes=F32_64,
    ),
    C(
        "in_top_k",
        "ties",
        (fixed(np.array([1, 2, 0], I32)), const([[1, 2, 2, 0], [3, 3, 3, 3], [1, 2, 3, 4]]), 1),
        _ref_in_top_k,
        out=BOOL,
    ),
    C(
        "in_top_k",
        "nan-and-range",
        (fixed(np.array([0, 1, -1, 4], np.int64)), const([[np.nan, 1, 2], [np.nan, 1, 0], [1, 2, 3], [1, 2, 3]]), 3),
        _ref_in_top_k,
        out=BOOL,
    ),
    C("in_top_k", "k0", (fixed(np.array([0, 1], I32)), normal(2, 3), 0), _ref_in_top_k, out=BOOL),
    C(
        "in_top_k",
        "int-predictions",
        (fixed(np.array([0, 1], I32)), ints(2, 5), 2),
        _ref_in_top_k,
        out=BOOL,
        dtypes=INTS,
    ),
]
