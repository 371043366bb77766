"""PyTorch's ``scan``: eager PyTorch has no loop primitive, so it is a Python loop recorded by autograd."""

from highlevel.backends.contract import tree
from highlevel.backends.contract.control_flow import python_scan


class TorchControlFlowMixin:
    """``scan`` for :class:`~.backend.TorchBackend`."""

    def scan(self, f, init, xs=None, length=None, reverse=False, unroll=1):
        if xs is not None:
            xs = tree.map_structure(lambda v: None if v is None else self.convert_to_tensor(v), xs)
        return python_scan(self, f, init, xs, length, reverse)
