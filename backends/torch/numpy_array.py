"""The torch engine's kernels for the array-search ops of ``contract/numpy_array.py``: ``torch.searchsorted`` (a
binary search) and ``index_add`` for ``bincount``, instead of the contract's comparison tables.

>>> from highlevel.backends.torch import TorchBackend
>>> b = TorchBackend()
>>> b.to_numpy(b.searchsorted(b.convert_to_tensor([1.0, 2.0, 3.0]), b.convert_to_tensor([2.5, 0.0]))).tolist()
[2, 0]
"""

import torch

from . import _convert as cv


def _searchable(t):
    """``t`` in a dtype ``torch.searchsorted`` takes (bool and the wide unsigned ints as int64, exactly)."""
    return t.to(torch.int64) if t.dtype == torch.bool or t.dtype in cv.WIDE_UNSIGNED else t


class TorchNumpyArrayMixin:
    """``searchsorted`` and ``bincount`` with torch kernels."""

    def searchsorted(self, sorted_sequence, values, side="left"):
        (a, v), _ = cv.promote(sorted_sequence, values)
        a, v = _searchable(a).contiguous(), _searchable(v).contiguous()
        return torch.searchsorted(a, v, side=side, out_int32=True)

    def bincount(self, x, weights=None, minlength=0, sparse=False):
        x = cv.convert(x)
        length = self._bincount_length(x, minlength)
        rows = x.shape[0] if x.ndim == 2 else 1
        flat = x.to(torch.int64)
        if x.ndim == 2:
            flat = flat + (torch.arange(rows, dtype=torch.int64, device=x.device) * length)[:, None]
        flat = flat.reshape(-1)
        shape = tuple(x.shape[:-1]) + (length,)
        if weights is None:
            return torch.bincount(flat, minlength=rows * length).to(torch.int32).reshape(shape)
        (w,), _ = cv.promote(weights, extra=(cv.DTYPE_NAMES[x.dtype],))
        out = torch.zeros((rows * length,), dtype=w.dtype, device=w.device)
        return out.index_add(0, flat, w.reshape(-1)).reshape(shape)
