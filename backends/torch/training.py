"""Training hooks of the PyTorch engine: eager autograd onto the Parameters; ``torch.compile`` on request."""

import torch

from highlevel.backends.contract import TrainingContract
from highlevel.backends.contract.variable import _scopes

from .core import differentiation
from .replay import compile_replay


class TorchTrainingMixin(TrainingContract):
    def variables_value_and_grad(self, fn, variables):
        if _scopes.stack:  # values substituted by a stateless scope: use the generic path
            return super().variables_value_and_grad(fn, variables)
        # a differentiation is being recorded: a gradient the loss takes itself (a gradient penalty) keeps its graph
        with torch.enable_grad(), differentiation():
            value, aux = fn()
        return self._finish_value_and_grad(value, aux, variables)

    def _finish_value_and_grad(self, value, aux, variables):
        """The backward half of :meth:`variables_value_and_grad`, once ``fn`` has run with grad on (also what a
        replayed step runs after the loss's ops)."""
        params = [v.handle for v in variables]
        wanted = [p for p in params if p.requires_grad]
        found = torch.autograd.grad(value, wanted, allow_unused=True) if wanted else ()
        by_param = {id(p): g for p, g in zip(wanted, found)}
        grads = []
        for p in params:
            g = by_param.get(id(p))
            grads.append(torch.zeros_like(p) if g is None else g)
        detach = lambda x: x.detach() if isinstance(x, torch.Tensor) else x  # noqa: E731
        from highlevel.backends.contract import tree

        return (value.detach(), tree.map_structure(detach, aux)), grads

    def inference_scope(self):
        return torch.no_grad()

    def match_variable_layout(self, variable, reference):
        p, r = variable.handle, reference.handle
        if (
            isinstance(p, torch.Tensor)
            and isinstance(r, torch.Tensor)
            and p.shape == r.shape
            and p.stride() != r.stride()
        ):
            with torch.no_grad(), torch.inference_mode(False):
                p.data = torch.empty_strided(r.shape, r.stride(), dtype=p.dtype, device=p.device).copy_(p.data)

    def compile_step(self, fn, state_variables, jit_compile="auto", read_only=()):
        if jit_compile is False or self.distribution_step_replicas() > 1:
            # Distributed steps run eagerly: DistributedDataParallel works in hooks around the forward and
            # inside backward, which a replay would not repeat.
            return fn
        if jit_compile is True:
            # The step recorded as for "auto", and the recorded program (engine calls and torch operations only,
            # none of the front end's Python) compiled by torch.compile. A step that cannot be recorded runs
            # eagerly, with a warning that says why.
            return compile_replay(self, fn, state_variables, warn=True, torch_compile=True)
        # The default: the step recorded once and replayed without the front end's Python (replay.py), eager
        # PyTorch underneath.
        return compile_replay(self, fn, state_variables, warn=False)
