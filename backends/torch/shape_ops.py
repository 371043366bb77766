"""Shape, indexing, padding and sorting ops of the torch engine, with numpy's semantics.

Where torch differs from numpy this module bridges the gap: negative slice steps (torch has none),
``split`` at indices (torch splits by sizes), ``take`` with negative indices, ``take_along_axis`` with
broadcasting, and the ``symmetric`` / ``reflect`` / ``edge`` pad modes for any rank and dtype.
"""

import numpy as np
import torch

from highlevel.backends.contract import Variable
from highlevel.backends.contract.axes import canonical_axis, every_axis, ordered_axes

from . import _convert as cv


def _index_tensor(indices, device):
    t = cv.convert(indices, device=device)
    if t.dtype in cv.FLOATS:
        raise TypeError(f"Indices must be integers; received a tensor of dtype {cv.dtype_name(t)}.")
    return t.to(device=device, dtype=torch.int64)


def _wrap_negative(idx, n):
    return torch.where(idx < 0, idx + n, idx)


def _pad_index(n, before, after, mode):
    """The source index of every output position along one axis, for a non-constant pad mode."""
    pos = torch.arange(-before, n + after)
    if mode == "edge" or n == 1:
        return pos.clamp(0, n - 1)
    if mode == "reflect":
        period = 2 * (n - 1)
        m = torch.remainder(pos, period)
        return torch.where(m < n, m, period - m)
    # symmetric: the edge is repeated, period 2n
    period = 2 * n
    m = torch.remainder(pos, period)
    return torch.where(m < n, m, period - 1 - m)


def _normalize_pad_width(pad_width, ndim):
    pw = np.asarray(pad_width.detach().cpu() if isinstance(pad_width, torch.Tensor) else pad_width, dtype=np.int64)
    if pw.ndim == 0:
        pw = np.full((ndim, 2), int(pw))
    elif pw.ndim == 1:
        if pw.shape[0] == 1:
            pw = np.full((ndim, 2), int(pw[0]))
        elif pw.shape[0] == 2:
            pw = np.tile(pw, (ndim, 1))
        else:
            raise ValueError(
                f"pad_width must be an int, a (before, after) pair or one pair per axis; received {pad_width!r}."
            )
    if pw.shape == (1, 2):
        pw = np.tile(pw, (ndim, 1))
    if pw.shape != (ndim, 2):
        raise ValueError(
            f"pad_width must give one (before, after) pair per axis of a rank-{ndim} tensor; received {pad_width!r}."
        )
    if (pw < 0).any():
        raise ValueError(f"pad_width entries must be non-negative; received {pad_width!r}.")
    return [tuple(int(v) for v in row) for row in pw]


def _is_index_array(k):
    return isinstance(k, (torch.Tensor, np.ndarray, list, Variable)) and not isinstance(k, bool)


def _normalize_key(x, key):
    """``(x', key')``: numpy key elements converted for torch, negative-step slices turned into flips."""
    if not isinstance(key, tuple):
        key = (key,)
    items = []
    for k in key:
        if isinstance(k, Variable):
            k = k.value
        if isinstance(k, (list, np.ndarray)) and not isinstance(k, bool):
            k = cv.convert(k, device=x.device)
        if isinstance(k, torch.Tensor) and k.dtype not in (torch.bool, torch.int64) and k.ndim > 0:
            k = k.to(torch.int64)
        if isinstance(k, np.integer):
            k = int(k)
        items.append(k)

    def consumed(k):
        if k is None or k is Ellipsis:
            return 0
        if isinstance(k, torch.Tensor) and k.dtype == torch.bool:
            return max(k.ndim, 1) if k.ndim else 0
        return 1

    n_ellipsis = sum(1 for k in items if k is Ellipsis)
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...').")
    used = sum(consumed(k) for k in items)
    if used > x.ndim:
        raise IndexError(f"too many indices for a tensor of rank {x.ndim}: the key uses {used} axes.")
    dim = 0
    flips = []
    out = []
    for k in items:
        if k is Ellipsis:
            dim += x.ndim - used
        elif isinstance(k, slice) and k.step is not None and cv.to_int(k.step) < 0:
            n = x.shape[dim]
            start, stop, step = slice(
                *(None if v is None else cv.to_int(v) for v in (k.start, k.stop, k.step))
            ).indices(n)
            # on the flipped axis position i is n - 1 - i: range(start, stop, step) maps to a positive step
            flips.append(dim)
            new_start = n - 1 - start
            new_stop = n - 1 - stop
            k = slice(new_start, max(new_stop, new_start), -step)
        dim += consumed(k)
        out.append(k)
    if flips:
        x = torch.flip(x, flips)
    return x, tuple(out)


def _getitem(x, key):
    x, key = _normalize_key(x, key)
    return x[key]


