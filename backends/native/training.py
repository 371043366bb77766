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
from .tensor import Tensor
from .xp import xp


class TrainingOps(TrainingContract):
    def variables_value_and_grad(self, fn, variables):
        if _scopes.stack:  # values substituted by a stateless scope: use the generic path
            return super().variables_value_and_grad(fn, variables)
        leaves = [v.handle for v in variables]
        with autograd.enable_grad():
            value, aux = fn()
        value = to_tensor(value)
        if value.data.size != 1:
            raise ValueError(f"The loss must be a scalar; it has shape {value.shape}. Reduce it with ops.mean.")
        wanted = [t for t in leaves if t.requires_grad]
        found = dict(zip(wanted, autograd.grad(value, wanted, xp.ones(value.data.shape, value.data.dtype))
                         if wanted else []))
        grads = []
        for t in leaves:
            g = found.get(t)
            grads.append(Tensor(xp.zeros_like(t.data) if g is None else g))
        detach = lambda x: Tensor(x.data) if isinstance(x, Tensor) and x.requires_grad else x  # noqa: E731
        return (Tensor(value.data), tree.map_structure(detach, aux)), grads

    def compile_step(self, fn, state_variables, jit_compile=True):
        @functools.wraps(fn)
        def step(*args, **kwargs):
            with autograd.no_grad():
                return fn(*args, **kwargs)

        return step
