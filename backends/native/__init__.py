"""The native engine: our own define-by-run reverse-mode autodiff on numpy (CuPy with HIGHLEVEL_DEVICE=gpu).

>>> from highlevel.backends.native import NativeBackend, Tensor
>>> NativeBackend.name
'native'
"""

from . import tensor as _tensor
from .autograd import enable_grad, is_grad_enabled, no_grad
from .backend import NativeBackend
from .tensor import Tensor

_tensor.bind_ops()

__all__ = ["NativeBackend", "Tensor", "enable_grad", "is_grad_enabled", "no_grad"]
