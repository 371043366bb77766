"""The native engine's ``scan``: a Python loop whose steps the define-by-run autograd records."""

from highlevel.backends.contract import tree
from highlevel.backends.contract.control_flow import python_scan


class ControlFlowOps:
    """``scan`` for :class:`~.backend.NativeBackend` (the contract's reference loop)."""

    def scan(self, f, init, xs=None, length=None, reverse=False, unroll=1):
        if xs is not None:
            xs = tree.map_structure(lambda v: None if v is None else self.convert_to_tensor(v), xs)
        return python_scan(self, f, init, xs, length, reverse)
