"""Turning op inputs into ``tf.Tensor`` values and promoting them by the contract's dtype table.

TensorFlow never promotes dtypes by itself (``float32 + float64`` is an error), so every op funnels its
operands through :func:`convert` (one input) or :func:`promote` (several inputs that must share a dtype).
Python scalars are *weak*: they take the dtype of the tensors they meet; numpy scalars and arrays are strong.

>>> import numpy as np
>>> a, b = promote(np.ones(2, "float32"), 2.5)
>>> a.dtype.name, b.dtype.name
('float32', 'float32')
>>> a, b = promote(np.ones(2, "float32"), np.float64(2.5))
>>> b.dtype.name
'float64'
"""

import numpy as np
import tensorflow as tf

from highlevel.backends.contract import Variable, dtypes

_TF_DTYPES = {}


def tf_dtype(name):
    """The ``tf.DType`` for a dtype name (or anything :func:`dtypes.standardize_dtype` accepts)."""
    name = dtypes.standardize_dtype(name)
    d = _TF_DTYPES.get(name)
    if d is None:
        d = _TF_DTYPES[name] = tf.as_dtype(name)
    return d


def np_dtype(name):
    """The numpy dtype for a dtype name (bfloat16 comes from ml_dtypes through TensorFlow)."""
    return tf_dtype(name).as_numpy_dtype


def dtype_name(x):
    """The canonical dtype string of a tensor, tf.Variable or numpy value."""
    return dtypes.standardize_dtype(x.dtype.name if hasattr(x.dtype, "name") else x.dtype)


def is_py_scalar(x):
    """True for Python ``bool``/``int``/``float`` values (weakly typed), False for numpy scalars."""
    return isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic)


def is_tf(x):
    return isinstance(x, (tf.Tensor, tf.Variable))


def _leaves(x, out):
    if isinstance(x, (list, tuple)):
        for e in x:
            _leaves(e, out)
    else:
        out.append(x)
    return out


def _key(x):
    """What :func:`dtypes.result_type` should see for ``x``: the value itself when weak, else its dtype."""
    if is_py_scalar(x):
        return x
    if isinstance(x, Variable):
        return x.dtype
    if isinstance(x, (list, tuple)):
        return _list_dtype(x)
    if hasattr(x, "dtype"):
        return dtype_name(x)
    raise TypeError(
        f"Cannot use {type(x).__name__} {x!r} as a tensor; expected a tensor, a Variable, "
        "a numpy array, a Python scalar or a nested list of those."
    )


def _list_dtype(x):
    leaves = _leaves(x, [])
    if not leaves:
        return dtypes.floatx()
    return dtypes.result_type(*[_key(e) for e in leaves])


def _has_tensor(x):
    return any(is_tf(e) or isinstance(e, Variable) for e in _leaves(x, []))


def convert(x, dtype=None):
    """Returns ``x`` as a ``tf.Tensor`` (a ``tf.Variable`` is read), cast to ``dtype`` when given.

    Without ``dtype``: Python floats become floatx, Python ints int32, bools bool; numpy values keep their
    dtype; nested lists take the promoted dtype of their entries (Python numbers being weak).
    """
    if isinstance(x, Variable):
        # Another engine's Variable (a layer's weight read inside a tf.data pipeline): its current value.
        x = x.value if x.backend is None or x.backend.name == "tensorflow" else x.backend.to_numpy(x.value)
    if isinstance(x, tf.Tensor):
        if dtype is not None:
            d = tf_dtype(dtype)
            if x.dtype != d:
                return tf.cast(x, d)
        return x
    if isinstance(x, tf.Variable):
        t = x.value()
        return convert(t, dtype)
    if isinstance(x, tf.SparseTensor):
        # a sparse=True output fed to a layer: its dense values (the same numbers the layer computes on)
        return convert(tf.sparse.to_dense(x), dtype)
    if isinstance(x, tf.RaggedTensor):
        raise TypeError(
            f"A tf.RaggedTensor (shape {x.shape}: rows of different lengths) cannot enter a layer that "
            "computes on dense tensors. Pad it first (`x.to_tensor()`), or let the layer that made it pad "
            "(TextVectorization without ragged=True, with output_sequence_length)."
        )
    if is_py_scalar(x):
        if dtype is None:
            if isinstance(x, bool):
                dtype = "bool"
            elif isinstance(x, int):
                dtype = "int32" if -(2**31) <= x < 2**31 else "int64"
            elif isinstance(x, complex):
                dtype = dtypes.result_type(complex)
            else:
                dtype = dtypes.floatx()
        return tf.constant(np.asarray(x).astype(np_dtype(dtype)))
    if isinstance(x, (list, tuple)):
        target = dtypes.standardize_dtype(dtype) if dtype is not None else _list_dtype(x)
        if _has_tensor(x):
            # Entries that are tensors cannot go through numpy inside tf.function: stack them.
            return tf.stack([convert(e, target) for e in x])
        return tf.constant(np.asarray(x, dtype=np_dtype(target)))
    if isinstance(x, (np.ndarray, np.generic)):
        if dtype is not None:
            x = np.asarray(x).astype(np_dtype(dtype), copy=False)
        else:
            dtypes.standardize_dtype(x.dtype)  # refuses complex, object, strings with a clear message
        return tf.constant(x)
    if hasattr(x, "__array__"):
        return convert(np.asarray(x), dtype)
    raise TypeError(
        f"Cannot convert {type(x).__name__} {x!r} to a tensorflow tensor; expected a tensor, a "
        "Variable, a numpy array, a Python scalar or a nested list of those."
    )


def promote(*xs):
    """Converts ``xs`` to tensors of their common dtype by the contract's promotion table."""
    if len(xs) == 2:  # fast path: two tensors of one dtype
        a, b = xs
        if isinstance(a, tf.Tensor) and isinstance(b, tf.Tensor) and a.dtype == b.dtype:
            return a, b
    target = dtypes.result_type(*[_key(x) for x in xs])
    return tuple(convert(x, target) for x in xs)


def promoted_dtype(*xs):
    """The dtype name :func:`promote` would give ``xs``."""
    return dtypes.result_type(*[_key(x) for x in xs])


def to_float(x):
    """``x`` as a tensor, cast to floatx unless it is already a float tensor (for float-only math)."""
    x = convert(x)
    if not x.dtype.is_floating and not x.dtype.is_complex:
        x = tf.cast(x, tf_dtype(dtypes.floatx()))
    return x


def promote_float(*xs):
    """Like :func:`promote`, then cast to floatx when the common dtype is not a float."""
    xs = promote(*xs)
    if not xs[0].dtype.is_floating and not xs[0].dtype.is_complex:
        d = tf_dtype(dtypes.floatx())
        xs = tuple(tf.cast(x, d) for x in xs)
    return xs


def static_shape(x):
    """The shape of tensor ``x`` as a tuple of Python ints, raising if a dimension is unknown."""
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if dims is None or any(d is None for d in dims):
        raise ValueError(
            f"This op needs a tensor of fully known shape; received shape {x.shape}. "
            "Give tf.function an input_signature with static shapes."
        )
    return tuple(dims)
