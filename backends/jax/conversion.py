"""Turning op inputs into JAX arrays with the contract's dtypes, and the promotion of mixed operands.

JAX runs with 64-bit types enabled (see :mod:`highlevel.backends.jax.backend`), so ``jnp.asarray(1.0)``
would be float64 and ``jnp.asarray([1, 2])`` int64. Every conversion here therefore names its dtype
explicitly: Python floats become floatx, Python ints int32, bools bool, numpy inputs keep their dtype.

Mixed operands promote by ``contract.dtypes.result_type``. A Python scalar is *weak* (it takes the dtype
of the tensor it meets); so is a weakly typed JAX array (what a Python scalar becomes when passed
through ``jax.jit``), as in JAX itself. A numpy scalar is strong: ``np.float64(2.0)`` is float64 even
though ``np.float64`` subclasses Python ``float``.

>>> a = convert(1.5)
>>> str(a.dtype)
'float32'
>>> x, y = promote(convert([1, 2], "int8"), 3)
>>> str(y.dtype)
'int8'
"""

import jax
import jax.numpy as jnp
import numpy as np

from highlevel.backends.contract import Variable
from highlevel.backends.contract import dtypes as cdt

# contract dtype name -> JAX dtype object (bfloat16 comes from ml_dtypes through jnp)
JAX_DTYPES = {name: jnp.dtype(name) for name in cdt.ALLOWED_DTYPES if name != "bfloat16"}
JAX_DTYPES["bfloat16"] = jnp.dtype(jnp.bfloat16)

_PY_SCALARS = (bool, int, float, complex)


def jdtype(dtype):
    """The JAX dtype for a contract dtype name (or anything ``standardize_dtype`` accepts)."""
    return JAX_DTYPES[cdt.standardize_dtype(dtype)]


def dtype_name(x):
    """The canonical dtype name of an array-like with a ``dtype`` attribute."""
    return cdt.standardize_dtype(x.dtype)


def is_array(x):
    """True for a JAX array or tracer."""
    return isinstance(x, jax.Array)


def _is_py_scalar(x):
    return isinstance(x, _PY_SCALARS) and not isinstance(x, np.generic)


def node(x):
    """What ``x`` contributes to promotion: a dtype name, or ``bool``/``int``/``float`` for weak values.

    Python scalars and weakly typed JAX arrays are weak; numpy scalars and arrays are strong.
    """
    if isinstance(x, Variable):
        x = x.value
    if isinstance(x, np.generic) or isinstance(x, np.ndarray):
        return cdt.standardize_dtype(x.dtype)
    if isinstance(x, bool):
        return bool
    if isinstance(x, int):
        return int
    if isinstance(x, float):
        return float
    if isinstance(x, complex):
        return complex
    if is_array(x):
        name = cdt.standardize_dtype(x.dtype)
        if getattr(x, "weak_type", False):
            if name in cdt.FLOAT_DTYPES:
                return float
            if name in cdt.INT_DTYPES:
                return int
            if name in cdt.COMPLEX_DTYPES:
                return complex
        return name
    if isinstance(x, (list, tuple)):
        return default_dtype(x)
    if hasattr(x, "dtype"):
        return cdt.standardize_dtype(x.dtype)
    raise TypeError(
        f"Cannot use an object of type {type(x).__name__} as a tensor: {x!r}. Expected a JAX array, a "
        "highlevel Variable, a numpy array, a Python scalar or a nested list of them."
    )


def _leaves(x, out):
    if isinstance(x, (list, tuple)):
        for item in x:
            _leaves(item, out)
    else:
        out.append(x)
    return out


def default_dtype(x):
    """The dtype ``convert_to_tensor(x)`` gives without an explicit dtype."""
    if isinstance(x, Variable):
        x = x.value
    if isinstance(x, (list, tuple)):
        leaves = _leaves(x, [])
        if not leaves:
            return cdt.floatx()
        # nested tensors/numpy values take part strongly; Python scalars resolve as weak types
        return cdt.result_type(*[node(v) for v in leaves])
    n = node(x)
    return cdt.result_type(n) if n in _PY_SCALARS else n


def convert(x, dtype=None):
    """``x`` as a JAX array; ``dtype`` (a name) if given, else by the contract's defaults."""
    if isinstance(x, Variable):
        x = x.value
    if dtype is not None:
        target = jdtype(dtype)
        if is_array(x):
            if x.dtype == target:
                return x
            if jnp.iscomplexobj(x) and not jnp.issubdtype(target, jnp.complexfloating):
                x = jnp.real(x)  # complex to real keeps the real part (without numpy's warning)
            return x.astype(target)
        return jnp.asarray(x, dtype=target)
    if is_array(x):
        if getattr(x, "weak_type", False):
            # a Python scalar traced by jax.jit: resolve it as convert(Python scalar) would
            return x.astype(jdtype(cdt.result_type(node(x))))
        return x
    if isinstance(x, np.ndarray) or isinstance(x, np.generic):
        if x.dtype == object or x.dtype.kind in "USV":
            raise TypeError(f"Cannot convert a numpy array of dtype {x.dtype} to a tensor.")
        if isinstance(x, np.ndarray):
            return jax.device_put(x)  # a plain transfer: no conversion primitive to dispatch (a batch per step)
        return jnp.asarray(x)
    if _is_py_scalar(x) or isinstance(x, (list, tuple)):
        return jnp.asarray(x, dtype=jdtype(default_dtype(x)))
    if hasattr(x, "__array__"):
        return jnp.asarray(np.asarray(x))
    raise TypeError(
        f"Cannot convert an object of type {type(x).__name__} to a tensor: {x!r}. Expected a JAX array, a "
        "highlevel Variable, a numpy array, a Python scalar or a nested list of them."
    )


def result_dtype(*xs):
    """The promoted dtype name of the operands ``xs`` (weak Python scalars included)."""
    return cdt.result_type(*[node(x) for x in xs])


def promote(*xs):
    """The operands converted to their common dtype (contract promotion table)."""
    dt = result_dtype(*xs)
    return tuple(convert(x, dt) for x in xs)


def promote_float(*xs):
    """Like :func:`promote`, then integer or bool results become floatx (float math on ints)."""
    dt = result_dtype(*xs)
    if dt not in cdt.FLOAT_DTYPES and dt not in cdt.COMPLEX_DTYPES:
        dt = cdt.floatx()
    return tuple(convert(x, dt) for x in xs)


def to_float(x):
    """``x`` as an array, cast to floatx unless it already is a float array."""
    x = convert(x)
    if dtype_name(x) not in cdt.FLOAT_DTYPES and dtype_name(x) not in cdt.COMPLEX_DTYPES:
        x = x.astype(jdtype(cdt.floatx()))
    return x


def is_float(x):
    return dtype_name(x) in cdt.FLOAT_DTYPES


def is_int(x):
    return dtype_name(x) in cdt.INT_DTYPES
