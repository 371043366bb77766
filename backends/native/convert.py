"""Turning op inputs into Tensors, and the promotion of mixed operands.

Ops accept Tensors, Variables, numpy arrays and scalars, Python scalars and nested lists. Conversion
follows the contract: Python floats become floatx, Python ints int32, bools bool; numpy values keep their
dtype. Binary ops bring both operands to ``contract.dtypes.result_type`` of the two (Python scalars are
weak); the common case, two tensors of one dtype, returns at once.

>>> to_tensor([1, 2]).dtype, to_tensor(2.5).dtype
('int32', 'float32')
>>> [t.dtype for t in binary(to_tensor([1.0, 2.0]), 3)]
['float32', 'float32']
"""

import numpy as np

from highlevel.backends.contract import Variable, dtypes

from .tensor import COMPLEX_DTYPES, FLOAT_DTYPES, XP_DTYPES, Tensor, dtype_name, xp_dtype
from .tensor import DTYPE_NAMES as _NAMES
from .xp import ndarray, on_gpu, xp

_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def _list_dtype(x):
    """The dtype of a nested list by the contract: Python scalars are weak, arrays and tensors strong."""
    nodes, stack = [], [x]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, (np.generic, np.ndarray)):
            nodes.append(dtype_name(v.dtype))
        elif isinstance(v, (bool, int, float, complex)):
            nodes.append(type(v))
        elif isinstance(v, Tensor):
            nodes.append(v.dtype)
        elif isinstance(v, Variable):
            nodes.append(v.dtype)
        else:
            nodes.append(dtype_name(np.asarray(v).dtype))
    if not nodes:
        return dtypes.floatx()
    return dtypes.result_type(*nodes)


def _host_leaves(x):
    """A nested list with every tensor/Variable leaf replaced by a numpy array (for ``np.asarray``)."""
    if isinstance(x, (list, tuple)):
        return [_host_leaves(v) for v in x]
    if isinstance(x, Tensor):
        return x.numpy()
    if isinstance(x, Variable):
        return np.asarray(x.numpy())
    return x


def to_array(x, dtype=None):
    """``x`` as an xp array (no copy when it already is one of the right dtype).

    Args:
        x: a Tensor, Variable, xp/numpy array, numpy or Python scalar, nested list, or any object
            with ``__array__``.
        dtype: a canonical dtype name, or None to infer it by the contract's rules.
    """
    if isinstance(x, Tensor):
        a = x.data
    elif isinstance(x, Variable):
        a = x.value
        a = a.data if isinstance(a, Tensor) else to_array(a)
    elif isinstance(x, ndarray):
        a = x
    elif isinstance(x, (np.ndarray, np.generic)):  # before float: numpy.float64 subclasses float
        a = xp.asarray(x) if on_gpu else np.asarray(x)
    elif isinstance(x, bool):
        a = xp.asarray(x)
    elif isinstance(x, int):
        if dtype is None:
            dtype = "int32" if _INT32_MIN <= x <= _INT32_MAX else "int64"
        return xp.asarray(x, dtype=xp_dtype(dtype))
    elif isinstance(x, float):
        return xp.asarray(x, dtype=xp_dtype(dtype or dtypes.floatx()))
    elif isinstance(x, complex):
        return xp.asarray(x, dtype=xp_dtype(dtype or dtypes.result_type(complex)))
    elif isinstance(x, (list, tuple)):
        dt = xp_dtype(dtype or _list_dtype(x))
        return xp.asarray(np.asarray(_host_leaves(x)).astype(dt, copy=False))
    else:
        try:
            a = xp.asarray(np.asarray(x))
        except Exception as e:
            raise TypeError(
                f"Cannot convert an object of type {type(x).__name__} to a native tensor; expected a tensor, "
                "Variable, numpy array, Python scalar or nested list."
            ) from e
    if a.dtype not in _NAMES:
        dtype_name(a.dtype)  # raises the clear error for unsupported dtypes
    if dtype is not None:
        dt = xp_dtype(dtype)
        if a.dtype != dt:
            a = a.astype(dt)
    return a


def std_dtype(dtype):
    """``contract.dtypes.standardize_dtype``, with canonical names (the common case) returned at once."""
    if dtype.__class__ is str and dtype in XP_DTYPES:
        return dtype
    return dtypes.standardize_dtype(dtype)


