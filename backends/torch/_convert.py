"""Conversion into torch tensors and the contract's dtype promotion, applied explicitly.

Torch's own promotion differs from the contract's table (``contract.dtypes.result_type``) in several ways:
an int tensor plus a Python float gives torch's default dtype, 0-d tensors are "weak" (a 0-d float64 tensor
does not widen a float32 tensor), ``uint8 + int8`` and bool arithmetic follow other rules. Every op of this
backend therefore converts its operands to the dtype the table gives *before* calling torch, so torch never
promotes anything itself.

Unsigned types wider than 8 bits exist in torch but most kernels are missing for them ("add_stub not
implemented for 'UInt16'"); :func:`compute_dtype` names the dtype an op runs in instead (int64) and the
result is cast back.
"""

import numpy as np
import torch

from highlevel.backends.contract import Variable
from highlevel.backends.contract import dtypes as cdt

TORCH_DTYPES = {
    "bool": torch.bool,
    "uint8": torch.uint8,
    "uint16": torch.uint16,
    "uint32": torch.uint32,
    "uint64": torch.uint64,
    "int8": torch.int8,
    "int16": torch.int16,
    "int32": torch.int32,
    "int64": torch.int64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
    "float64": torch.float64,
    "complex64": torch.complex64,
    "complex128": torch.complex128,
}
DTYPE_NAMES = {v: k for k, v in TORCH_DTYPES.items()}
# numpy's dtype.name is slow Python code: look the common ones up instead
_NUMPY_NAMES = {np.dtype(k): k for k in TORCH_DTYPES if k != "bfloat16"}

#: unsigned dtypes for which torch lacks most kernels; ops run in int64 and cast back
WIDE_UNSIGNED = frozenset({torch.uint16, torch.uint32, torch.uint64})
FLOATS = frozenset({torch.float16, torch.bfloat16, torch.float32, torch.float64})
COMPLEXES = frozenset({torch.complex64, torch.complex128})
_PY_SCALARS = (bool, int, float, complex)
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def to_torch_dtype(dtype):
    """The ``torch.dtype`` for a dtype name (or numpy / torch dtype); ``None`` gives floatx."""
    if isinstance(dtype, torch.dtype):
        return dtype
    return TORCH_DTYPES[cdt.standardize_dtype(dtype)]


def dtype_name(t):
    """The canonical dtype name of a torch tensor."""
    return DTYPE_NAMES[t.dtype]


def floatx_torch():
    return TORCH_DTYPES[cdt.floatx()]


def is_float(t):
    return t.dtype in FLOATS


_CPU = torch.device("cpu")
# torch.get_default_device() looks for a device mode on the torch-function stack and then for a global default
# (torch.set_default_device): about 5 us of Python per call, made for every array a step is fed. When neither
# can be there (an empty stack, no global default) the answer is the CPU. Private names, checked once: without
# them every call asks torch.
_STACK_LEN = getattr(torch._C, "_len_torch_function_stack", None)
_DEVICE_GLOBALS = getattr(torch, "_GLOBAL_DEVICE_CONTEXT", None)


@torch.compiler.assume_constant_result
def default_device():
    # Constant for torch.compile (a compiled replay of a step): dynamo cannot put the torch.device this returns
    # into a graph and would break the graph at every conversion of a constant.
    if (
        _STACK_LEN is not None
        and _DEVICE_GLOBALS is not None
        and not _STACK_LEN()
        and getattr(_DEVICE_GLOBALS, "device_context", None) is None
    ):
        return _CPU
    return torch.get_default_device()


def _from_numpy(a, dtype, device):
    """A tensor from a numpy array (or numpy scalar), keeping its dtype unless ``dtype`` is given."""
    a = np.asarray(a)
    kind = a.dtype.kind
    if kind == "V" and a.dtype.name == "bfloat16":  # ml_dtypes' bfloat16: torch cannot read it directly
        t = torch.as_tensor(a.astype(np.float32), device=device).to(torch.bfloat16)
    elif kind in "biufc":
        if not a.flags.writeable or not a.flags.c_contiguous:
            a = np.array(a, order="C", copy=True)  # (np.ascontiguousarray makes a 0-d array 1-d)
        t = torch.as_tensor(a, device=device)
    else:
        raise TypeError(
            f"Cannot convert a numpy array of dtype {a.dtype} to a torch tensor; expected a bool, integer "
            "or float array."
        )
    if dtype is not None and t.dtype != dtype:
        t = t.to(dtype)
    return t


