"""JAX's ``scan``: ``jax.lax.scan``, so the loop is one compiled op (and traces ``f`` once)."""

import jax

from highlevel.backends.contract import tree
from highlevel.backends.contract.control_flow import scan_length

from . import conversion as cv


def _as_array(v):
    return None if v is None else cv.convert(v)


class ControlFlowOps:
    """``scan`` for :class:`~.backend.JaxBackend`."""

    def scan(self, f, init, xs=None, length=None, reverse=False, unroll=1):
        init = tree.map_structure(_as_array, init)
        if xs is not None:
            xs = tree.map_structure(_as_array, xs)
        n = scan_length(self.shape, xs, length)
        if n == 0:
            raise ValueError("scan: a loop of length 0 has no outputs to stack; pass at least one step.")
        # Our nests are plain lists/tuples/dicts, which are JAX pytrees too; the carry that comes back must
        # keep init's dtypes, which lax.scan checks (a clear error names the leaf that changed).
        return jax.lax.scan(f, init, xs, length=n, reverse=bool(reverse), unroll=unroll)
