"""Shape, indexing and ordering ops of the native engine.

Views (reshape, transpose, basic slicing) share memory with their input: that is safe because in-place
updates in this engine rebind a tensor's buffer instead of writing into it. Gathers (take, getitem with an
index array, take_along_axis, top_k) scatter their gradient back with ``add.at`` so repeated indices add up.

>>> from highlevel.backends.native.tensor import Tensor
>>> reshape(Tensor([1, 2, 3, 4]), (2, -1)).shape
(2, 2)
>>> Tensor([[1, 2], [3, 4]])[:, 0].numpy().tolist()
[1, 3]
"""

import builtins

import numpy as np

from highlevel.backends.contract import Variable, dtypes
from highlevel.backends.contract.axes import canonical_axes, canonical_axis, ordered_axes

from .autograd import linear, record, unbroadcast
from .convert import promote, to_tensor
from .tensor import Tensor, xp_dtype
from .xp import ndarray, on_gpu, scatter_add, xp

_py_slice = builtins.slice  # this module defines the contract op `slice`


def _ints(seq):
    """A sequence of Python ints from ints, tensors or arrays."""
    if isinstance(seq, (Tensor, Variable, ndarray, np.ndarray)):
        seq = to_tensor(seq).data.tolist()
    if isinstance(seq, (int, np.integer)):
        return (int(seq),)
    return tuple(int(s) for s in seq)


def reshape(x, newshape):
    """``x`` with a new shape; one dimension may be -1."""
    x = to_tensor(x)
    xd = x.data
    shape = xd.shape
    if isinstance(newshape, (int, np.integer)):
        newshape = (int(newshape),)
    else:
        newshape = tuple(-1 if d is None else int(d) for d in newshape)
    try:
        yd = xd.reshape(newshape)
    except ValueError:
        raise ValueError(f"Cannot reshape a tensor of shape {shape} ({xd.size} entries) to {newshape}.") from None

    def backward(g, out=None):  # Tensor.reshape records: the same expression in both modes
        return (g.reshape(shape),)

    return record(yd, (x,), backward, (), "reshape")


def transpose(x, axes=None):
    """Permutes the axes (reverses them when ``axes`` is None)."""
    x = to_tensor(x)
    xd = x.data
    if axes is None:
        axes = tuple(range(xd.ndim - 1, -1, -1))
    else:
        axes = ordered_axes(axes, xd.ndim)
    if axes == tuple(range(xd.ndim)):  # the identity (e.g. moveaxis(x, -1, -1)): nothing to record
        return x
    inverse = tuple(np.argsort(axes).tolist())

    def backward(g, out=None):
        return (g.transpose(inverse) if out is None else transpose(g, inverse),)

    return record(xd.transpose(axes), (x,), backward, (), "transpose")


def swapaxes(x, axis1, axis2):
    """Interchanges two axes."""
    x = to_tensor(x)
    perm = list(range(x.ndim))
    a, b = canonical_axis(axis1, x.ndim), canonical_axis(axis2, x.ndim)
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, perm)


def moveaxis(x, source, destination):
    """Moves axes to new positions (as ``numpy.moveaxis``)."""
    x = to_tensor(x)
    src, dst = ordered_axes(source, x.ndim), ordered_axes(destination, x.ndim)
    order = [a for a in range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)


def concatenate(xs, axis=0):
    """Joins tensors along an existing axis (dtypes promoted)."""
    ts, _ = promote(list(xs))
    datas = [t.data for t in ts]
    axis = canonical_axis(axis, datas[0].ndim)
    yd = xp.concatenate(datas, axis=axis)
    bounds = np.cumsum([d.shape[axis] for d in datas])[:-1].tolist()

    def backward(g, out=None):
        if out is None:
            return tuple(xp.split(g, bounds, axis=axis))
        edges = [0] + bounds + [g.shape[axis]]
        return tuple(_slice_axis(g, lo, hi, axis) for lo, hi in zip(edges[:-1], edges[1:]))

    return record(yd, tuple(ts), backward, (), "concatenate")


