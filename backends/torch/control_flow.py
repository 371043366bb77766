"""PyTorch's control flow: eager PyTorch has no loop or conditional primitive, so the loops and conditionals are the
contract's Python definitions (``scan`` its reference loop), recorded by autograd as they run. ``vectorized_map`` is
``torch.vmap`` (the function runs once, on batched tensors), or the loop of ``map`` when the function branches or
loops on the values (a conditional inside ``torch.vmap`` cannot read its predicate).

``custom_gradient`` runs the function with autograd on, so the values its gradient function closes over keep
their own graph (a gradient taken inside another differentiation differentiates through them), and hands the
outputs through a ``torch.autograd.Function`` whose backward calls the gradient function.
"""

import threading

import torch

from highlevel.backends.contract import tree
from highlevel.backends.contract.control_flow import call_grad_fn, python_scan

from . import _convert as cv


class _Vectorizing(threading.local):
    depth = 0


_VECTORIZING = _Vectorizing()


class _DataDependent(Exception):
    """A conditional or loop met a batched predicate inside ``torch.vmap``."""


class _ReplaceGradient(torch.autograd.Function):
    """Passes ``outputs`` through unchanged; their gradient w.r.t. ``inputs`` is ``rule(cotangents)``.

    Written in the form ``torch.func`` transforms accept (``setup_context``; ``torch.vmap`` batches it as it
    batches the rule's own ops), so a custom gradient works inside ``vectorized_map``."""

    generate_vmap_rule = True

    @staticmethod
    def forward(rule, n_inputs, *tensors):
        return tuple(t.view_as(t) for t in tensors[n_inputs:])

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.rule = inputs[0]

    @staticmethod
    def backward(ctx, *cotangents):
        grads = ctx.rule(cotangents)
        return (None, None) + tuple(grads) + (None,) * len(cotangents)


class TorchControlFlowMixin:
    """``scan``, ``vectorized_map`` and ``custom_gradient`` for :class:`~.backend.TorchBackend` (the other loops and
    conditionals are the contract's)."""

    def scan(self, f, init, xs=None, length=None, reverse=False, unroll=1):
        if xs is not None:
            xs = tree.map_structure(lambda v: None if v is None else self.convert_to_tensor(v), xs)
        return python_scan(self, f, init, xs, length, reverse)

    def vectorized_map(self, function, elements):
        elements = tree.map_structure(cv.convert, elements)
        _VECTORIZING.depth += 1
        try:
            return torch.vmap(function)(elements)
        except _DataDependent:
            pass
        finally:
            _VECTORIZING.depth -= 1
        # a conditional or loop on batched values: torch.vmap cannot branch on them, the loop can
        return self.map(function, elements)

    def _truth(self, pred):
        if not _VECTORIZING.depth:
            return super()._truth(pred)
        try:
            return super()._truth(pred)
        except RuntimeError:  # a batched predicate (a loop counter or a Python bool reads fine)
            raise _DataDependent() from None

    def custom_gradient(self, f, *args):
        args = tree.map_structure(lambda v: None if v is None else cv.convert(v), args)
        leaves, treedef = tree.flatten(args)
        out, grad_fn = f(*args)
        out_leaves, out_def = tree.flatten(out)
        out_leaves = [None if o is None else cv.convert(o) for o in out_leaves]
        # what f computed keeps its graph only through grad_fn's closure: the outputs are new tensors
        floats = [i for i, o in enumerate(out_leaves) if o is not None and cv.is_float(o)]
        outs = [None if o is None else o.detach() for o in out_leaves]
        diff = [i for i, x in enumerate(leaves) if x is not None and cv.is_float(x)]

        def rule(cotangents):
            ct = list(outs)
            for i, c in zip(floats, cotangents):
                ct[i] = c
            grads = call_grad_fn(grad_fn, args, tree.unflatten(out_def, ct), len(leaves))
            return tuple(_like(grads[i], leaves[i]) for i in diff)

        if floats and diff:
            passed = _ReplaceGradient.apply(rule, len(diff), *[leaves[i] for i in diff], *[outs[i] for i in floats])
            for i, t in zip(floats, passed):
                outs[i] = t
        return tree.unflatten(out_def, outs)


def _like(g, x):
    """The gradient ``g`` in the shape and dtype of its input ``x`` (zeros for None)."""
    if g is None:
        return torch.zeros_like(x)
    g = cv.convert(g)
    if g.dtype != x.dtype:
        g = g.to(x.dtype)
    return g if g.shape == x.shape else g.expand(x.shape)
