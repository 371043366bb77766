"""The native engine's control flow: the contract's Python loops and conditionals (``scan`` its reference loop),
whose steps the define-by-run autograd records, and ``custom_gradient`` as one recorded op.

A custom gradient is a node whose inputs are the function's arguments and whose VJP calls the user's gradient
function: in array mode with recording off, on the cotangent wrapped as a tensor; in graph mode with recording on,
so that the gradient is built from recorded ops on what the gradient function closes over (the forward pass ran
with recording on, so those values still lead back to the arguments) and can be differentiated again. Several
float outputs are recorded as one node over their concatenation, so the gradient function receives every
output's cotangent in one call.
"""

from highlevel.backends.contract import tree
from highlevel.backends.contract.control_flow import call_grad_fn, python_scan

from . import autograd
from .autograd import record
from .convert import to_tensor
from .tensor import FLOAT_DTYPES, Tensor
from .xp import xp


class ControlFlowOps:
    """``scan`` and ``custom_gradient`` for :class:`~.backend.NativeBackend` (the other loops are the contract's)."""

    def scan(self, f, init, xs=None, length=None, reverse=False, unroll=1):
        if xs is not None:
            xs = tree.map_structure(lambda v: None if v is None else self.convert_to_tensor(v), xs)
        return python_scan(self, f, init, xs, length, reverse)

    def custom_gradient(self, f, *args):
        args = tree.map_structure(lambda v: None if v is None else to_tensor(v), args)
        leaves, treedef = tree.flatten(args)
        out, grad_fn = f(*args)
        out_leaves, out_def = tree.flatten(out)
        out_leaves = [None if o is None else to_tensor(o) for o in out_leaves]
        # the outputs are new tensors: what f computed reaches the arguments only through grad_fn
        outs = [None if o is None else Tensor(o.data) for o in out_leaves]
        floats = [i for i, o in enumerate(outs) if o is not None and o.data.dtype in FLOAT_DTYPES]
        inputs = tuple(x for x in leaves if x is not None and x.requires_grad)
        if not floats or not inputs or not autograd.is_grad_enabled():
            return tree.unflatten(out_def, outs)
        shapes = [outs[i].data.shape for i in floats]
        sizes = [outs[i].data.size for i in floats]
        dtype = xp.result_type(*[outs[i].data.dtype for i in floats])
        single = len(floats) == 1

        def backward(g, out=None):
            graph = out is not None
            # the cotangent of each output, as tensors (graph mode: recorded slices of g)
            cts, start = list(outs), 0
            for i, shape, size in zip(floats, shapes, sizes):
                part = g if single else g[start : start + size].reshape(shape)
                if not graph:
                    part = Tensor(part)
                if part.data.dtype != outs[i].data.dtype:
                    part = self.cast(part, self.dtype(outs[i]))
                cts[i] = part
                start += size
            mode = autograd.enable_grad() if graph else autograd.no_grad()
            with mode:
                grads = call_grad_fn(grad_fn, args, tree.unflatten(out_def, cts), len(leaves))
                result = []
                for x, gx in zip(leaves, grads):
                    if x is None or not x.requires_grad:
                        continue
                    result.append(_like(self, gx, x))
            return tuple(r if graph or r is None else r.data for r in result)

        if single:
            outs[floats[0]] = record(outs[floats[0]].data, inputs, backward, (), "custom_gradient")
            return tree.unflatten(out_def, outs)
        flat = xp.concatenate([outs[i].data.astype(dtype).reshape(-1) for i in floats])
        bundle = record(flat, inputs, backward, (), "custom_gradient")
        start = 0
        for i, shape, size in zip(floats, shapes, sizes):
            part = bundle[start : start + size].reshape(shape)
            outs[i] = part if part.data.dtype == outs[i].data.dtype else self.cast(part, self.dtype(outs[i]))
            start += size
        return tree.unflatten(out_def, outs)


def _like(backend, g, x):
    """The gradient ``g`` as a tensor in the shape and dtype of its input ``x`` (None stays None)."""
    if g is None:
        return None
    g = to_tensor(g)
    if g.data.dtype != x.data.dtype:
        g = backend.cast(g, backend.dtype(x))
    if g.data.shape != x.data.shape:
        g = backend.broadcast_to(g, x.data.shape)
    return g
