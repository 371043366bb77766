"""JAX's segment reduction: ``jax.ops.segment_*`` (one XLA scatter each), differentiable for the sum."""

import jax

from highlevel.backends.contract import dtypes

from . import conversion as cv

_SEGMENT = {
    "sum": jax.ops.segment_sum,
    "prod": jax.ops.segment_prod,
    "max": jax.ops.segment_max,
    "min": jax.ops.segment_min,
}


class ScatterSegmentOps:
    """``segment_reduce`` for :class:`~.backend.JaxBackend`."""

    def segment_reduce(self, data, segment_ids, num_segments, reduction):
        data = cv.convert(data)
        ids = cv.convert(segment_ids)
        if not dtypes.is_int_dtype(cv.dtype_name(ids)):
            ids = ids.astype("int32")
        # the ids are in range (the contract's callers drop the others): no bounds handling is needed
        return _SEGMENT[reduction](data, ids, int(num_segments))