class TorchShapeMixin:
    """Contract shape, indexing and sorting ops on torch."""

    def reshape(self, x, newshape):
        t = cv.convert(x)
        if isinstance(newshape, (int, np.integer)):
            newshape = (int(newshape),)
        return torch.reshape(t, tuple(cv.to_int(s) for s in newshape))

    def transpose(self, x, axes=None):
        t = cv.convert(x)
        if axes is None:
            return t.permute(tuple(range(t.ndim - 1, -1, -1)))
        return t.permute(ordered_axes(axes, t.ndim))

    def swapaxes(self, x, axis1, axis2):
        t = cv.convert(x)
        return torch.swapaxes(t, canonical_axis(axis1, t.ndim), canonical_axis(axis2, t.ndim))

    def moveaxis(self, x, source, destination):
        t = cv.convert(x)
        return torch.movedim(t, ordered_axes(source, t.ndim), ordered_axes(destination, t.ndim))

    def concatenate(self, xs, axis=0):
        tensors, _ = cv.promote(*xs)
        if axis is None:
            return torch.cat([t.reshape(-1) for t in tensors])
        axis = canonical_axis(axis, tensors[0].ndim)
        return torch.cat(tensors, dim=axis)

    def stack(self, xs, axis=0):
        tensors, _ = cv.promote(*xs)
        axis = canonical_axis(axis, tensors[0].ndim + 1)
        return torch.stack(tensors, dim=axis)

    def split(self, x, indices_or_sections, axis=0):
        t = cv.convert(x)
        axis = canonical_axis(axis, t.ndim)
        if isinstance(indices_or_sections, (int, np.integer)):
            return list(torch.tensor_split(t, int(indices_or_sections), dim=axis))
        indices = [cv.to_int(i) for i in indices_or_sections]
        # tensor_split at indices has numpy's semantics (indices past the end give empty pieces)
        return list(torch.tensor_split(t, indices, dim=axis))

    def expand_dims(self, x, axis):
        t = cv.convert(x)
        axes = axis if isinstance(axis, (list, tuple)) else (axis,)
        out_ndim = t.ndim + len(axes)
        for a in sorted(canonical_axis(a, out_ndim) for a in axes):
            t = t.unsqueeze(a)
        return t

    def squeeze(self, x, axis=None):
        t = cv.convert(x)
        if axis is None:
            return t.squeeze()
        axes = every_axis(axis, t.ndim)
        return t.squeeze(axes) if axes else t

    def take(self, x, indices, axis=None):
        t = cv.convert(x)
        if axis is None:
            t = t.reshape(-1)
            axis = 0
        axis = canonical_axis(axis, t.ndim)
        idx = _index_tensor(indices, t.device)
        n = t.shape[axis]
        idx = _wrap_negative(idx, n)
        out = cv.move(lambda v: torch.index_select(v, axis, idx.reshape(-1)), t)
        return out.reshape(t.shape[:axis] + idx.shape + t.shape[axis + 1 :])

    def take_along_axis(self, x, indices, axis=None):
        t = cv.convert(x)
        idx = _index_tensor(indices, t.device)
        if axis is None:
            t = t.reshape(-1)
            axis = 0
        axis = canonical_axis(axis, t.ndim)
        if idx.ndim != t.ndim:
            raise ValueError(
                f"take_along_axis needs indices of the same rank as x; received x of shape {tuple(t.shape)} "
                f"and indices of shape {tuple(idx.shape)}."
            )
        # numpy broadcasts every axis but the gathered one; torch.gather does not broadcast
        shape = torch.broadcast_shapes(
            tuple(d for i, d in enumerate(t.shape) if i != axis),
            tuple(d for i, d in enumerate(idx.shape) if i != axis),
        )
        t_shape = list(shape)
        t_shape.insert(axis, t.shape[axis])
        i_shape = list(shape)
        i_shape.insert(axis, idx.shape[axis])
        idx = _wrap_negative(idx, t.shape[axis])
        return cv.move(lambda v: torch.gather(v.expand(t_shape), axis, idx.expand(i_shape)), t)

    def pad(self, x, pad_width, mode="constant", constant_values=None):
        t = cv.convert(x)
        widths = _normalize_pad_width(pad_width, t.ndim)
        mode = mode.lower()
        if mode == "constant":
            value = 0 if constant_values is None else constant_values
            if isinstance(value, (torch.Tensor, np.ndarray, np.generic)):
                value = value.item()
            if t.dtype == torch.bool:
                value = bool(value)
            elif t.dtype not in cv.FLOATS:
                value = int(value)  # numpy casts the fill value to the array's dtype
            if t.dtype in cv.WIDE_UNSIGNED:
                return self.pad(t.to(torch.int64), widths, mode, value).to(t.dtype)
            flat = [w for before_after in reversed(widths) for w in before_after]
            return torch.nn.functional.pad(t, flat, mode="constant", value=value)
        for axis, (before, after) in enumerate(widths):
            if before == 0 and after == 0:
                continue
            n = t.shape[axis]
            if n == 0:
                raise ValueError(f"Cannot pad an empty axis {axis} in mode {mode!r}.")
            index = _pad_index(n, before, after, mode).to(t.device)
            t = cv.move(lambda v: torch.index_select(v, axis, index), t)
        return t

    def tile(self, x, repeats):
        t = cv.convert(x)
        reps = (cv.to_int(repeats),) if not isinstance(repeats, (list, tuple)) else tuple(cv.to_int(r) for r in repeats)
        return torch.tile(t, reps)

    def repeat(self, x, repeats, axis=None):
        t = cv.convert(x)
        if axis is None:
            t = t.reshape(-1)
            axis = 0
        axis = canonical_axis(axis, t.ndim)
        if isinstance(repeats, (int, np.integer)):
            return torch.repeat_interleave(t, int(repeats), dim=axis)
        reps = _index_tensor(repeats, t.device).reshape(-1)
        if reps.numel() == 1:
            return torch.repeat_interleave(t, int(reps.item()), dim=axis)
        return torch.repeat_interleave(t, reps, dim=axis)

    def broadcast_to(self, x, shape):
        t = cv.convert(x)
        shape = (cv.to_int(shape),) if isinstance(shape, (int, np.integer)) else tuple(cv.to_int(s) for s in shape)
        return torch.broadcast_to(t, shape)

    def flip(self, x, axis=None):
        t = cv.convert(x)
        axes = every_axis(axis, t.ndim)
        return cv.move(lambda v: torch.flip(v, axes), t) if axes else t

    def getitem(self, x, key):
        t = cv.convert(x)
        return cv.move(lambda v: _getitem(v, key), t)

    def slice(self, inputs, start_indices, shape):
        t = cv.convert(inputs)
        starts = [cv.to_int(s) for s in start_indices]
        sizes = [cv.to_int(s) for s in shape]
        if len(starts) != t.ndim or len(sizes) != t.ndim:
            raise ValueError(
                f"slice needs one start and one size per axis of a rank-{t.ndim} tensor; received "
                f"start_indices={list(starts)} and shape={list(sizes)}."
            )
        return t[tuple(slice(s, s + n) for s, n in zip(starts, sizes))]

    def slice_update(self, inputs, start_indices, updates):
        t = cv.convert(inputs)
        u = cv.convert(updates, t.dtype, t.device)
        starts = [cv.to_int(s) for s in start_indices]
        if len(starts) != t.ndim or u.ndim != t.ndim:
            raise ValueError(
                f"slice_update needs one start per axis and updates of the same rank as inputs; received "
                f"inputs of shape {tuple(t.shape)}, start_indices={starts}, updates of shape {tuple(u.shape)}."
            )
        out = t.clone()  # autograd tracks the in-place write into the clone: differentiable in both
        out[tuple(slice(s, s + n) for s, n in zip(starts, u.shape))] = u
        return out

    def sort(self, x, axis=-1):
        t = cv.convert(x)
        if t.ndim == 0:
            return t
        axis = canonical_axis(axis, t.ndim)
        return cv.run(lambda v: torch.sort(v, dim=axis, stable=True).values, [t])

    def argsort(self, x, axis=-1):
        t = cv.convert(x)
        if t.ndim == 0:
            return torch.zeros((), dtype=torch.int32, device=t.device)
        axis = canonical_axis(axis, t.ndim)
        if t.dtype in cv.WIDE_UNSIGNED:
            t = t.to(torch.int64)
        return torch.sort(t, dim=axis, stable=True).indices.to(torch.int32)

    def top_k(self, x, k, sorted=True):
        t = cv.convert(x)
        k = cv.to_int(k)
        if t.ndim == 0 or not 0 <= k <= t.shape[-1]:
            raise ValueError(f"top_k needs 0 <= k <= the last axis length; received k={k} for shape {tuple(t.shape)}.")
        work = t.to(torch.int64) if t.dtype in cv.WIDE_UNSIGNED else t
        # a stable descending sort keeps the lower index first among ties (as JAX/TF), which topk does not
        values, indices = torch.sort(work, dim=-1, descending=True, stable=True)
        return values[..., :k].to(t.dtype), indices[..., :k].to(torch.int32)

    def one_hot(self, x, num_classes, axis=-1, dtype=None):
        t = cv.convert(x)
        if t.dtype.is_complex:
            raise TypeError(f"one_hot needs integer (or integral float) labels; received dtype {cv.dtype_name(t)}.")
        # float labels (integral values, as many datasets store them) count as their integer part, as the other
        # engines treat them
        num_classes = cv.to_int(num_classes)
        classes = torch.arange(num_classes, device=t.device)
        out = (t.to(torch.int64).unsqueeze(-1) == classes).to(cv.to_torch_dtype(dtype))
        axis = canonical_axis(axis, out.ndim)
        return torch.movedim(out, -1, axis) if axis != out.ndim - 1 else out