def _python_scalar(x, dtype, device):
    if dtype is None:
        if isinstance(x, bool):
            dtype = torch.bool
        elif isinstance(x, int):
            # Python ints default to int32 (as in Keras/JAX); ones that do not fit stay exact in int64
            dtype = torch.int32 if _INT32_MIN <= x <= _INT32_MAX else torch.int64
        elif isinstance(x, complex):
            dtype = TORCH_DTYPES[cdt.result_type(complex)]
        else:
            dtype = floatx_torch()
    return torch.tensor(x, dtype=dtype, device=device)


def _contains_tensor(x):
    if isinstance(x, (torch.Tensor, Variable)):
        return True
    if isinstance(x, (list, tuple)):
        return any(_contains_tensor(e) for e in x)
    return False


def _python_leaf_kinds(x):
    """The kinds ("b", "i", "f", and "big" for ints beyond int32) of a nested list's leaves, or None if a
    leaf is not a Python scalar (or the nesting is ragged in a way torch would reject)."""
    kinds = set()
    stack = [x]
    while stack:
        node = stack.pop()
        if isinstance(node, (list, tuple)):
            stack.extend(node)
        elif isinstance(node, np.generic):
            return None
        elif isinstance(node, bool):
            kinds.add("b")
        elif isinstance(node, int):
            kinds.add("i")
            if not _INT32_MIN <= node <= _INT32_MAX:
                kinds.add("big")
        elif isinstance(node, float):
            kinds.add("f")
        elif isinstance(node, complex):
            kinds.add("c")
        else:
            return None
    return kinds


def _from_sequence(x, dtype, device):
    if _contains_tensor(x):
        # a list mixing tensors and scalars: convert the pieces and stack them with promotion
        parts = [convert(e, None, device) if isinstance(e, (list, tuple)) else e for e in x]
        if not parts:
            return torch.zeros((0,), dtype=dtype or floatx_torch(), device=device)
        tensors, _ = promote(*parts)
        out = torch.stack([t.to(device) for t in tensors])
        return out if dtype is None else out.to(dtype)
    kinds = _python_leaf_kinds(x)
    if kinds is not None:
        # only Python scalars: build the tensor directly (no numpy, which torch.compile cannot trace)
        if dtype is None:
            if "c" in kinds:
                dtype = TORCH_DTYPES[cdt.result_type(complex)]
            elif "f" in kinds:
                dtype = floatx_torch()
            elif "i" in kinds:
                dtype = torch.int64 if "big" in kinds else torch.int32
            elif kinds == {"b"}:
                dtype = torch.bool
            else:  # an empty list
                dtype = floatx_torch()
        return torch.tensor(x, dtype=dtype, device=device)
    a = np.asarray(x)
    if dtype is None:
        kind = a.dtype.kind
        if kind == "b":
            dtype = torch.bool
        elif kind in "iu":
            fits = a.size == 0 or (a.min() >= _INT32_MIN and a.max() <= _INT32_MAX)
            dtype = torch.int32 if fits else torch.int64
        elif kind == "f":
            dtype = floatx_torch()
        else:
            raise TypeError(
                f"Cannot convert a sequence of {a.dtype} values to a tensor; expected nested lists of "
                "bools, ints or floats."
            )
    if a.dtype.kind == "f" and a.dtype.name not in ("float16", "float32", "float64"):
        a = a.astype(np.float32)
    return _from_numpy(a, dtype, device)


def convert(x, dtype=None, device=None):
    """Returns ``x`` as a torch tensor (of ``dtype``, a ``torch.dtype``, when given).

    Tensors stay where they are; everything else is created on ``device`` (the default device when None).
    """
    if isinstance(x, torch.Tensor):
        if dtype is None or x.dtype == dtype:
            return x
        if x.dtype in COMPLEXES and dtype not in COMPLEXES:
            x = x.real  # complex to real keeps the real part (without torch's warning)
        return x.to(dtype)
    if isinstance(x, Variable):
        return convert(x.value, dtype, device)
    if device is None:
        device = default_device()
    if isinstance(x, np.generic) and x.dtype in _NUMPY_NAMES:
        dtype = TORCH_DTYPES[_NUMPY_NAMES[x.dtype]] if dtype is None else dtype
        return torch.tensor(x.item(), dtype=dtype, device=device)
    if isinstance(x, (np.ndarray, np.generic)):
        return _from_numpy(x, dtype, device)
    if isinstance(x, _PY_SCALARS):
        return _python_scalar(x, dtype, device)
    if isinstance(x, (list, tuple)):
        return _from_sequence(x, dtype, device)
    if hasattr(x, "__array__"):  # another framework's tensor, a memoryview-like object, ...
        return _from_numpy(np.asarray(x), dtype, device)
    raise TypeError(
        f"Cannot convert {type(x).__name__} to a torch tensor; expected a tensor, Variable, numpy array, "
        "Python scalar or nested list."
    )


