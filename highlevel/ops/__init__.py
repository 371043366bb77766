"""``highlevel.ops``: one numpy-like and neural-network op set with the same semantics on every engine.

Every op is a thin function that runs the current backend's implementation of the contract method of
the same name (see ``highlevel.backends.contract``); names and arguments follow ``keras.ops``.

>>> import highlevel as hl
>>> x = hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
>>> hl.ops.convert_to_numpy(hl.ops.sum(x, axis=0)).tolist()
[4.0, 6.0]
>>> hl.ops.dtype(hl.ops.softmax(x))
'float32'
"""

import inspect

from highlevel.backends.contract import Backend, op_names
from highlevel.config import current_backend
from highlevel.keras_tensor import KerasTensor, any_symbolic

# Contract methods of the core part that are also ops.
_CORE_OPS = (
    "convert_to_tensor", "is_tensor", "cast", "shape", "dtype", "ndim", "size", "zeros", "ones", "full",
    "zeros_like", "ones_like", "full_like", "arange", "eye", "linspace", "stop_gradient", "copy",
    "value_and_grad", "grad",
)


# Ops that read a symbolic tensor's static description instead of computing anything.
_STATIC = {
    "shape": lambda t: t.shape,
    "dtype": lambda t: t.dtype,
    "ndim": lambda t: t.ndim,
    "is_tensor": lambda t: False,
    "convert_to_tensor": lambda t: t,
}


# Ops that call user code (``scan``'s step function): the spec run happens on the native engine, so the
# ``highlevel.ops`` calls inside that code must dispatch to native too.
_CALLS_USER_CODE = {"scan"}


def _symbolic_call(name, method_name, args, kwargs):
    """Infers the output of an op on symbolic tensors and records it as a graph node."""
    from highlevel.config import backend_scope
    from highlevel.node import Node, OpCall
    from highlevel.symbolic_exec import compute_output_spec

    current = current_backend()
    if method_name in _CALLS_USER_CODE:
        with backend_scope("native"):
            outputs = compute_output_spec(method_name, args, kwargs, current=current)
    else:
        outputs = compute_output_spec(method_name, args, kwargs, current=current)
    Node(OpCall(name), args, kwargs, outputs)
    return outputs


def _make(name, method_name=None):
    method_name = method_name or name
    method = getattr(Backend, method_name)

    static = _STATIC.get(method_name)

    def op(*args, **kwargs):
        if any_symbolic(args, kwargs):
            if static is not None and isinstance(args[0], KerasTensor):
                return static(args[0])
            return _symbolic_call(name, method_name, args, kwargs)
        return getattr(current_backend(), method_name)(*args, **kwargs)

    op.__name__ = op.__qualname__ = name
    op.__module__ = __name__
    op.__doc__ = method.__doc__
    params = list(inspect.signature(method).parameters.values())[1:]  # drop self
    # the contract's signatures are valid already: skipping the re-validation halves this loop's share of
    # `import highlevel` (it runs for every op)
    op.__signature__ = inspect.Signature(params, __validate_parameters__=False)
    return op


# Fused kernels of the contract that are also ops (backends/contract/fused.py).
_FUSED_OPS = ("dense", "divide_no_nan", "fused_batch_norm", "sparse_softmax_cross_entropy")

__all__ = []
for _name in _CORE_OPS + tuple(op_names()) + _FUSED_OPS:
    globals()[_name] = _make(_name)
    __all__.append(_name)

# Keras spellings that name the same op.
_ALIASES = {
    "convert_to_numpy": "to_numpy", "absolute": "abs", "true_divide": "divide", "swish": "silu",
    "amax": "max", "amin": "min", "concat": "concatenate",
}
for _name, _target in _ALIASES.items():
    globals()[_name] = _make(_name, _target)
    __all__.append(_name)

del _name, _target

# Composite op families written on top of the ops above (a submodule, so ``hl.ops.image.resize``).
from . import image  # noqa: E402
