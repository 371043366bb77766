"""PyTorch's segment reduction: ``index_add`` for the sum (differentiable) and ``scatter_reduce`` for the others."""

import torch

from highlevel.backends.contract.scatter_segment import identity

from . import _convert as cv

_REDUCE = {"prod": "prod", "max": "amax", "min": "amin"}


class TorchScatterSegmentMixin:
    """``segment_reduce`` for :class:`~.backend.TorchBackend`."""

    def segment_reduce(self, data, segment_ids, num_segments, reduction):
        data = cv.convert(data)
        ids = cv.convert(segment_ids).to(torch.int64)
        shape = (int(num_segments),) + tuple(data.shape[1:])
        dtype = data.dtype
        run = data
        if dtype in cv.WIDE_UNSIGNED:  # no kernels for uint16/32/64: compute in int64
            run = data.to(torch.int64)
        start = torch.full(shape, identity(reduction, cv.dtype_name(data)), dtype=run.dtype, device=data.device)
        if reduction == "sum":
            out = start.index_add(0, ids, run)
        else:
            index = ids.reshape((-1,) + (1,) * (run.dim() - 1)).expand(run.shape)
            out = start.scatter_reduce(0, index, run, _REDUCE[reduction], include_self=True)
        return out if out.dtype == dtype else out.to(dtype)