_RESULT_TYPES = {}


def result_type(*nodes):
    """``contract.dtypes.result_type`` memoised; Python scalar values are keyed by their (weak) type."""
    key = (cdt.floatx(),) + tuple(type(n) if isinstance(n, _PY_SCALARS) else n for n in nodes)
    name = _RESULT_TYPES.get(key)
    if name is None:
        name = _RESULT_TYPES[key] = cdt.result_type(*key[1:])
    return name


def promotion_node(x):
    """What ``x`` contributes to ``result_type``: a dtype name, or the Python scalar itself (weak)."""
    if isinstance(x, torch.Tensor):
        return DTYPE_NAMES[x.dtype]
    if isinstance(x, np.generic):  # np.float64 subclasses float but is a strong float64 here
        return _NUMPY_NAMES.get(x.dtype) or cdt.standardize_dtype(x.dtype)
    if isinstance(x, _PY_SCALARS):
        return x
    if isinstance(x, Variable):
        return x.dtype
    if isinstance(x, np.ndarray):
        return _NUMPY_NAMES.get(x.dtype) or cdt.standardize_dtype(x.dtype)
    return DTYPE_NAMES[convert(x).dtype]


def _device_of(xs):
    for x in xs:
        if isinstance(x, torch.Tensor):
            return x.device
    return None


def promote(*xs, extra=()):
    """Converts ``xs`` to tensors of the dtype the contract's table gives; returns ``(tensors, name)``.

    ``extra`` joins the promotion without being converted (e.g. ``float`` to force a float result).
    Two tensors of one dtype take a fast path without a table lookup.
    """
    if not extra:
        first = xs[0]
        if isinstance(first, torch.Tensor) and all(isinstance(x, torch.Tensor) and x.dtype == first.dtype for x in xs):
            return list(xs), DTYPE_NAMES[first.dtype]
    name = result_type(*[promotion_node(x) for x in xs], *extra)
    dtype = TORCH_DTYPES[name]
    device = _device_of(xs)
    return [convert(x, dtype, device) for x in xs], name


def promote_float(*xs):
    """Like :func:`promote` but integer and bool results become floatx (for true division, atan2, ...)."""
    tensors, name = promote(*xs)
    if name not in cdt.FLOAT_DTYPES and name not in cdt.COMPLEX_DTYPES:
        dtype = floatx_torch()
        tensors = [t.to(dtype) for t in tensors]
        name = cdt.floatx()
    return tensors, name


def to_float(x):
    """``x`` as a float tensor: floats keep their dtype, ints and bools become floatx."""
    t = convert(x)
    return t if t.dtype in FLOATS or t.dtype in COMPLEXES else t.to(floatx_torch())


def compute_dtype(dtype):
    """The dtype torch can run arithmetic in for ``dtype`` (int64 for uint16/32/64, else itself)."""
    return torch.int64 if dtype in WIDE_UNSIGNED else dtype


def run(fn, tensors, out_dtype=None):
    """Runs ``fn(*tensors)``, widening uint16/32/64 to int64 first and casting the result back.

    A bool result (a comparison) is returned as is. ``uint64`` values of 2**63 and above wrap to negative
    int64 values, so comparisons, division and min/max are wrong for them; add, subtract and multiply
    are exact modulo 2**64.
    """
    dtype = tensors[0].dtype
    if dtype not in WIDE_UNSIGNED:
        return fn(*tensors)
    out = fn(*[t.to(torch.int64) for t in tensors])
    if out.dtype == torch.bool:
        return out
    return out.to(out_dtype if out_dtype is not None else dtype)


_SIGNED_VIEW = {torch.uint16: torch.int16, torch.uint32: torch.int32, torch.uint64: torch.int64}


def move(fn, t):
    """Runs a data-movement op (gather, flip, index) on ``t``; wide unsigned tensors go through a
    same-width signed view, which is exact for every value since no arithmetic happens."""
    signed = _SIGNED_VIEW.get(t.dtype)
    if signed is None:
        return fn(t)
    return fn(t.view(signed)).view(t.dtype)


def to_int(x):
    """A Python int from an int, numpy integer or 0-d tensor."""
    if isinstance(x, torch.Tensor):
        return int(x.item())
    if isinstance(x, Variable):
        return int(x.numpy())
    return int(x)
