"""Training hooks of the native engine: gradients straight onto the variables' leaf tensors.

A compiled step runs with graph recording off: only the loss inside :meth:`variables_value_and_grad` (which
turns it back on) needs a graph, so the optimizer's and the metrics' arithmetic on trainable variables
records no nodes and keeps no buffers alive.
"""

import functools

from highlevel.backends.contract import TrainingContract, tree
from highlevel.backends.contract.variable import _scopes

from . import autograd
from .convert import to_tensor
from .replay import compile_replay
from .tensor import Tensor
from .xp import xp


class TrainingOps(TrainingContract):
    def variables_value_and_grad(self, fn, variables):
        if _scopes.stack:  # values substituted by a stateless scope: use the generic path
            return super().variables_value_and_grad(fn, variables)
        # a differentiation is being recorded: a gradient the loss takes itself (a gradient penalty) is a graph
        with autograd.enable_grad(), autograd.differentiation():
            value, aux = fn()
        return self._finish_value_and_grad(value, aux, variables)

    def _finish_value_and_grad(self, value, aux, variables):
        """The backward half of :meth:`variables_value_and_grad`, once ``fn`` has run with recording on (also
        what a replayed step runs after the loss's ops)."""
        leaves = [v.handle for v in variables]
        value = to_tensor(value)
        if value.data.size != 1:
            raise ValueError(f"The loss must be a scalar; it has shape {value.shape}. Reduce it with ops.mean.")
        wanted = [t for t in leaves if t.requires_grad]
        found = dict(
            zip(wanted, autograd.grad(value, wanted, xp.ones(value.data.shape, value.data.dtype)) if wanted else [])
        )
        grads = []
        for t in leaves:
            g = found.get(t)
            grads.append(Tensor(xp.zeros_like(t.data) if g is None else g))
        return (Tensor(value.data), _detach(aux)), grads

    def compile_step(self, fn, state_variables, jit_compile="auto", read_only=()):
        # jit_compile=True and the default both record the step once and replay it (replay.py); False keeps
        # the step eager, running the Python of the step on every call.
        if jit_compile is False:

            @functools.wraps(fn)
            def step(*args, **kwargs):
                with autograd.no_grad():
                    return fn(*args, **kwargs)

            return step
        return compile_replay(self, fn, state_variables, warn=jit_compile is True)


def _detach(aux):
    """``aux`` with every tensor that requires grad cut from the graph (lists, tuples and dicts walked)."""
    c = aux.__class__
    if c is Tensor:
        return Tensor(aux.data) if aux.requires_grad else aux
    if c is tuple or c is list:
        return c(_detach(a) for a in aux)
    if c is dict:
        return {k: _detach(v) for k, v in aux.items()}
    if isinstance(aux, (list, tuple, dict)):  # subclasses keep the generic walk
        return tree.map_structure(_detach, aux)
    return aux
