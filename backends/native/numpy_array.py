"""The native engine's kernels for the array-search ops of ``contract/numpy_array.py``: a binary search for
``searchsorted`` and a scatter-add for ``bincount`` (the contract's generic definitions count comparisons and
build one-hot tables, which take memory of the product of the sizes).

>>> import numpy as np
>>> from highlevel.backends.native import NativeBackend
>>> b = NativeBackend()
>>> b.to_numpy(b.searchsorted(np.array([1.0, 2.0, 3.0]), np.array([2.5, 0.0]))).tolist()
[2, 0]
"""

from highlevel.backends.contract import dtypes

from .autograd import linear
from .convert import to_tensor
from .tensor import Tensor, xp_dtype
from .xp import xp


def _comparable(a):
    """An xp array numpy's search and counting kernels accept (bfloat16 widened exactly to float32)."""
    return a.astype(xp.float32) if a.dtype.name == "bfloat16" else a


class NumpyArrayOps:
    """``searchsorted`` and ``bincount`` with xp kernels."""

    def searchsorted(self, sorted_sequence, values, side="left"):
        a, v = to_tensor(sorted_sequence), to_tensor(values)
        dt = dtypes.result_type(a.dtype, v.dtype)
        a, v = _comparable(a.data.astype(xp_dtype(dt))), _comparable(v.data.astype(xp_dtype(dt)))
        return Tensor(xp.searchsorted(a, v, side=side).astype(xp.int32))

    def bincount(self, x, weights=None, minlength=0, sparse=False):
        x = to_tensor(x)
        length = self._bincount_length(x, minlength)
        rows = x.data.shape[0] if x.data.ndim == 2 else 1
        flat = x.data.astype(xp.int64)
        if x.data.ndim == 2:
            flat = flat + (xp.arange(rows, dtype=xp.int64) * length)[:, None]
        flat = flat.reshape(-1)
        shape = x.data.shape[:-1] + (length,)
        if weights is None:
            return Tensor(xp.bincount(flat, minlength=rows * length).astype(xp.int32).reshape(shape))
        w = to_tensor(weights)
        dt = dtypes.result_type(x.dtype, w.dtype)
        w = to_tensor(w, dt)
        out_dtype = xp_dtype(dt)

        def count(a):  # sums in float64, exact for integer weights below 2**53
            sums = xp.bincount(flat, weights=a.reshape(-1).astype(xp.float64), minlength=rows * length)
            return sums.astype(out_dtype).reshape(shape)

        def gather(g):
            return g.reshape(-1)[flat].reshape(x.data.shape)

        return linear(w, count, gather, "bincount")
