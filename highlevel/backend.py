"""``hl.backend``: Keras 3's ``keras.backend`` names (the active engine, dtype helpers, global settings).

Not to be confused with :mod:`highlevel.backends` (the registry and the engines themselves).

>>> import highlevel as hl
>>> hl.backend.backend() == hl.config.backend()
True
>>> hl.backend.standardize_dtype("float"), hl.backend.is_float_dtype("bfloat16"), hl.backend.is_int_dtype("uint8")
('float32', True, True)
"""

import collections
import threading

from highlevel.backends.contract import dtypes as _dtypes
from highlevel.config import backend, epsilon, floatx, image_data_format, set_epsilon, set_floatx, set_image_data_format

__all__ = [
    "backend",
    "clear_session",
    "epsilon",
    "floatx",
    "get_uid",
    "image_data_format",
    "is_float_dtype",
    "is_int_dtype",
    "is_keras_tensor",
    "result_type",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
    "standardize_dtype",
]

_uids = collections.defaultdict(int)
_uid_lock = threading.Lock()


def get_uid(prefix=""):
    """A counter per ``prefix``: 1 on the first call, then 2, 3, ... (until :func:`clear_session`).

    >>> import highlevel as hl
    >>> hl.backend.clear_session()
    >>> hl.backend.get_uid("dense"), hl.backend.get_uid("dense"), hl.backend.get_uid("conv")
    (1, 2, 1)

    Args:
        prefix: the name of the counter (default ``""``).

    Returns:
        The counter's new value, an int starting at 1.
    """
    with _uid_lock:
        _uids[prefix] += 1
        return _uids[prefix]


def clear_session(free_memory=True):
    """Resets the automatic names and, optionally, frees memory.

    Layer names start again at ``dense``, ``dense_1``, ...; with ``free_memory``, Python's garbage collector runs
    so that the tensors of dropped models are released.

    Args:
        free_memory: whether to run the garbage collector too (default True).

    Returns:
        None.

    >>> import highlevel as hl
    >>> hl.backend.clear_session()
    >>> hl.layers.Dense(1).name
    'dense'
    """
    from highlevel import naming

    with _uid_lock:
        _uids.clear()
    naming.reset_names()
    if free_memory:
        import gc

        gc.collect()


def standardize_dtype(dtype):
    """The canonical name of ``dtype`` (a string, a Python or numpy type, a framework dtype).

    Args:
        dtype: a dtype name (``"float"``, ``"float32"``...), a Python or numpy type, or a framework dtype; None gives
            floatx.

    Returns:
        The dtype's canonical name, a string such as ``"float32"``.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> hl.utils.standardize_dtype("float"), hl.utils.standardize_dtype(np.int32)
    ('float32', 'int32')
    """
    return _dtypes.standardize_dtype(dtype)


def is_float_dtype(dtype):
    """Tells whether a dtype is a floating-point dtype.

    Args:
        dtype: a dtype name (``"float32"``), a numpy dtype, or a framework dtype.

    Returns:
        True for ``float16``, ``bfloat16``, ``float32`` and ``float64``; False otherwise.

    >>> import highlevel as hl
    >>> hl.backend.is_float_dtype("bfloat16"), hl.backend.is_float_dtype("int32")
    (True, False)
    """
    return _dtypes.standardize_dtype(dtype) in _dtypes.FLOAT_DTYPES


def is_int_dtype(dtype):
    """Tells whether a dtype is a signed or unsigned integer dtype.

    Args:
        dtype: a dtype name (``"int32"``), a numpy dtype, or a framework dtype.

    Returns:
        True for the ``int*`` and ``uint*`` dtypes; False for floats, complex and bool.

    >>> import highlevel as hl
    >>> hl.backend.is_int_dtype("uint8"), hl.backend.is_int_dtype("bool")
    (True, False)
    """
    return _dtypes.standardize_dtype(dtype) in _dtypes.INT_DTYPES


def result_type(*dtypes):
    """Returns the dtype that mixing several dtypes gives, by the promotion table of every engine.

    Python scalar types (``int``, ``float``) are weak: they adapt to the tensor dtypes they meet.

    Args:
        *dtypes: dtype names, numpy dtypes, or the Python types ``bool``, ``int`` and ``float``.

    Returns:
        The promoted dtype's name, a str.

    >>> import highlevel as hl
    >>> hl.backend.result_type("int32", "float16"), hl.backend.result_type("float16", float)
    ('float16', 'float16')
    """
    return _dtypes.result_type(*dtypes)


def is_keras_tensor(x):
    """Whether ``x`` is a symbolic tensor (a :class:`~highlevel.KerasTensor`, as ``hl.Input`` makes).

    Args:
        x: any object.

    Returns:
        True for a symbolic tensor, False for anything else (a concrete tensor included).

    >>> import highlevel as hl
    >>> hl.utils.is_keras_tensor(hl.Input((3,))), hl.utils.is_keras_tensor(hl.ops.ones((3,)))
    (True, False)
    """
    from highlevel.keras_tensor import KerasTensor

    return isinstance(x, KerasTensor)