def to_tensor(x, dtype=None):
    """``x`` as a Tensor; a Tensor of the right dtype is returned as is, a float cast is differentiable."""
    if x.__class__ is Tensor:
        if dtype is None or XP_DTYPES.get(dtype) == x.data.dtype:
            return x
        from .ops_math import cast

        return cast(x, dtype)
    if isinstance(x, Variable):
        return to_tensor(x.value, dtype)
    if isinstance(x, Tensor):  # a subclass
        return x if dtype is None else to_tensor(Tensor(x.data), dtype)
    return Tensor(to_array(x, dtype))


def to_float(x):
    """``x`` as a float Tensor: integer and bool inputs go to floatx (float math on ints)."""
    t = x if x.__class__ is Tensor else to_tensor(x)
    if t.data.dtype in FLOAT_DTYPES or t.data.dtype in COMPLEX_DTYPES:
        return t
    return Tensor(t.data.astype(xp_dtype(dtypes.floatx())))


# ------------------------------------------------------------------------ promotion
_rt_cache = {}


def _node(x):
    """What ``result_type`` needs to know about an operand: a dtype name or a weak Python type."""
    c = x.__class__
    if c is Tensor:
        return _NAMES[x.data.dtype]
    if c is float or c is int or c is bool or c is complex:
        return c
    if isinstance(x, Variable):
        return x.dtype
    if isinstance(x, Tensor):
        return x.dtype
    if isinstance(x, (ndarray, np.ndarray, np.generic)):
        return dtype_name(x.dtype)
    if isinstance(x, (list, tuple)):
        return _list_dtype(x)
    if isinstance(x, (bool, int, float, complex)):  # subclasses such as numpy.bool_ are handled above
        return type(x)
    return dtype_name(np.asarray(x).dtype)


def result_type(*nodes):
    """``contract.dtypes.result_type`` with a cache (the table walk costs microseconds)."""
    key = nodes + (dtypes.floatx(),)
    r = _rt_cache.get(key)
    if r is None:
        r = _rt_cache[key] = dtypes.result_type(*nodes)
    return r


def _as(x, node, rt):
    """Operand ``x`` (whose promotion node is ``node``) as a Tensor of dtype ``rt``."""
    if node == rt:
        return x if x.__class__ is Tensor else to_tensor(x, rt)
    if x.__class__ is float or x.__class__ is int or x.__class__ is bool or x.__class__ is complex:
        return Tensor(xp.asarray(x, dtype=XP_DTYPES[rt]))
    return to_tensor(x, rt)


def binary(x1, x2):
    """Both operands as Tensors of their common dtype (by the promotion table)."""
    c1, c2 = x1.__class__, x2.__class__
    # Variables read as their tensor first: optimizers and layers mix them with tensors on every step
    if c1 is not Tensor and isinstance(x1, Variable):
        x1 = x1.value
        c1 = x1.__class__
    if c2 is not Tensor and isinstance(x2, Variable):
        x2 = x2.value
        c2 = x2.__class__
    if c1 is Tensor:
        d = x1.data.dtype
        if c2 is Tensor:
            if d == x2.data.dtype:
                return x1, x2
        elif (c2 is float or c2 is int) and d in FLOAT_DTYPES:  # weak Python scalar: the tensor's dtype
            return x1, Tensor(xp.asarray(x2, d))
    elif c2 is Tensor and (c1 is float or c1 is int):
        d = x2.data.dtype
        if d in FLOAT_DTYPES:
            return Tensor(xp.asarray(x1, d)), x2
    n1, n2 = _node(x1), _node(x2)
    rt = result_type(n1, n2)
    return _as(x1, n1, rt), _as(x2, n2, rt)


def promote(xs):
    """A list of Tensors of the common dtype of ``xs`` (for where, concatenate, stack, ...)."""
    nodes = [_node(x) for x in xs]
    rt = result_type(*nodes)
    return [_as(x, n, rt) for x, n in zip(xs, nodes)], rt


def float_binary(x1, x2):
    """Like :func:`binary`, then integer results go to floatx (true division, arctan2, ...)."""
    a, b = binary(x1, x2)
    if a.data.dtype not in FLOAT_DTYPES and a.data.dtype not in COMPLEX_DTYPES:
        dt = xp_dtype(dtypes.floatx())
        a, b = Tensor(a.data.astype(dt)), Tensor(b.data.astype(dt))
    return a, b


def like(a, dt):
    """``a`` in dtype ``dt``: undoes promotions by internal constants (bfloat16 * 0.5 is float32 in
    ml_dtypes, which does not treat Python floats as weak)."""
    return a if a.dtype == dt else a.astype(dt)
