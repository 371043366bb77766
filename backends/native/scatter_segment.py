"""The native engine's segment reduction: ``ufunc.at`` into an array of the reduction's identity.

The sum is recorded as a linear op (its VJP gathers the cotangent of each row's segment, and that gather's VJP
is the sum again), so it is differentiable to any order. The other reductions return plain tensors: the
contract's generic definitions call them on constants and build their gradients themselves.
"""

import numpy as np

from highlevel.backends.contract.scatter_segment import identity

from .autograd import linear
from .convert import to_tensor
from .tensor import Tensor, dtype_name
from .xp import on_gpu, to_host, xp

_UFUNCS = {"sum": "add", "prod": "multiply", "max": "maximum", "min": "minimum"}


def _reduce_at(out, ids, values, reduction):
    """``ufunc.at(out, ids, values)`` for the reduction's ufunc (on the host where CuPy lacks it)."""
    ufunc = getattr(xp, _UFUNCS[reduction])
    if not on_gpu:
        with np.errstate(invalid="ignore", over="ignore"):  # NaN and inf entries reduce as IEEE says
            ufunc.at(out, ids, values)
        return out
    try:
        ufunc.at(out, ids, values)
        return out
    except (AttributeError, NotImplementedError, TypeError):  # a CuPy without this ufunc's at(): via the host
        host = to_host(out)
        getattr(np, _UFUNCS[reduction]).at(host, to_host(ids), to_host(values))
        return xp.asarray(host)


def segment_reduce(data, segment_ids, num_segments, reduction):
    x = to_tensor(data)
    ids = to_tensor(segment_ids).data
    if ids.dtype.kind not in "iu":
        ids = ids.astype(xp.int64)
    shape = (int(num_segments),) + tuple(x.data.shape[1:])
    dt = x.data.dtype
    fill = identity(reduction, dtype_name(dt))

    def fwd(a):
        return _reduce_at(xp.full(shape, fill, dt), ids, a, reduction)

    if reduction != "sum":
        return Tensor(fwd(x.data))
    return linear(x, fwd, lambda g: xp.take(g, ids, axis=0), "segment_sum")


class ScatterSegmentOps:
    """``segment_reduce`` for :class:`~.backend.NativeBackend`."""

    segment_reduce = staticmethod(segment_reduce)
