"""Tensors, variables, devices and autodiff of the torch engine (contract part 1, less random)."""

import threading

import numpy as np
import torch

from highlevel.backends.contract import Variable, tree
from highlevel.backends.contract import dtypes as cdt
from highlevel.backends.contract.core import argnums_positions, standardize_argnums

from . import _convert as cv


class _Differentiations(threading.local):
    """How many value_and_grad functions (and training losses) are running on this thread."""

    depth = 0


_DIFFERENTIATIONS = _Differentiations()


class differentiation:  # noqa: N801 - a context manager, used like torch.enable_grad
    """Marks a block whose ops are recorded to be differentiated: a gradient taken inside it (a nested
    ``value_and_grad``, a gradient penalty in a loss) keeps its graph (``create_graph=True``) so that the
    enclosing differentiation sees through it."""

    def __enter__(self):
        _DIFFERENTIATIONS.depth += 1
        return self

    def __exit__(self, *exc):
        _DIFFERENTIATIONS.depth -= 1
        return False


def _shape_tuple(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(cv.to_int(s) for s in shape)


def _parse_device(device):
    """A ``torch.device`` for a contract device name ("cpu:0", "cuda:1", "gpu:0") or a torch device."""
    if isinstance(device, torch.device):
        return device
    name = str(device).lower()
    kind, _, index = name.partition(":")
    if kind == "gpu":
        kind = "cuda"
    if kind == "cpu" and index in ("", "0"):
        return torch.device("cpu")
    if kind == "cuda" and torch.cuda.is_available():
        idx = int(index or 0)
        if idx < torch.cuda.device_count():
            return torch.device("cuda", idx)
    raise ValueError(f"Unknown device {device!r} for the torch backend. Available devices: {_device_names()}.")


def _device_names():
    names = ["cpu:0"]
    if torch.cuda.is_available():
        names.extend(f"cuda:{i}" for i in range(torch.cuda.device_count()))
    return names


def _device_name(device):
    if device.type == "cpu":
        return "cpu:0"
    return f"{device.type}:{device.index if device.index is not None else torch.cuda.current_device()}"


class TorchCoreMixin:
    """Contract part 1 (tensors, variables, devices, autodiff) on torch."""

    # ----------------------------------------------------------------- tensors
    def convert_to_tensor(self, x, dtype=None):
        return cv.convert(x, None if dtype is None else cv.to_torch_dtype(dtype))

    def to_numpy(self, x):
        if isinstance(x, Variable):
            x = x.value
        if not isinstance(x, torch.Tensor):
            return np.array(x)
        t = x.detach()
        if t.dtype == torch.bfloat16:
            import ml_dtypes  # numpy has no bfloat16; ml_dtypes (a JAX dependency) provides it

            return t.to(torch.float32).cpu().numpy().astype(ml_dtypes.bfloat16)
        # a copy, so that assigning a variable later never changes an array handed out before
        return t.resolve_conj().cpu().numpy().copy()

    def is_tensor(self, x):
        return isinstance(x, torch.Tensor)

    def cast(self, x, dtype):
        if isinstance(x, (bool, int, float, list, tuple, np.ndarray, np.generic)):
            # straight to dtype: cast(0.9, "float64") must not pass through float32
            return cv.convert(x, cv.to_torch_dtype(dtype))
        return cv.convert(cv.convert(x), cv.to_torch_dtype(dtype))

    def shape(self, x):
        if isinstance(x, (torch.Tensor, np.ndarray, Variable)):
            # a symbolic size (torch.export with a free batch) stays a SymInt: int() would fix it to the sample's
            return tuple(d if isinstance(d, torch.SymInt) else int(d) for d in x.shape)
        return tuple(cv.convert(x).shape)

    def dtype(self, x):
        if isinstance(x, torch.Tensor):
            return cv.DTYPE_NAMES[x.dtype]
        return cv.dtype_name(cv.convert(x))

    def zeros(self, shape, dtype=None):
        return torch.zeros(_shape_tuple(shape), dtype=cv.to_torch_dtype(dtype))

    def ones(self, shape, dtype=None):
        return torch.ones(_shape_tuple(shape), dtype=cv.to_torch_dtype(dtype))

    def full(self, shape, fill_value, dtype=None):
        shape = _shape_tuple(shape)
        if dtype is None:
            dtype = cv.TORCH_DTYPES[cdt.result_type(cv.promotion_node(fill_value))]
        else:
            dtype = cv.to_torch_dtype(dtype)
        if isinstance(fill_value, (bool, int, float)) and not isinstance(fill_value, np.generic):
            return torch.full(shape, fill_value, dtype=dtype)
        value = cv.convert(fill_value, dtype)
        return torch.broadcast_to(value, shape).clone()

    def zeros_like(self, x, dtype=None):
        t = cv.convert(x)
        return torch.zeros_like(t, dtype=t.dtype if dtype is None else cv.to_torch_dtype(dtype))

    def ones_like(self, x, dtype=None):
        t = cv.convert(x)
        return torch.ones_like(t, dtype=t.dtype if dtype is None else cv.to_torch_dtype(dtype))

    def arange(self, start, stop=None, step=1, dtype=None):
        start, stop, step = (v.item() if isinstance(v, torch.Tensor) else v for v in (start, stop, step))
        if stop is None:
            start, stop = 0, start
        if dtype is None:
            values = (start, stop, step)
            is_int = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values)
            dtype = "int32" if is_int else cdt.floatx()
        tdtype = cv.to_torch_dtype(dtype)
        if tdtype in (torch.float16, torch.bfloat16) or tdtype in cv.WIDE_UNSIGNED:
            return torch.arange(start, stop, step, dtype=torch.float64).to(tdtype)
        return torch.arange(start, stop, step, dtype=tdtype)

    def eye(self, N, M=None, k=0, dtype=None):
        N = cv.to_int(N)
        M = N if M is None else cv.to_int(M)
        rows = torch.arange(N).unsqueeze(1)
        cols = torch.arange(M).unsqueeze(0)
        return (cols - rows == int(k)).to(cv.to_torch_dtype(dtype))

    def stop_gradient(self, x):
        return cv.convert(x).detach()

    def copy(self, x):
        return cv.convert(x).clone()

    # --------------------------------------------------------------- variables
    def interop_base_class(self, kind):
        if kind == "layer":
            from .module_layer import ModuleLayer

            return ModuleLayer
        return None

    def make_variable_handle(self, tensor, trainable):
        t = cv.convert(tensor).detach().clone()
        return torch.nn.Parameter(t, requires_grad=bool(trainable) and cv.is_float(t))

    def set_variable_trainable(self, handle, trainable):
        # As Keras's torch backend does: autograd then computes no gradient for a frozen weight.
        if isinstance(handle, torch.Tensor) and handle.is_leaf and cv.is_float(handle):
            handle.requires_grad_(bool(trainable))

    def read_variable(self, handle):
        return handle

    def assign_variable(self, handle, value):
        if isinstance(value, Variable):
            value = value.value
        if (
            type(value) is torch.Tensor
            and value.dtype == handle.dtype
            and value.shape == handle.shape
            and value.device == handle.device
        ):
            # The common case (a step writing back a value it computed): no conversion, no check to make; and
            # no no_grad context to enter when gradients are off already (a test step, an optimizer update).
            if torch.is_grad_enabled():
                with torch.no_grad():
                    handle.copy_(value)
            else:
                handle.copy_(value)
            return
        t = cv.convert(value, handle.dtype, handle.device)
        if tuple(t.shape) != tuple(handle.shape):
            raise ValueError(
                f"Cannot assign a value of shape {tuple(t.shape)} to a variable of shape "
                f"{tuple(handle.shape)}; the shapes must match exactly."
            )
        with torch.no_grad():
            handle.copy_(t)

    def assign_add_variable(self, handle, delta):
        if isinstance(delta, Variable):
            delta = delta.value
        # In place when the sum needs no promotion: a tensor of the variable's dtype (and its shape, or a
        # scalar), or a Python number added to a float variable (a weak scalar: computed in the variable's dtype,
        # as add computes it). Anything else promotes first (the contract's add and assign).
        if type(delta) is torch.Tensor:
            fast = (
                delta.dtype == handle.dtype
                and delta.device == handle.device
                and (delta.shape == handle.shape or delta.ndim == 0)
            )
        else:
            fast = type(delta) in (float, int) and handle.dtype in cv.FLOATS
        if not fast:
            return super().assign_add_variable(handle, delta)
        if torch.is_grad_enabled():
            with torch.no_grad():
                handle.add_(delta)
        else:
            handle.add_(delta)

    # ----------------------------------------------------------------- devices
    def devices(self):
        return _device_names()

    def default_device(self):
        return _device_name(torch.get_default_device())

    def device_scope(self, device):
        return _parse_device(device)  # torch.device is itself a context manager for new tensors

    def to_device(self, x, device):
        return cv.convert(x).to(_parse_device(device))

    # ---------------------------------------------------------------- autodiff
    def value_and_grad(self, fn, argnums=0, has_aux=False):
        nums, single = standardize_argnums(argnums)

        def wrapped(*args):
            args = list(args)
            # Inside an enclosing differentiation, the gradient is built with create_graph=True from tensors
            # still linked to the arguments (a clone, not a detached copy), so the enclosing one differentiates
            # through it: grad of grad, Hessian-vector products, mixed partials.
            nested = _DIFFERENTIATIONS.depth > 0 and torch.is_grad_enabled()
            positions = argnums_positions(nums, len(args), argnums)
            specs = []  # per differentiated argument: (treedef, [leaf tensor or None if not float])
            diff_leaves = []
            for i in positions:
                leaves, treedef = tree.flatten(args[i])
                new_leaves, marks = [], []
                for leaf in leaves:
                    t = cv.convert(leaf)
                    if cv.is_float(t):
                        t = t.clone() if nested and t.requires_grad else t.detach().clone().requires_grad_(True)
                        diff_leaves.append(t)
                        marks.append(t)
                    else:
                        marks.append(None)
                    new_leaves.append(t)
                args[i] = tree.unflatten(treedef, new_leaves)
                specs.append((treedef, marks))
            with torch.enable_grad():
                with differentiation():
                    out = fn(*args)
                if has_aux:
                    if not isinstance(out, (tuple, list)) or len(out) != 2:
                        raise ValueError(
                            "With has_aux=True the function must return a pair (value, aux); received "
                            f"{type(out).__name__}."
                        )
                    value, aux = out
                else:
                    value, aux = out, None
                value = cv.convert(value)
                if value.numel() != 1:
                    raise ValueError(
                        "value_and_grad needs a function returning a scalar; received a value of shape "
                        f"{tuple(value.shape)}. Reduce it (e.g. with ops.sum or ops.mean) first."
                    )
                if diff_leaves and value.requires_grad:
                    grads = torch.autograd.grad(value, diff_leaves, allow_unused=True, create_graph=nested)
                else:
                    grads = (None,) * len(diff_leaves)
            grad_of = {id(leaf): g for leaf, g in zip(diff_leaves, grads)}
            results = []
            for treedef, marks in specs:
                leaf_grads = []
                for m in marks:
                    if m is None:
                        leaf_grads.append(None)
                    else:
                        g = grad_of[id(m)]
                        # a second derivative that autograd knows is zero (abs, sign) comes back as a lazy
                        # ZeroTensor, which cannot be read into numpy: plain zeros instead
                        if g is None or g._is_zerotensor():
                            g = torch.zeros_like(m).detach()
                        leaf_grads.append(g)
                results.append(tree.unflatten(treedef, leaf_grads))
            grads_out = results[0] if single else tuple(results)
            if not nested:  # nested, the value stays in the enclosing graph (as under jax.grad)
                value = value.detach()
            return ((value, aux), grads_out) if has_aux else (value, grads_out)

        return wrapped
