"""The PyTorch engine's compiled steps: the recorder of ``backends/contract/replay.py`` on torch tensors.

While a step is recorded, the engine's methods are routed through the recorder and a
:class:`~torch.overrides.TorchFunctionMode` sees every torch operation the step makes at its own level
(operators on tensors, ``torch.*`` functions, methods): each is logged like an engine call, and a host read of
a step value (``float(t)``, ``t.item()``, ``t.numpy()``, ``if t:``) is refused. The replay then runs the same
torch calls, with autograd, without the front end's Python.

>>> import numpy as np
>>> from highlevel.backends.torch.backend import TorchBackend
>>> from highlevel.backends.contract import Variable
>>> b = TorchBackend()
>>> w = Variable(np.float32(2.0), backend=b)
>>> def step(x):
...     w.assign(b.add(w.value, b.sum(x)))
...     return b.multiply(w.value, 10.0)
>>> compiled = compile_replay(b, step, [w])
>>> float(b.to_numpy(compiled(b.convert_to_tensor([1.0, 2.0]))))   # recorded: w = 2 + 3
50.0
>>> float(b.to_numpy(compiled(b.convert_to_tensor([0.5, 0.5]))))   # replayed: w = 5 + 1
60.0
"""

import threading

import torch
from torch.overrides import TorchFunctionMode

from highlevel.backends.contract import replay as _replay
from highlevel.backends.contract.replay import (
    HostReadError,
    NotReplayable,
    unwrap_backend_methods,
    wrap_backend_methods,
)

# torch calls that hand a tensor's values to the host
_HOST_READS = frozenset(
    {
        torch.Tensor.item,
        torch.Tensor.tolist,
        torch.Tensor.numpy,
        torch.Tensor.__bool__,
        torch.Tensor.__float__,
        torch.Tensor.__int__,
        torch.Tensor.__index__,
        torch.Tensor.__array__,
        torch.Tensor.__complex__,
    }
)


# autograd driven by the step itself rather than by the engine's gradient method
_OWN_BACKWARD = frozenset({torch.Tensor.backward, torch.autograd.backward})
_GRAD_ATTRIBUTE = torch.Tensor.grad


def _writes_in_place(name):
    return (name.endswith("_") and not name.startswith("__")) or name.startswith("__i") and name != "__index__"


class _Mode(TorchFunctionMode):
    """Logs the torch operations a step makes outside engine calls (see the module docstring)."""

    def __init__(self, rec):
        super().__init__()
        self.rec = rec

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        rec = self.rec
        if threading.get_ident() != rec.thread:
            return func(*args, **kwargs)
        name = getattr(func, "__name__", None) or type(func).__name__
        if _writes_in_place(name):
            rec.mutations += 1
        if rec.depth:
            return func(*args, **kwargs)
        if func in _HOST_READS:
            raise HostReadError(
                f"torch.Tensor.{name}() read a value of the step on the host while the step was being recorded "
                "for replay (as under jax.jit, a replayed step does not run its Python code again)"
            )
        if func in _OWN_BACKWARD or getattr(func, "__self__", None) is _GRAD_ATTRIBUTE:
            # A step that runs autograd itself (the PyTorch style of train_step: loss.backward(), then the .grad of
            # each weight): its gradients come from autograd's side effects, which a replay would not repeat.
            raise NotReplayable(
                f"the step ran autograd itself ({name}: loss.backward() or a tensor's .grad); such a step runs "
                "eagerly, as written"
            )
        if name == "__get__":  # attribute reads (shape, dtype, requires_grad, ...): metadata, not operations
            return func(*args, **kwargs)
        return rec.call(func, name, args, kwargs)


class _Patched:
    def __init__(self, rec):
        self.rec = rec
        self.mode = _Mode(rec)
        self.names = []

    def __enter__(self):
        self.names = wrap_backend_methods(self.rec)
        self.mode.__enter__()
        return self

    def __exit__(self, *exc):
        self.mode.__exit__(*exc)
        unwrap_backend_methods(self.rec.backend, self.names)
        return False


class TorchEngine(_replay.Engine):
    """The PyTorch engine's side of a recording."""

    tensor_types = (torch.Tensor,)

    def patched(self, rec):
        return _Patched(rec)

    def made_while_recording(self, rec, tensor):
        # Parameters are variables' handles, made only outside steps (making one while recording is refused):
        # an engine call handing one back (read_variable) returns a tensor from before the step.
        return not isinstance(tensor, torch.nn.Parameter)

    def grad_enabled(self, flag):
        return torch.enable_grad() if flag else torch.no_grad()

    def set_grad_enabled(self, flag):
        torch._C._set_grad_enabled(flag)

    def is_grad_enabled(self):
        return torch.is_grad_enabled()

    def snapshot(self, variables):
        # Torch variables are written in place: a snapshot copies them (once per recording).
        with torch.no_grad():
            saved = [(v.handle, v.handle.detach().clone()) for v in variables]

        def restore():
            with torch.no_grad():
                for handle, value in saved:
                    handle.copy_(value)

        return restore

    def signature(self, tensor):
        return ("t", tuple(tensor.shape), tensor.dtype, tensor.device, tensor.requires_grad)


class TorchCompileEngine(TorchEngine):
    """A recording whose program ``torch.compile`` compiles (``jit_compile=True``).

    The generated program holds only engine calls and torch operations, so dynamo traces it into a few graphs
    (the forward with its loss, then the optimizer's update, split where the program calls
    ``torch.autograd.grad``). Compiling the front end's Python step instead broke it into a graph per op:
    dynamo cannot follow the backend look-up (a ``ContextVar``) that every ``hl.ops`` call makes.
    """

    def finish(self, program):
        return torch.compile(program, dynamic=False)


ENGINE = TorchEngine()
COMPILE_ENGINE = TorchCompileEngine()


def compile_replay(backend, fn, state_variables, *, warn=True, torch_compile=False):
    """The PyTorch engine's :func:`~highlevel.backends.contract.replay.compile_replay`; with ``torch_compile``,
    each recorded program is compiled by ``torch.compile`` (see :class:`TorchCompileEngine`)."""
    engine = COMPILE_ENGINE if torch_compile else ENGINE
    return _replay.compile_replay(backend, fn, state_variables, engine, warn=warn)
