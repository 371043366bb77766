"""Shape, joining, gathering, padding and sorting ops of the TensorFlow backend, with numpy semantics.

TensorFlow differs from numpy in several places this module papers over: ``tf.gather`` does not wrap
negative indices, ``tf.pad`` has no ``"edge"`` mode and refuses reflections wider than the tensor,
``tf.split`` knows no cut indices, and ``tensor[...]`` takes no integer arrays.
"""

import numpy as np
import tensorflow as tf

from highlevel.backends.contract import dtypes
from highlevel.backends.contract.axes import canonical_axes, canonical_axis, ordered_axes

from .convert import convert, dtype_name, promote, static_shape

_INT_KINDS = (tf.int32, tf.int64)


def _index_tensor(indices):
    """Integer indices as an int32/int64 tensor."""
    idx = convert(indices)
    if idx.dtype not in _INT_KINDS:
        if idx.dtype.is_floating or idx.dtype == tf.bool:
            raise TypeError(f"Indices must be integers; received dtype {dtype_name(idx)}.")
        idx = tf.cast(idx, tf.int64)
    return idx


def _wrap(idx, n):
    """Negative indices count from the end (``tf.gather`` would reject them)."""
    return tf.where(idx < 0, idx + tf.cast(n, idx.dtype), idx)


def _is_array_key(k):
    if isinstance(k, (list, np.ndarray)):
        return True
    if isinstance(k, (tf.Tensor, tf.Variable)):
        return k.shape.rank is None or k.shape.rank > 0 or k.dtype == tf.bool
    return False


def _is_int_key(k):
    if isinstance(k, (bool, np.bool_)):
        return False
    if isinstance(k, (int, np.integer)):
        return True
    return isinstance(k, (tf.Tensor, tf.Variable)) and k.shape.rank == 0 and k.dtype.is_integer


def _pad_width(pad_width, ndim):
    arr = np.asarray(pad_width, dtype=np.int64)
    if arr.ndim == 0:
        arr = np.full((ndim, 2), int(arr))
    elif arr.ndim == 1:
        arr = np.broadcast_to(arr.reshape(-1)[None, :] if arr.size == 2 else arr[:, None], (ndim, 2))
    elif arr.shape == (1, 2):
        arr = np.broadcast_to(arr, (ndim, 2))
    if arr.shape != (ndim, 2) or (arr < 0).any():
        raise ValueError(
            f"pad_width must be an int, a (before, after) pair or one pair per axis of "
            f"non-negative ints for a tensor of rank {ndim}; received {pad_width!r}."
        )
    return [[int(a), int(b)] for a, b in arr]


def _axis_size(x, axis):
    """The static size of the one axis a non-constant pad needs (the other axes may be unknown, e.g. the batch
    axis inside a ``tf.data`` map)."""
    n = x.shape[axis]
    if n is None:
        raise ValueError(
            f"Padding with a non-constant mode needs the size of the padded axis {axis}; received shape {x.shape}. "
            "Give tf.function an input_signature with that axis known."
        )
    return n


