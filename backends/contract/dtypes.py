"""Dtype names and the one promotion table that every backend follows.

Dtypes are named by strings ("float32", "int64", "bool", ...). The promotion rule is the lattice that
JAX and Keras 3 use: mixing an integer with a float gives that float (``int64 + float16 -> float16``),
never a wider float; Python scalars are *weak* and take the dtype of the tensor they meet
(``float32_tensor * 2.0 -> float32``). NumPy 2 instead promotes ``float32 * np.float64(2.0)`` to
float64; backends must follow this table, not their framework's defaults.

>>> result_type("int32", "float16")
'float16'
>>> result_type("float32", float)
'float32'
>>> result_type("int8", "uint8")
'int16'
>>> result_type("float64", "complex64"), result_type("float32", 1j)
('complex128', 'complex64')
"""

import numpy as np

FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
INT_DTYPES = ("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64")
#: complex numbers: a float32 (float64) real and imaginary part each
COMPLEX_DTYPES = ("complex64", "complex128")
ALLOWED_DTYPES = ("bool",) + INT_DTYPES + FLOAT_DTYPES + COMPLEX_DTYPES

_floatx = "float32"


def floatx():
    """The default float dtype (``"float32"`` unless changed with :func:`set_floatx`)."""
    return _floatx


def set_floatx(dtype):
    """Sets the default float dtype used when none is given."""
    global _floatx
    dtype = standardize_dtype(dtype)
    if dtype not in FLOAT_DTYPES:
        raise ValueError(f"floatx must be one of {FLOAT_DTYPES}; received {dtype!r}.")
    _floatx = dtype


_ALIASES = {
    "float": "float32",
    "double": "float64",
    "half": "float16",
    "int": "int64",
    "bool_": "bool",
    "float32": "float32",
    "float64": "float64",
    "float16": "float16",
    "bfloat16": "bfloat16",
    "complex": "complex128",
    "cfloat": "complex64",
    "cdouble": "complex128",
}


def standardize_dtype(dtype):
    """Returns the canonical string name of ``dtype``.

    Accepts strings, Python types (``float``, ``int``, ``bool``), numpy dtypes and framework dtype
    objects (anything with a ``name`` attribute or whose ``str`` names a known dtype).

    >>> standardize_dtype(np.float32)
    'float32'
    >>> standardize_dtype(None)
    'float32'
    """
    if dtype is None:
        return _floatx
    if dtype is float:
        return _floatx
    if dtype is int:
        return "int64"
    if dtype is bool:
        return "bool"
    if dtype is complex:
        return complex_of(_floatx)
    if isinstance(dtype, str):
        name = dtype
    elif hasattr(dtype, "name") and isinstance(dtype.name, str):
        name = dtype.name
    else:
        try:
            name = np.dtype(dtype).name
        except TypeError:
            name = str(dtype)
    # framework reprs such as "torch.float32" or "<dtype: 'float32'>"
    name = name.replace("torch.", "").replace("<dtype: '", "").replace("'>", "")
    name = _ALIASES.get(name, name)
    if name not in ALLOWED_DTYPES:
        raise ValueError(
            f"Unsupported dtype {dtype!r}. Expected one of {ALLOWED_DTYPES} "
            "(or a numpy/framework dtype naming one of them)."
        )
    return name


def is_float_dtype(dtype):
    return standardize_dtype(dtype) in FLOAT_DTYPES


def is_int_dtype(dtype):
    return standardize_dtype(dtype) in INT_DTYPES


def is_complex_dtype(dtype):
    return standardize_dtype(dtype) in COMPLEX_DTYPES


def complex_of(dtype):
    """The complex dtype whose parts are ``dtype``: complex128 for float64, complex64 for the other floats
    (float16 and bfloat16 have no complex counterpart; their values fit in complex64), integers and bool.

    >>> complex_of("float64"), complex_of("float32"), complex_of("int32")
    ('complex128', 'complex64', 'complex64')
    """
    dtype = standardize_dtype(dtype)
    if dtype in COMPLEX_DTYPES:
        return dtype
    return "complex128" if dtype == "float64" else "complex64"


def real_of(dtype):
    """The float dtype of the parts of a complex ``dtype`` (a real dtype is returned as it is).

    >>> real_of("complex64"), real_of("complex128"), real_of("int32")
    ('float32', 'float64', 'int32')
    """
    dtype = standardize_dtype(dtype)
    return {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)


# The lattice: each dtype lists the types directly above it. "i*", "f*" and "c*" are the weak types of
# Python ints, floats and complex numbers. As in JAX and Keras, complex64 sits above float32 and complex128 above
# float64 and complex64: float32 + complex64 -> complex64, float64 + complex64 -> complex128, int32 + complex64 ->
# complex64.
_EDGES = {
    "bool": ("i*",),
    "i*": ("uint8", "int8"),
    "uint8": ("uint16", "int16"),
    "uint16": ("uint32", "int32"),
    "uint32": ("uint64", "int64"),
    "uint64": ("f*",),
    "int8": ("int16",),
    "int16": ("int32",),
    "int32": ("int64",),
    "int64": ("f*",),
    "f*": ("float16", "bfloat16", "c*"),
    "float16": ("float32",),
    "bfloat16": ("float32",),
    "float32": ("float64", "complex64"),
    "float64": ("complex128",),
    "c*": ("complex64",),
    "complex64": ("complex128",),
    "complex128": (),
}


def _upper_set(node):
    seen, stack = set(), [node]
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.add(n)
            stack.extend(_EDGES[n])
    return seen


_UPPER = {n: frozenset(_upper_set(n)) for n in _EDGES}
_ORDER = {n: len(_UPPER[n]) for n in _EDGES}  # more ancestors above = lower in the lattice


def _lub(a, b):
    if a == b:
        return a
    common = _UPPER[a] & _UPPER[b]
    # the least upper bound is the common ancestor with the most ancestors of its own
    return max(common, key=lambda n: (_ORDER[n], n))


def _node_of(x):
    """The lattice node of a dtype, a Python scalar type or a Python scalar value."""
    if isinstance(x, np.generic):  # numpy scalars are strong (np.float64 even subclasses float)
        return standardize_dtype(x.dtype)
    if x is bool or isinstance(x, bool):
        return "bool"
    if x is int or (isinstance(x, int) and not isinstance(x, bool)):
        return "i*"
    if x is float or isinstance(x, float):
        return "f*"
    if x is complex or isinstance(x, complex):
        return "c*"
    return standardize_dtype(x)


def result_type(*dtypes):
    """The dtype that mixing ``dtypes`` gives, by the one table of all backends.

    Arguments are dtype names, Python scalar types (``int``, ``float``, ``bool``) or Python scalar
    values (treated as weak types). A result that is still weak (only Python scalars, or bool with a
    Python int) resolves to ``"int32"`` for integers, as in Keras, to :func:`floatx` for floats and to the
    complex dtype of floatx (:func:`complex_of`) for complex numbers.

    >>> result_type("bool", int)
    'int32'
    >>> result_type("uint64", "int64")
    'float32'
    """
    if not dtypes:
        raise ValueError("result_type() needs at least one dtype.")
    node = _node_of(dtypes[0])
    for d in dtypes[1:]:
        node = _lub(node, _node_of(d))
    if node == "i*":
        return "int32"
    if node == "f*":
        return _floatx
    if node == "c*":
        return complex_of(_floatx)
    return node
