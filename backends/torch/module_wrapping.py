"""The torch engine's side of ``TorchModuleWrapper``: a ``torch.nn.Module`` used as a highlevel layer.

The layer's variables are built around the module's own parameters and buffers (the same tensors: ``fit`` and a
``torch.optim`` optimizer update the same storage, saving reads it), and the layer's ``training`` flag sets the
module's mode before each call.

>>> import torch
>>> from highlevel.backends.torch import TorchBackend
>>> b = TorchBackend()
>>> linear = torch.nn.Linear(3, 2)
>>> [(v.name, v.trainable, v.value is p) for v, p in zip(b.framework_module_variables(linear), linear.parameters())]
[('weight', True, True), ('bias', True, True)]
"""

import base64
import io

import torch

from highlevel.backends.contract import Variable


class TorchModuleWrappingMixin:
    def framework_module_class(self):
        return torch.nn.Module

    def framework_module_variables(self, module):
        lazy = getattr(module, "has_uninitialized_params", None)
        if lazy is not None and lazy():
            raise ValueError(
                f"Received a lazy torch module whose parameters are not initialized yet ({type(module).__name__}). "
                "Run it once on an example input (module(torch.zeros(...))) before wrapping it."
            )
        found, seen = [], set()
        state = [(name, p, p.requires_grad) for name, p in module.named_parameters()]
        state += [(name, t, False) for name, t in module.named_buffers()]
        for name, tensor, trainable in state:
            if id(tensor) in seen:
                continue
            seen.add(id(tensor))
            found.append(Variable._around_handle(tensor, backend=self, trainable=trainable, name=name))
        return found

    def rebind_framework_module_variables(self, module, variables):
        current = dict(module.named_buffers())
        current.update(module.named_parameters())
        for variable in variables:
            tensor = current.get(variable.name)
            if tensor is not None:
                variable._handle = tensor

    def call_framework_module(self, module, args, kwargs, training):
        mode = bool(training)
        if module.training != mode:
            module.train(mode)
        return module(*args, **kwargs)

    def framework_module_to_text(self, module):
        buffer = io.BytesIO()
        torch.save(module, buffer)
        return base64.b64encode(buffer.getvalue()).decode("ascii")

    def framework_module_from_text(self, text):
        buffer = io.BytesIO(base64.b64decode(text.encode("ascii")))
        return torch.load(buffer, weights_only=False)  # a whole module: unpickling runs code, see the caller
