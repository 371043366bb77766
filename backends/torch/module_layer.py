"""The torch engine's layers are ``torch.nn.Module`` objects too (``interop_base_class("layer")``).

Every layer and model made while the torch engine is current is an instance of a variant class that also derives
from :class:`ModuleLayer`: PyTorch's own tools then accept it. ``parameters()`` and ``named_parameters()`` yield
the variables' own ``torch.nn.Parameter`` objects (an optimizer stepping them changes the model),
``state_dict()``/``load_state_dict()``, ``to()``, ``zero_grad()``, ``train()``/``eval()`` and ``torch.compile``
work as on any module.

highlevel keeps tracking sub-layers and variables through the layer's attributes, so the module's
``_modules`` and ``_parameters`` are views computed from them (never stale, nothing stored twice), and setting an
attribute stores it plainly (``torch.nn.Module.__setattr__`` would move a sub-layer out of the attributes). A
plain ``torch.nn.Module`` assigned to a layer's attribute is wrapped as a layer
(``highlevel.layers.TorchModuleWrapper``), as Keras does.

>>> import torch
>>> import highlevel as hl
>>> with hl.config.backend_scope("torch"):
...     layer = hl.layers.Dense(2)
...     _ = layer(torch.ones(1, 3))
>>> isinstance(layer, torch.nn.Module), [name for name, _ in layer.named_parameters()]
(True, ['kernel', 'bias'])
"""

import collections

import torch


def _refuse(name, value):
    raise TypeError(
        f"Cannot register {name!r} on a highlevel layer through torch.nn.Module's registry; received "
        f"{type(value).__name__}. Assign it as an attribute instead (a torch.nn.Module is wrapped as a "
        "TorchModuleWrapper layer), or create weights with add_weight()."
    )


class _NamedView(collections.OrderedDict):
    """The ``_modules``/``_parameters`` of a layer: computed from its attributes on each read. Writes into it would
    not reach the layer, so they are refused with a hint."""

    def __setitem__(self, key, value):
        _refuse(key, value)

    def _fill(self, pairs):
        for key, value in pairs:
            collections.OrderedDict.__setitem__(self, key, value)
        return self


class ModuleLayer(torch.nn.Module):
    """The part of a highlevel layer that makes it a ``torch.nn.Module`` (see the module docstring)."""

    @classmethod
    def _hl_prepare_instance(cls, obj):
        torch.nn.Module.__init__(obj)

    # Views of the layer's own tracking (highlevel.layer.Layer._named_sublayers / _named_own_variables).
    @property
    def _modules(self):
        return _NamedView()._fill(self._named_sublayers())

    @_modules.setter
    def _modules(self, value):  # torch.nn.Module.__init__ and __setstate__ set it: the view replaces it
        pass

    @property
    def _parameters(self):
        return _NamedView()._fill((name, v.handle) for name, v in self._named_own_variables())

    @_parameters.setter
    def _parameters(self, value):
        pass

    def __setattr__(self, name, value):
        if isinstance(value, torch.nn.Module) and not isinstance(value, ModuleLayer):
            value = self._wrap_framework_module(value)
        object.__setattr__(self, name, value)

    __delattr__ = object.__delattr__

    def __getattr__(self, name):
        # torch.nn.Module.__getattr__ looks in its registries, which here are views of the attributes themselves.
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def register_parameter(self, name, param):
        _refuse(name, param)

    def register_buffer(self, name, tensor, persistent=True):
        _refuse(name, tensor)

    def add_module(self, name, module):
        _refuse(name, module)

    register_module = add_module

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError(f"train(mode) takes a bool; received {mode!r}.")
        # The layer's calls follow this mode from now on (highlevel.layer.Layer._framework_training).
        object.__setattr__(self, "_framework_training", mode)
        return torch.nn.Module.train(self, mode)

    def to(self, *args, **kwargs):
        dtype = torch._C._nn._parse_to(*args, **kwargs)[1]
        torch.nn.Module.to(self, *args, **kwargs)
        if dtype is not None and dtype.is_floating_point:
            self._compute_in(dtype)
        return self

    def float(self):
        return self.to(torch.float32)

    def double(self):
        return self.to(torch.float64)

    def half(self):
        return self.to(torch.float16)

    def bfloat16(self):
        return self.to(torch.bfloat16)

    def _compute_in(self, dtype):
        """After ``to(dtype)``: every layer below computes in ``dtype`` (its dtype policy), as a module whose
        parameters were cast does in PyTorch."""
        name = str(dtype).removeprefix("torch.")
        for module in self.modules():
            if isinstance(module, ModuleLayer):
                module.dtype_policy = name

    def _apply(self, fn, recurse=True):
        # to(), float(), cuda(), ...: parameters change in place (the variables keep them); a wrapped module's buffers
        # are replaced, so the variables around them are pointed at the new tensors.
        torch.nn.Module._apply(self, fn, recurse)
        self._framework_state_replaced()
        return self

    def forward(self, *args, **kwargs):
        return self.__call__(*args, **kwargs)
