"""The native engine's compiled steps: the recorder of ``backends/contract/replay.py`` on native Tensors.

While a step is recorded, the engine's methods and the :class:`Tensor` class's operators and methods are routed
through the recorder (and restored afterwards); tensor constructions are watched, so that a tensor made at the
step's level outside any engine call stops the recording instead of being frozen into it. Host reads
(``float(t)``, ``t.numpy()``, ``if t:``) of the step's tensors are refused while recording.

>>> import numpy as np
>>> from highlevel.backends.native.backend import NativeBackend
>>> from highlevel.backends.contract import Variable
>>> b = NativeBackend()
>>> w = Variable(np.float32(2.0), backend=b)
>>> def step(x):
...     w.assign(b.add(w.value, b.sum(x)))
...     return b.multiply(w.value, 10.0)
>>> compiled = compile_replay(b, step, [w])
>>> float(compiled(b.convert_to_tensor([1.0, 2.0])))   # recorded: w = 2 + 3
50.0
>>> float(compiled(b.convert_to_tensor([0.5, 0.5])))   # replayed: w = 5 + 1
60.0
"""

import threading

from highlevel.backends.contract import replay as _replay
from highlevel.backends.contract.replay import (
    HostReadError,
    unwrap_backend_methods,  # noqa: F401 - re-exported
    wrap_backend_methods,
    wrap_call,
)

from . import autograd
from .tensor import Tensor

# Tensor methods that make new tensors or change one: logged like engine calls.
_TENSOR_OPS = (
    "__add__",
    "__radd__",
    "__sub__",
    "__rsub__",
    "__mul__",
    "__rmul__",
    "__truediv__",
    "__rtruediv__",
    "__floordiv__",
    "__rfloordiv__",
    "__mod__",
    "__rmod__",
    "__pow__",
    "__rpow__",
    "__matmul__",
    "__rmatmul__",
    "__neg__",
    "__abs__",
    "__invert__",
    "__and__",
    "__rand__",
    "__or__",
    "__ror__",
    "__xor__",
    "__rxor__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__getitem__",
    "astype",
    "reshape",
    "sum",
    "mean",
    "detach",
    "assign_",
    "add_",
    "sub_",
    "mul_",
    "div_",
    "zero_",
)
_INPLACE = frozenset({"assign_", "add_", "sub_", "mul_", "div_", "zero_"})
# Tensor methods that read values on the host.
_TENSOR_HOST_READS = ("numpy", "__array__", "item", "tolist", "__bool__", "__float__", "__int__", "__index__")


def _wrap_host_read(rec, name, fn):
    def wrapper(self, *args, **kwargs):
        if rec.depth == 0 and threading.get_ident() == rec.thread and id(self) not in rec.const_ids:
            raise HostReadError(
                f"Tensor.{name}() read a value of the step on the host while the step was being recorded for "
                "replay (as under jax.jit, a replayed step does not run its Python code again)"
            )
        return fn(self, *args, **kwargs)

    wrapper.__name__ = name
    return wrapper


class _Patched:
    """Routes the engine's methods and the Tensor class's operators through a recorder, then restores them."""

    def __init__(self, rec):
        self.rec = rec
        self.saved_tensor = {}
        self.names = []

    def __enter__(self):
        rec = self.rec
        self.names = wrap_backend_methods(rec)

        for name in _TENSOR_OPS:
            orig = Tensor.__dict__[name]
            self.saved_tensor[name] = orig
            setattr(Tensor, name, wrap_call(rec, name, orig, name in _INPLACE))
        for name in _TENSOR_HOST_READS:
            orig = Tensor.__dict__[name]
            self.saved_tensor[name] = orig
            setattr(Tensor, name, _wrap_host_read(rec, name, orig))
        t_prop = Tensor.__dict__["T"]
        self.saved_tensor["T"] = t_prop
        t_op = wrap_call(rec, "T", t_prop.fget)
        Tensor.T = property(t_op)
        self.saved_tensor["__iter__"] = Tensor.__dict__["__iter__"]

        def iterate(self_):
            if self_.data.ndim == 0:
                raise TypeError("iteration over a 0-d tensor")
            for i in range(self_.data.shape[0]):
                yield self_[i]

        Tensor.__iter__ = iterate
        orig_init = Tensor.__init__
        self.saved_tensor["__init__"] = orig_init

        def init(self_, data, requires_grad=False):
            orig_init(self_, data, requires_grad)
            if threading.get_ident() == rec.thread:
                rec.born.add(id(self_))
                if rec.depth == 0:
                    rec.unknown[id(self_)] = self_

        Tensor.__init__ = init
        return self

    def __exit__(self, *exc):
        unwrap_backend_methods(self.rec.backend, self.names)
        for name, orig in self.saved_tensor.items():
            setattr(Tensor, name, orig)
        return False


class NativeEngine(_replay.Engine):
    """The native engine's side of a recording."""

    tensor_types = (Tensor,)

    def patched(self, rec):
        return _Patched(rec)

    def made_while_recording(self, rec, tensor):
        return id(tensor) in rec.born

    def grad_enabled(self, flag):
        return autograd.enable_grad() if flag else autograd.no_grad()

    def set_grad_enabled(self, flag):
        autograd.set_grad_enabled(flag)

    def is_grad_enabled(self):
        return autograd.is_grad_enabled()

    def snapshot(self, variables):
        # Variable buffers are replaced, never written in place: keeping the old buffers is a snapshot.
        saved = [(v.handle, v.handle.data, v.handle._version) for v in variables]

        def restore():
            for handle, data, version in saved:
                handle.data, handle._version = data, version

        return restore

    def signature(self, tensor):
        return ("t", tensor.data.shape, tensor.data.dtype)

    def run_eager(self, fn, args, kwargs):
        # Outside the loss's gradient region, a step records no graph (see training.py).
        with autograd.no_grad():
            return fn(*args, **kwargs)


ENGINE = NativeEngine()


def compile_replay(backend, fn, state_variables, *, warn=True):
    """The native engine's :func:`~highlevel.backends.contract.replay.compile_replay`."""
    return _replay.compile_replay(backend, fn, state_variables, ENGINE, warn=warn)