class ShapeOps:
    """reshape, transpose, joining/splitting, gathering, where, pad, tile, getitem, sort, one_hot."""

    def reshape(self, x, newshape):
        x = convert(x)
        if isinstance(newshape, (int, np.integer)):
            newshape = [int(newshape)]
        return tf.reshape(x, newshape)

    def transpose(self, x, axes=None):
        x = convert(x)
        if axes is None:
            return tf.transpose(x)
        return tf.transpose(x, [canonical_axis(a, x.shape.rank) for a in axes])

    def swapaxes(self, x, axis1, axis2):
        x = convert(x)
        n = x.shape.rank
        perm = list(range(n))
        a, b = canonical_axis(axis1, n), canonical_axis(axis2, n)
        perm[a], perm[b] = perm[b], perm[a]
        return tf.transpose(x, perm)

    def moveaxis(self, x, source, destination):
        x = convert(x)
        n = x.shape.rank
        src, dst = ordered_axes(source, n), ordered_axes(destination, n)
        order = [a for a in range(n) if a not in src]
        for d, s in sorted(zip(dst, src)):
            order.insert(d, s)
        return tf.transpose(x, order)

    def concatenate(self, xs, axis=0):
        xs = promote(*xs)
        if axis is None:
            return tf.concat([tf.reshape(x, [-1]) for x in xs], axis=0)
        return tf.concat(list(xs), axis=canonical_axis(axis, xs[0].shape.rank))

    def stack(self, xs, axis=0):
        xs = promote(*xs)
        return tf.stack(list(xs), axis=canonical_axis(axis, xs[0].shape.rank + 1))

    def split(self, x, indices_or_sections, axis=0):
        x = convert(x)
        axis = canonical_axis(axis, x.shape.rank)
        if isinstance(indices_or_sections, (int, np.integer)):
            return tf.split(x, int(indices_or_sections), axis=axis)
        # only the split axis needs a known size (the batch axis of a traced function may be open)
        n = x.shape[axis] if x.shape[axis] is not None else static_shape(x)[axis]
        cuts = [0] + [int(i) for i in indices_or_sections] + [n]
        lead = (slice(None),) * axis
        # np.split slices x[a:b] between consecutive cuts, with Python slice semantics.
        out = [x[lead + (slice(a, b),)] for a, b in zip(cuts[:-1], cuts[1:])]
        return out

    def expand_dims(self, x, axis):
        x = convert(x)
        axes = [axis] if isinstance(axis, (int, np.integer)) else list(axis)
        out_rank = x.shape.rank + len(axes)
        for a in sorted(canonical_axis(a, out_rank) for a in axes):
            x = tf.expand_dims(x, a)
        return x

    def squeeze(self, x, axis=None):
        x = convert(x)
        if axis is None:
            return tf.squeeze(x)
        return tf.squeeze(x, canonical_axes(axis, x.shape.rank))

    def take(self, x, indices, axis=None):
        x = convert(x)
        idx = _index_tensor(indices)
        if axis is None:
            x, axis = tf.reshape(x, [-1]), 0
        axis = canonical_axis(axis, x.shape.rank)
        n = x.shape[axis] if x.shape[axis] is not None else tf.shape(x, out_type=idx.dtype)[axis]
        return tf.gather(x, _wrap(idx, n), axis=axis)

    def take_along_axis(self, x, indices, axis=None):
        x = convert(x)
        idx = _index_tensor(indices)
        if axis is None:
            x, idx, axis = tf.reshape(x, [-1]), tf.reshape(idx, [-1]), 0
        rank = x.shape.rank
        if idx.shape.rank != rank:
            raise ValueError(
                f"take_along_axis: indices must have the rank of x ({rank}); received shape "
                f"{tuple(idx.shape.as_list())}."
            )
        axis = canonical_axis(axis, rank)
        if not (x.shape.is_fully_defined() and idx.shape.is_fully_defined()):
            return self._take_along_axis_dynamic(x, idx, axis)
        xs, js = static_shape(x), static_shape(idx)
        # numpy broadcasts every axis but the gathered one.
        common = [max(a, b) if d != axis else None for d, (a, b) in enumerate(zip(xs, js))]
        x = tf.broadcast_to(x, [c if c is not None else xs[axis] for c in common])
        idx = tf.broadcast_to(_wrap(idx, xs[axis]), [c if c is not None else js[axis] for c in common])
        perm = [d for d in range(rank) if d != axis] + [axis]
        inv = list(np.argsort(perm))
        out = tf.gather(tf.transpose(x, perm), tf.transpose(idx, perm), axis=rank - 1, batch_dims=rank - 1)
        return tf.transpose(out, inv)

    @staticmethod
    def _take_along_axis_dynamic(x, idx, axis):
        """take_along_axis for sizes known only when the graph runs (a batch of a tf.data pipeline)."""
        rank = x.shape.rank
        xs, js = tf.shape(x, out_type=idx.dtype), tf.shape(idx, out_type=idx.dtype)
        at = [[axis]]
        one = tf.ones((1,), idx.dtype)
        common = tf.broadcast_dynamic_shape(
            tf.tensor_scatter_nd_update(xs, at, one), tf.tensor_scatter_nd_update(js, at, one)
        )
        x = tf.broadcast_to(x, tf.tensor_scatter_nd_update(common, at, xs[axis : axis + 1]))
        idx = tf.broadcast_to(_wrap(idx, xs[axis]), tf.tensor_scatter_nd_update(common, at, js[axis : axis + 1]))
        perm = [d for d in range(rank) if d != axis] + [axis]
        inv = list(np.argsort(perm))
        out = tf.gather(tf.transpose(x, perm), tf.transpose(idx, perm), axis=rank - 1, batch_dims=rank - 1)
        return tf.transpose(out, inv)

    def where(self, condition, x1=None, x2=None):
        cond = convert(condition)
        if cond.dtype != tf.bool:
            cond = tf.not_equal(cond, tf.zeros((), cond.dtype))
        if x1 is None and x2 is None:
            coords = tf.cast(tf.where(cond), tf.int32)
            return tuple(coords[:, i] for i in range(cond.shape.rank))
        if x1 is None or x2 is None:
            raise ValueError("where() needs both x1 and x2, or neither (then it returns the indices of True).")
        a, b = promote(x1, x2)
        return tf.where(cond, a, b)

    def pad(self, x, pad_width, mode="constant", constant_values=None):
        x = convert(x)
        widths = _pad_width(pad_width, x.shape.rank)
        if mode == "constant":
            value = 0 if constant_values is None else constant_values
            return tf.pad(x, widths, constant_values=convert(value, dtype_name(x)))
        for axis, (before, after) in enumerate(widths):
            x = self._pad_axis(x, axis, before, after, mode)
        return x

    @staticmethod
    def _pad_axis(x, axis, before, after, mode):
        if before == 0 and after == 0:
            return x
        n = _axis_size(x, axis)
        key = [slice(None)] * axis
        if mode == "edge":
            if n == 0:
                raise ValueError("pad mode 'edge' cannot pad an empty axis.")
            first = x[tuple(key + [slice(0, 1)])]
            last = x[tuple(key + [slice(n - 1, n)])]
            reps = [1] * x.shape.rank
            parts = []
            if before:
                reps[axis] = before
                parts.append(tf.tile(first, reps))
            parts.append(x)
            if after:
                reps[axis] = after
                parts.append(tf.tile(last, reps))
            return tf.concat(parts, axis=axis)
        tf_mode = mode.upper()
        # MirrorPad reflects at most once; wider pads reflect the already padded tensor again (as numpy does).
        limit_of = (lambda m: m - 1) if mode == "reflect" else (lambda m: m)
        if limit_of(n) <= 0 and (before or after):
            if mode == "reflect" and n == 1:
                return ShapeOps._pad_axis(x, axis, before, after, "edge")
            raise ValueError(f"pad mode {mode!r} cannot pad an axis of size {n}.")
        while before or after:
            size = _axis_size(x, axis)
            limit = limit_of(n)
            b = min(before, limit)
            a = min(after, limit)
            widths = [[0, 0] for _ in range(x.shape.rank)]
            widths[axis] = [b, a]
            x = tf.pad(x, widths, mode=tf_mode)
            before, after = before - b, after - a
            n = size + b + a
        return x

    def tile(self, x, repeats):
        x = convert(x)
        reps = [int(repeats)] if isinstance(repeats, (int, np.integer)) else [int(r) for r in repeats]
        rank = x.shape.rank
        if len(reps) > rank:
            x = tf.reshape(x, [1] * (len(reps) - rank) + list(static_shape(x)))
        elif len(reps) < rank:
            reps = [1] * (rank - len(reps)) + reps
        return tf.tile(x, reps)

    def repeat(self, x, repeats, axis=None):
        x = convert(x)
        if axis is None:
            x, axis = tf.reshape(x, [-1]), 0
        if not isinstance(repeats, (int, np.integer)):
            repeats = _index_tensor(repeats)
        return tf.repeat(x, repeats, axis=canonical_axis(axis, x.shape.rank))

    def broadcast_to(self, x, shape):
        shape = [int(shape)] if isinstance(shape, (int, np.integer)) else list(shape)
        return tf.broadcast_to(convert(x), shape)

    def flip(self, x, axis=None):
        x = convert(x)
        axes = list(range(x.shape.rank)) if axis is None else canonical_axes(axis, x.shape.rank)
        return tf.reverse(x, axes)

    # ------------------------------------------------------------------ indexing
    def getitem(self, x, key):
        x = convert(x)
        if not isinstance(key, tuple):
            key = (key,)
        arrays = [i for i, k in enumerate(key) if _is_array_key(k)]
        if not arrays:
            return x[key]
        if len(arrays) > 1:
            raise IndexError(
                "getitem supports integer-array indexing on one axis only; index the axes one at a time with take()."
            )
        pos = arrays[0]
        idx = key[pos]
        idx_t = convert(idx) if not isinstance(idx, (tf.Tensor, tf.Variable)) else tf.convert_to_tensor(idx)
        if idx_t.dtype == tf.bool:
            if len(key) != 1:
                raise IndexError("A boolean mask index must be the whole key (x[mask]).")
            return tf.boolean_mask(x, idx_t)
        idx_t = _index_tensor(idx_t)
        # Expand the Ellipsis so that every entry's axis is known.
        n_consuming = sum(1 for k in key if k is not None and k is not Ellipsis)
        expanded = []
        for k in key:
            if k is Ellipsis:
                expanded.extend([slice(None)] * (x.shape.rank - n_consuming))
            else:
                expanded.append(k)
        if not any(k is Ellipsis for k in key):
            expanded.extend([slice(None)] * (x.shape.rank - n_consuming))
        pos = next(i for i, k in enumerate(expanded) if _is_array_key(k))
        src_axis = sum(1 for k in expanded[:pos] if k is not None)
        out_axis = sum(1 for k in expanded[:pos] if not _is_int_key(k))
        # Gather first (on the source axis), then apply the basic part of the key around it.
        n = x.shape[src_axis] if x.shape[src_axis] is not None else tf.shape(x, out_type=idx_t.dtype)[src_axis]
        gathered = tf.gather(x, _wrap(idx_t, n), axis=src_axis)
        k_rank = idx_t.shape.rank
        rest = expanded[:pos] + [slice(None)] * k_rank + expanded[pos + 1 :]
        out = gathered[tuple(rest)]
        # numpy puts the indexed dims first when advanced indices (the array and ints) are not adjacent.
        adv = [i for i, k in enumerate(expanded) if _is_array_key(k) or _is_int_key(k)]
        if adv and adv[-1] - adv[0] + 1 != len(adv) and out_axis != 0:
            perm = list(range(out.shape.rank))
            moved = perm[out_axis : out_axis + k_rank]
            del perm[out_axis : out_axis + k_rank]
            out = tf.transpose(out, moved + perm)
        return out

    def slice(self, inputs, start_indices, shape):
        x = convert(inputs)
        if isinstance(start_indices, (tf.Tensor, tf.Variable)):
            begin = tf.cast(start_indices, tf.int32)
        else:
            begin = [s if isinstance(s, (tf.Tensor, tf.Variable)) else int(s) for s in start_indices]
        return tf.slice(x, begin, [int(s) for s in shape])

    def slice_update(self, inputs, start_indices, updates):
        x = convert(inputs)
        u = convert(updates, dtype_name(x))
        xs, us = static_shape(x), static_shape(u)
        if len(us) != len(xs):
            raise ValueError(f"slice_update: updates of rank {len(us)} for inputs of rank {len(xs)}.")
        if any(b > a for a, b in zip(xs, us)):
            raise ValueError(f"slice_update: updates of shape {us} do not fit in inputs of shape {xs}.")
        ranges = []
        for d, (s, n, m) in enumerate(zip(list(start_indices), xs, us)):
            # Starts are clamped so the block fits, as jax.lax.dynamic_update_slice does.
            if isinstance(s, (tf.Tensor, tf.Variable)):
                s = tf.clip_by_value(tf.cast(s, tf.int32), 0, n - m)
            else:
                s = min(max(int(s), 0), n - m)
            ranges.append(tf.range(m, dtype=tf.int32) + s)
        if not ranges:
            return u
        grid = tf.stack(tf.meshgrid(*ranges, indexing="ij"), axis=-1)
        # tensor_scatter_nd_update is differentiable in both the tensor and the updates.
        return tf.tensor_scatter_nd_update(x, grid, u)

    # -------------------------------------------------------------------- sorting
    def sort(self, x, axis=-1):
        x = convert(x)
        axis = canonical_axis(axis, x.shape.rank)
        if x.dtype == tf.bool:
            return tf.cast(tf.sort(tf.cast(x, tf.int8), axis=axis), tf.bool)
        return tf.sort(x, axis=axis)

    def argsort(self, x, axis=-1):
        x = convert(x)
        if x.dtype == tf.bool:
            x = tf.cast(x, tf.int8)
        axis = canonical_axis(axis, x.shape.rank)
        return tf.argsort(x, axis=axis, stable=True)

    def top_k(self, x, k, sorted=True):
        x = convert(x)
        back = None
        if x.dtype == tf.bool:
            x, back = tf.cast(x, tf.int8), tf.bool
        values, indices = tf.math.top_k(x, k=int(k), sorted=sorted)
        if back is not None:
            values = tf.cast(values, back)
        return values, tf.cast(indices, tf.int32)

    def one_hot(self, x, num_classes, axis=-1, dtype=None):
        x = convert(x)
        if x.dtype not in (tf.int32, tf.int64, tf.uint8):
            x = tf.cast(x, tf.int64)
        # tf.one_hot already gives an all-zeros row for labels outside [0, num_classes).
        return tf.one_hot(x, int(num_classes), axis=axis, dtype=dtypes.standardize_dtype(dtype))
