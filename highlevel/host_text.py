"""Which inputs are text: numpy arrays of str/bytes (or object arrays of them), nested lists or tuples of
strings, and single strings.

No engine holds text as a tensor (JAX and PyTorch have no string type), so the front end leaves such inputs on
the host for the layers that read text (StringLookup, TextVectorization, Hashing).

>>> import numpy as np
>>> is_text(np.array(["a", "b"])), is_text([["x"]]), is_text(np.zeros(2))
(True, True, False)
>>> is_string_dtype("string"), is_string_dtype(str), is_string_dtype("float32")
(True, True, False)
"""

import numpy as np

_STRINGS = (str, bytes, np.str_, np.bytes_)


def is_text(x):
    """True for text inputs (see the module docstring)."""
    if isinstance(x, np.ndarray):
        if x.dtype.kind in "US":
            return True
        return x.dtype.kind == "O" and x.size > 0 and isinstance(x.reshape(-1)[0], _STRINGS)
    if isinstance(x, (list, tuple)):
        while isinstance(x, (list, tuple)) and x:
            x = x[0]
    return isinstance(x, _STRINGS)


def is_string_dtype(dtype):
    """True when ``dtype`` names text: ``"string"`` (Keras's name), ``"str"``, ``"bytes"``, the Python types
    ``str``/``bytes``, a numpy ``U``/``S`` dtype, or a framework dtype whose name is ``"string"``."""
    if dtype is None:
        return False
    if dtype in (str, bytes, np.str_, np.bytes_):
        return True
    if isinstance(dtype, str):
        return dtype in ("string", "str", "bytes")
    if isinstance(dtype, np.dtype):
        return dtype.kind in "US"
    return getattr(dtype, "name", None) == "string"