def stack(xs, axis=0):
    """Joins tensors along a new axis (dtypes promoted)."""
    ts, _ = promote(list(xs))
    datas = [t.data for t in ts]
    axis = canonical_axis(axis, datas[0].ndim + 1)
    yd = xp.stack(datas, axis=axis)

    def backward(g, out=None):
        if out is None:
            return tuple(xp.take(g, i, axis=axis) for i in range(len(datas)))
        return tuple(getitem(g, (_py_slice(None),) * axis + (i,)) for i in range(len(datas)))

    return record(yd, tuple(ts), backward, (), "stack")


def _slice_axis(x, start, stop, axis):
    key = (_py_slice(None),) * axis + (_py_slice(start, stop),)
    return getitem(x, key)


def split(x, indices_or_sections, axis=0):
    """A list of sub-tensors: ``n`` equal sections (int), or cuts at the given indices."""
    x = to_tensor(x)
    axis = canonical_axis(axis, x.ndim)
    n = x.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)):
        k = int(indices_or_sections)
        cuts = [i * (n // k) for i in range(1, k)]
    else:
        cuts = list(_ints(indices_or_sections))
    edges = [0] + cuts + [n]
    return [_slice_axis(x, a, b, axis) for a, b in zip(edges[:-1], edges[1:])]


def expand_dims(x, axis):
    """Inserts size-1 axes at ``axis`` (an int or a tuple)."""
    x = to_tensor(x)
    axes = _ints(axis)
    out_ndim = x.ndim + len(axes)
    axes = sorted(canonical_axes(axes, out_ndim))
    shape = list(x.shape)
    for a in axes:
        shape.insert(a, 1)
    return reshape(x, tuple(shape))


def squeeze(x, axis=None):
    """Removes size-1 axes: all of them, or those in ``axis``."""
    x = to_tensor(x)
    if axis is None:
        shape = tuple(d for d in x.shape if d != 1)
    else:
        axes = canonical_axes(_ints(axis), x.ndim)
        shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    return reshape(x, shape)


def _index_array(indices):
    idx = to_tensor(indices).data
    if idx.dtype.kind not in "iu":
        if idx.dtype.kind == "b":
            raise TypeError("Boolean indices are not supported here; use where or getitem with a mask.")
        idx = idx.astype(xp.int64)
    return idx


def take(x, indices, axis=None):
    """Entries at integer ``indices`` along ``axis`` (the flattened tensor when None).

    An index outside ``[-n, n)`` raises IndexError on the CPU; on a GPU (CuPy) indices are not read on the host,
    and such an entry is a fill value (NaN for floats) with no gradient, as in ``jax.numpy.take``.
    """
    x = to_tensor(x)
    idx = _index_array(indices)
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    axis = canonical_axis(axis, x.ndim)
    xd = x.data
    n = xd.shape[axis]
    outside = None
    if on_gpu:
        # No host read of the indices (it would synchronise the step): out-of-range ones gather a fill value
        # and get no gradient, as jax.numpy.take's default mode does (NaN for floats).
        outside = (idx < -n) | (idx >= n)
        idx = xp.where(outside, 0, idx)
        outside = outside.reshape((1,) * axis + outside.shape + (1,) * (xd.ndim - axis - 1))
    elif idx.size and (int(idx.min()) < -n or int(idx.max()) >= n):
        raise IndexError(
            f"take: indices must be in [-{n}, {n}) for axis {axis} of shape {xd.shape}; "
            f"received values in [{int(idx.min())}, {int(idx.max())}]."
        )
    yd = xp.take(xd, idx, axis=axis)
    if outside is not None:
        yd = xp.where(outside, _fill_value(xd.dtype), yd)
    shape, dt = xd.shape, xd.dtype

    def gather(a):
        a = xp.take(a, idx, axis=axis)
        return a if outside is None else xp.where(outside, dt.type(0), a)

    def backward(g, out=None):
        if out is not None:  # the scatter below as a linear op, whose own gradient is the gather
            return (linear(g, lambda a: backward(a)[0], gather, "take_transpose", "take"),)
        gx = xp.zeros(shape, dt)
        if outside is not None:
            g = xp.where(outside, dt.type(0), g)
        scatter_add(gx, (_py_slice(None),) * axis + (idx,), g)
        return (gx,)

    return record(yd, (x,), backward, (), "take")


def _fill_value(dt):
    """What an out-of-range gather gives on a GPU (jax.numpy.take's fill values): NaN, the integer
    type's minimum (maximum if unsigned), True."""
    if dt.kind == "f":
        return dt.type(xp.nan)
    if dt.kind == "i":
        return dt.type(xp.iinfo(dt).min)
    if dt.kind == "u":
        return dt.type(xp.iinfo(dt).max)
    return dt.type(True)


def _along_axis_index(idx, shape, axis):
    """The full index tuple that ``take_along_axis(x, idx, axis)`` reads (for scattering back)."""
    grids = []
    for d in range(len(shape)):
        if d == axis:
            grids.append(idx)
        else:
            s = [1] * len(shape)
            s[d] = idx.shape[d]
            grids.append(xp.arange(idx.shape[d]).reshape(s))
    return tuple(xp.broadcast_arrays(*grids))


def take_along_axis(x, indices, axis=None):
    """Gathers with an index tensor of the rank of ``x``, as numpy; differentiable in ``x``."""
    x = to_tensor(x)
    idx = _index_array(indices)
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    axis = canonical_axis(axis, x.ndim)
    xd = x.data
    # broadcast the non-axis dimensions of x and the indices against each other, as numpy does
    bshape = list(
        np.broadcast_shapes(
            tuple(d for i, d in enumerate(xd.shape) if i != axis),
            tuple(d for i, d in enumerate(idx.shape) if i != axis),
        )
    )
    xs, isz = list(bshape), list(bshape)
    xs.insert(axis, xd.shape[axis])
    isz.insert(axis, idx.shape[axis])
    if tuple(xs) != xd.shape:
        x = broadcast_to(x, tuple(xs))
        xd = x.data
    idx = xp.broadcast_to(idx, tuple(isz))
    idx = xp.where(idx < 0, idx + xd.shape[axis], idx)
    yd = xp.take_along_axis(xd, idx, axis=axis)
    shape, dt = xd.shape, xd.dtype

    def backward(g, out=None):
        if out is not None:
            return (
                linear(
                    g,
                    lambda a: backward(a)[0],
                    lambda a: xp.take_along_axis(a, idx, axis=axis),
                    "take_along_axis_transpose",
                    "take_along_axis",
                ),
            )
        gx = xp.zeros(shape, dt)
        if idx.shape[axis] == 1 and not on_gpu:
            # one pick per line (e.g. the label's log-probability): no index repeats, so a plain
            # put is exact and far cheaper than the accumulating scatter
            xp.put_along_axis(gx, idx, g, axis=axis)
        else:
            scatter_add(gx, _along_axis_index(idx, shape, axis), g)
        return (gx,)

    return record(yd, (x,), backward, (), "take_along_axis")


def pad(x, pad_width, mode="constant", constant_values=None):
    """Pads with ``((before, after), ...)`` per axis; modes constant, reflect, symmetric, edge."""
    x = to_tensor(x)
    xd = x.data
    pw = np.broadcast_to(
        np.asarray(pad_width, dtype=np.int64).reshape(-1, 2) if np.ndim(pad_width) else np.full((1, 2), int(pad_width)),
        (xd.ndim, 2),
    ).tolist()
    if mode == "constant":
        cv = 0 if constant_values is None else constant_values
        yd = xp.pad(xd, pw, mode="constant", constant_values=xp.asarray(cv).astype(xd.dtype))
        key = tuple(_py_slice(b, b + n) for (b, _), n in zip(pw, xd.shape))

        def crop(g, out=None):  # getitem records on a Tensor: the same expression in both modes
            return (g[key],)

        return record(yd, (x,), crop, (), "pad")
    yd = xp.pad(xd, pw, mode=mode)
    shape, size = xd.shape, xd.size

    def backward(g, out=None):
        if out is not None:
            return (linear(g, lambda a: backward(a)[0], lambda a: xp.pad(a, pw, mode=mode), "pad_transpose", "pad"),)
        # which input entry each output entry copies: pad the entry numbers the same way, then sum
        src = xp.pad(xp.arange(size).reshape(shape), pw, mode=mode)
        gx = xp.bincount(src.ravel(), weights=g.ravel().astype(xp.float64), minlength=size)
        return (gx.reshape(shape).astype(g.dtype),)

    return record(yd, (x,), backward, (), "pad")


def tile(x, repeats):
    """Repeats the whole tensor ``repeats`` times per axis (as ``numpy.tile``)."""
    x = to_tensor(x)
    reps = _ints(repeats)
    d = builtins.max(x.ndim, len(reps))
    xshape = (1,) * (d - x.ndim) + x.shape
    reps = (1,) * (d - len(reps)) + reps
    xd = x.data
    yd = xp.tile(xd, reps)
    orig = xd.shape

    def backward(g, out=None):  # reshape and sum record on a Tensor: the same expression in both modes
        inter = [v for pair in zip(reps, xshape) for v in pair]
        return (g.reshape(inter).sum(axis=tuple(range(0, 2 * d, 2))).reshape(orig),)

    return record(yd, (x,), backward, (), "tile")


def repeat(x, repeats, axis=None):
    """Repeats each element ``repeats`` times (an int or one count per entry) along ``axis``."""
    x = to_tensor(x)
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    axis = canonical_axis(axis, x.ndim)
    xd = x.data
    reps = repeats if isinstance(repeats, (int, np.integer)) else to_tensor(repeats).data
    yd = xp.repeat(xd, reps, axis=axis)
    shape, dt = xd.shape, xd.dtype

    def backward(g, out=None):
        if out is not None:
            return (
                linear(
                    g, lambda a: backward(a)[0], lambda a: xp.repeat(a, reps, axis=axis), "repeat_transpose", "repeat"
                ),
            )
        src = xp.repeat(xp.arange(shape[axis]), reps)
        gx = xp.zeros(shape, dt)
        scatter_add(gx, (_py_slice(None),) * axis + (src,), g)
        return (gx,)

    return record(yd, (x,), backward, (), "repeat")


def broadcast_to(x, shape):
    """``x`` broadcast to ``shape``."""
    x = to_tensor(x)
    xd = x.data
    shape = _ints(shape)
    yd = xp.broadcast_to(xd, shape)
    s = xd.shape

    def backward(g, out=None):  # unbroadcast works on Tensors too
        return (unbroadcast(g, s),)

    return record(yd, (x,), backward, (), "broadcast_to")


def flip(x, axis=None):
    """Reverses the order of entries along ``axis`` (all axes when None)."""
    x = to_tensor(x)
    axes = canonical_axes(axis if axis is None else _ints(axis), x.ndim)

    def backward(g, out=None):
        return (xp.flip(g, axis=axes) if out is None else flip(g, axes),)

    return record(xp.flip(x.data, axis=axes), (x,), backward, (), "flip")


# ------------------------------------------------------------------------- indexing
def _normalize_key(key):
    """The key with tensors/lists as xp index arrays (0-d ones as ints, masks as their positions)."""
    if not isinstance(key, tuple):
        key = (key,)
    out, advanced = [], False
    for k in key:
        if isinstance(k, (Tensor, Variable)):
            k = to_tensor(k).data
        elif isinstance(k, list) or (on_gpu and isinstance(k, np.ndarray)):
            k = xp.asarray(k)
        if isinstance(k, (ndarray, np.ndarray)):
            if k.dtype.kind == "b":
                out.extend(xp.nonzero(k))
                advanced = True
                continue
            if k.ndim == 0:
                k = int(k)
            else:
                advanced = True
        out.append(k)
    return tuple(out), advanced


def getitem(x, key):
    """``x[key]``: basic indexing (ints, slices, None, Ellipsis) and integer-array indices."""
    x = to_tensor(x)
    key, advanced = _normalize_key(key)
    xd = x.data
    try:
        yd = xd[key]
    except IndexError as e:
        raise IndexError(f"Index {key} is invalid for a tensor of shape {xd.shape}: {e}") from None
    shape, dt = xd.shape, xd.dtype

    def backward(g, out=None):
        if out is not None:
            return (linear(g, lambda a: backward(a)[0], lambda a: a[key], "getitem_transpose", "getitem"),)
        gx = xp.zeros(shape, dt)
        if advanced:
            scatter_add(gx, key, g)
        else:
            gx[key] = g
        return (gx,)

    return record(yd, (x,), backward, (), "getitem")


def slice(inputs, start_indices, shape):  # noqa: A001 - the contract's name
    """The block of ``shape`` starting at ``start_indices``."""
    starts = _ints(start_indices)
    sizes = _ints(shape)
    x = to_tensor(inputs)
    key = tuple(_py_slice(s, s + (n if n >= 0 else d - s)) for s, n, d in zip(starts, sizes, x.shape))
    return getitem(x, key)


def slice_update(inputs, start_indices, updates):
    """A copy of ``inputs`` with the block at ``start_indices`` replaced by ``updates``."""
    x = to_tensor(inputs)
    u = to_tensor(updates, x.dtype)
    starts = _ints(start_indices)
    key = tuple(_py_slice(s, s + n) for s, n in zip(starts, u.shape))
    yd = x.data.copy()
    yd[key] = u.data

    def backward(g, out=None):
        gx = None
        if x.requires_grad:
            if out is None:
                gx = g.copy()
                gx[key] = 0
            else:
                gx = slice_update(g, starts, Tensor(xp.zeros(u.data.shape, g.data.dtype)))
        return gx, (g[key] if u.requires_grad else None)

    return record(yd, (x, u), backward, (), "slice_update")


# ------------------------------------------------------------------------- ordering
def _permutation_gather(x, idx, axis, name):
    """``take_along_axis(x, idx)`` for an ``idx`` that permutes (part of) each slice: no duplicates."""
    xd = x.data
    yd = xp.take_along_axis(xd, idx, axis=axis)
    shape, dt = xd.shape, xd.dtype

    def backward(g, out=None):
        if out is not None:
            return (
                linear(
                    g,
                    lambda a: backward(a)[0],
                    lambda a: xp.take_along_axis(a, idx, axis=axis),
                    name + "_transpose",
                    name,
                ),
            )
        gx = xp.zeros(shape, dt)
        gx[_along_axis_index(idx, shape, axis)] = g
        return (gx,)

    return record(yd, (x,), backward, (), name)


def argsort(x, axis=-1):
    """Indices (int32) that sort ``x`` along ``axis``; stable."""
    xd = to_tensor(x).data
    if axis is None:
        xd, axis = xd.ravel(), 0
    return Tensor(xp.argsort(xd, axis=axis, kind="stable").astype(xp.int32))


def sort(x, axis=-1):
    """Sorted copy along ``axis`` (ascending); the gradient follows each entry to its place."""
    x = to_tensor(x)
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    axis = canonical_axis(axis, x.ndim)
    idx = xp.argsort(x.data, axis=axis, kind="stable")
    return _permutation_gather(x, idx, axis, "sort")


def top_k(x, k, sorted=True):  # noqa: A002 - the contract's name
    """``(values, indices)`` of the ``k`` largest entries along the last axis (ties: lower index first)."""
    x = to_tensor(x)
    xd = x.data
    k = int(k)
    if not 0 <= k <= xd.shape[-1]:
        raise ValueError(f"top_k: k={k} must be in [0, {xd.shape[-1]}] for a last axis of size {xd.shape[-1]}.")
    key = xd if xd.dtype.kind == "f" or str(xd.dtype) == "bfloat16" else xd.astype(xp.int64)
    idx = xp.argsort(-key, axis=-1, kind="stable")[..., :k]
    values = _permutation_gather(x, idx, xd.ndim - 1, "top_k")
    return values, Tensor(idx.astype(xp.int32))


def one_hot(x, num_classes, axis=-1, dtype=None):
    """One-hot encoding of integer labels (floatx by default); out-of-range labels give all zeros."""
    xd = to_tensor(x).data
    dt = xp_dtype(dtypes.standardize_dtype(dtype))
    out = (xd[..., None] == xp.arange(int(num_classes))).astype(dt)
    if axis != -1:
        out = xp.moveaxis(out, -1, canonical_axis(axis, out.ndim))
    return Tensor(out)
