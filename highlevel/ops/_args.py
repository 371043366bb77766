"""Argument checks and normalization for the front door: done once here, for every engine.

Each function takes what a user may pass (a negative axis, a list, ``"SAME"``, ``np.float32``, ``None``) and
returns the one canonical form the engines receive, or raises a ``ValueError``/``TypeError`` that names the op,
the argument, what was received and what is expected. The engines never see a non-canonical argument, so they
neither repeat these checks nor word their own errors.

Canonical forms:

* an axis list (reductions, ``flip``, ``squeeze``, ...): ``None`` or a tuple of distinct non-negative ints,
  sorted (``axes``) or in the given order (``axes(..., keep_order=True)``);
* one axis: a non-negative int (``axis``);
* ``data_format``: ``"channels_last"`` or ``"channels_first"`` (``None`` means the configured default);
* ``padding``: ``"valid"`` or ``"same"``; ``strides``, ``dilation_rate``, ``pool_size``: a tuple of one positive
  int per spatial axis;
* a dtype: its canonical name (``"float32"``), or ``None`` where the op has a default;
* a value the op needs on the host (a window's length or shape parameter): a Python int or float
  (``static_int``, ``static_float``); a concrete tensor is read, a symbolic one is refused;
* quantile levels ``q`` (``quantiles``): a float or a tuple of floats checked to lie in range, or a tensor of rank
  0 or 1, passed as it is.

>>> axes(-1, 3, "sum")
(2,)
>>> axis(-2, 3, "softmax")
1
>>> int_tuple(2, 2, "strides", "conv")
(2, 2)
"""

import numbers
import operator

import numpy as np

from highlevel.backends.contract import core as _core
from highlevel.backends.contract import dtypes as _dtypes


def ndim_of(x):
    """The rank of ``x`` (a tensor of any engine, a Variable, a KerasTensor, a numpy array, a scalar or a list)."""
    n = getattr(x, "ndim", None)
    if isinstance(n, int):
        return n
    shape = getattr(x, "shape", None)
    if shape is not None:
        try:
            return len(shape)
        except TypeError:  # a TensorFlow shape of unknown rank
            pass
    return np.ndim(x)


def shape_of(x):
    """The static shape of ``x`` as a tuple (``None`` for unknown dimensions, and for symbolic ones: a size that a
    function traced with a free batch sees)."""
    shape = getattr(x, "shape", None)
    if shape is None:
        return np.shape(x)
    return tuple(int(d) if isinstance(d, numbers.Integral) else None for d in shape)


def is_int(value):
    """True for a Python or numpy integer (not a bool)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _index(value, what, op):
    if not is_int(value):
        try:
            return operator.index(value)
        except TypeError:
            raise TypeError(
                f"{op}: `{what}` must be an integer; received {what}={value!r} of type {type(value).__name__}."
            ) from None
    return int(value)


def axis(value, ndim, op, name="axis", allow_none=False, extra=0):
    """One axis as a non-negative int in ``[0, ndim + extra)``; negative values count from the end.

    Args:
        value: the axis the user passed.
        ndim: the rank it indexes.
        op: the op's name, for the error message.
        name: the argument's name, for the error message.
        allow_none: whether ``None`` is accepted (and returned as is).
        extra: positions past the last axis that are valid (1 for an axis of a new dimension, as ``stack``'s).
    """
    if value is None:
        if allow_none:
            return None
        raise ValueError(f"{op}: `{name}` must be an integer; received None.")
    a = _index(value, name, op)
    n = ndim + extra
    if not -n <= a < n or n == 0:
        raise ValueError(f"{op}: {name}={value} is out of bounds for a tensor of rank {ndim} (valid: {-n} to {n - 1}).")
    return a % n


def axes(value, ndim, op, name="axis", keep_order=False, extra=0):
    """``None`` or a tuple of distinct non-negative axes (sorted unless ``keep_order``)."""
    if value is None:
        return None
    values = (value,) if not isinstance(value, (list, tuple)) else tuple(value)
    out = tuple(axis(v, ndim, op, name, extra=extra) for v in values)
    if len(set(out)) != len(out):
        raise ValueError(f"{op}: `{name}` repeats an axis; received {name}={value!r} for a tensor of rank {ndim}.")
    return out if keep_order else tuple(sorted(out))


def int_tuple(value, n, name, op, minimum=1):
    """``value`` (an int or a sequence of ``n`` ints) as a tuple of ``n`` ints, each at least ``minimum``."""
    if is_int(value):
        values = (int(value),) * n
    else:
        try:
            values = tuple(value)
        except TypeError:
            raise TypeError(
                f"{op}: `{name}` must be an int or a tuple of {n} ints; received {name}={value!r}."
            ) from None
        if len(values) == 1 and n > 1:
            values = values * n
        if len(values) != n or not all(is_int(v) for v in values):
            raise ValueError(
                f"{op}: `{name}` must be an int or a tuple of {n} ints (one per spatial axis); "
                f"received {name}={value!r}."
            )
        values = tuple(int(v) for v in values)
    if any(v < minimum for v in values):
        raise ValueError(f"{op}: every value of `{name}` must be >= {minimum}; received {name}={value!r}.")
    return values


def data_format(value, op="op"):
    """``"channels_last"`` or ``"channels_first"``; ``None`` gives the configured default
    (``hl.config.standardize_data_format``, the one check the layers use too)."""
    from highlevel.config import standardize_data_format

    return standardize_data_format(value, op)


def padding(value, op="op", allowed=("valid", "same")):
    """A padding mode in lower case, one of ``allowed``."""
    if isinstance(value, str) and value.lower() in allowed:
        return value.lower()
    raise ValueError(f"{op}: `padding` must be one of {list(allowed)}; received padding={value!r}.")


def dtype(value, op="op", allow_none=True):
    """The canonical dtype name of ``value`` (``None`` stays ``None`` when allowed)."""
    if value is None and allow_none:
        return None
    try:
        name = _dtypes.standardize_dtype(value)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{op}: `dtype` is not a dtype highlevel knows; received dtype={value!r} ({e}).") from None
    return name


def shape(value, op, name="shape", allow_minus_one=False):
    """A shape (an int or a sequence of ints) as a tuple of Python ints."""
    if is_int(value):
        value = (value,)
    try:
        out = tuple(_index(d, name, op) for d in value)
    except TypeError:
        raise TypeError(f"{op}: `{name}` must be an int or a sequence of ints; received {name}={value!r}.") from None
    minimum = -1 if allow_minus_one else 0
    if any(d < minimum for d in out):
        raise ValueError(f"{op}: `{name}` has a negative dimension; received {name}={value!r}.")
    if allow_minus_one and out.count(-1) > 1:
        raise ValueError(f"{op}: `{name}` can have at most one -1 dimension; received {name}={value!r}.")
    return out


def one_of(value, allowed, name, op):
    """``value`` checked to be one of ``allowed``."""
    if value not in allowed:
        raise ValueError(f"{op}: `{name}` must be one of {list(allowed)}; received {name}={value!r}.")
    return value


def integer(value, name, op):
    """``value`` as a Python int (numpy integers accepted)."""
    return _index(value, name, op)


def positive_int(value, name, op, minimum=1):
    """``value`` as a Python int of at least ``minimum``."""
    v = _index(value, name, op)
    if v < minimum:
        raise ValueError(f"{op}: `{name}` must be an integer >= {minimum}; received {name}={value!r}.")
    return v


def new_shape(value, old_shape, op):
    """A target shape for ``reshape``: ints, at most one -1, and the same number of elements as ``old_shape``
    when both are fully known."""
    out = shape(value, op, name="newshape", allow_minus_one=True)
    if None in old_shape:
        return out
    size = 1
    for d in old_shape:
        size *= d
    known = 1
    for d in out:
        if d != -1:
            known *= d
    if (-1 in out and (known == 0 or size % known)) or (-1 not in out and known != size):
        raise ValueError(
            f"{op}: cannot reshape a tensor of shape {tuple(old_shape)} ({size} elements) into shape {out}."
        )
    return out


def pad_width(value, ndim, op):
    """``pad``'s widths as one ``(before, after)`` pair of non-negative ints per axis.

    Accepts an int (every side), one pair (every axis) or one pair per axis, as numpy does."""
    if is_int(value):
        pairs = ((int(value), int(value)),) * ndim
    else:
        try:
            items = [tuple(p) if isinstance(p, (list, tuple, np.ndarray)) else (p,) for p in value]
        except TypeError:
            raise TypeError(
                f"{op}: `pad_width` must be an int, a (before, after) pair or one pair per axis; "
                f"received pad_width={value!r}."
            ) from None
        if len(items) == 1 and ndim != 1:
            items = items * ndim
        if len(items) == 2 and all(len(p) == 1 for p in items):  # a flat (before, after) pair
            items = [(items[0][0], items[1][0])] * ndim
        if len(items) != ndim or not all(len(p) in (1, 2) for p in items):
            raise ValueError(
                f"{op}: `pad_width` needs one (before, after) pair per axis ({ndim}); received pad_width={value!r}."
            )
        pairs = tuple((p[0], p[-1]) for p in items)
        pairs = tuple((_index(b, "pad_width", op), _index(a, "pad_width", op)) for b, a in pairs)
    if any(b < 0 or a < 0 for b, a in pairs):
        raise ValueError(f"{op}: `pad_width` must be non-negative; received pad_width={value!r}.")
    return pairs


def spatial_rank(inputs, op):
    """The number of spatial axes of a batch of images/sequences/volumes (rank 3, 4 or 5)."""
    n = ndim_of(inputs) - 2
    if n not in (1, 2, 3):
        raise ValueError(
            f"{op}: `inputs` must have rank 3, 4 or 5 (batch, 1 to 3 spatial axes, channels); "
            f"received a tensor of shape {shape_of(inputs)}."
        )
    return n


def _host_value(value, name, op):
    """``value`` as a numpy value: tensors of the current engine are read to the host; symbolic ones refused."""
    from highlevel.keras_tensor import KerasTensor

    if isinstance(value, KerasTensor):
        raise TypeError(
            f"{op}: `{name}` must be a concrete value (a Python number or a tensor with a value); "
            f"received the symbolic tensor {value!r}, whose value is known only when the model runs."
        )
    if isinstance(value, (numbers.Number, np.ndarray, np.generic)):
        return np.asarray(value)
    from highlevel.config import current_backend

    b = current_backend()
    try:
        if b.is_tensor(value):
            return np.asarray(b.to_numpy(value))
        return np.asarray(value)
    except Exception as e:  # each engine has its own error for a traced value
        raise TypeError(
            f"{op}: `{name}` must be a concrete value, known when the op is called (inside a compiled "
            f"function, pass a Python number); reading {name}={value!r} failed: {e}"
        ) from e


def static_int(value, name, op):
    """``value`` (an int, an integral float, or a concrete tensor holding one) as a Python int."""
    v = _host_value(value, name, op)
    if v.ndim != 0 or v.dtype.kind not in "iuf" or (v.dtype.kind == "f" and not float(v).is_integer()):
        raise TypeError(f"{op}: `{name}` must be one integer; received {name}={value!r}.")
    return int(v)


def static_float(value, name, op):
    """``value`` (a real number or a concrete tensor holding one) as a Python float."""
    v = _host_value(value, name, op)
    if v.ndim != 0 or v.dtype.kind not in "iuf":
        raise TypeError(f"{op}: `{name}` must be one real number; received {name}={value!r}.")
    return float(v)


def quantiles(q, op, top=1.0):
    """Quantile levels: a float or a tuple of floats in ``[0, top]``, or a tensor of rank 0 or 1 (unchecked).

    Args:
        q: the levels the user passed (a number, a sequence, a numpy array or a tensor).
        op: the op's name, for the error message.
        top: 1 for quantiles, 100 for percentiles.
    """
    from highlevel.config import current_backend
    from highlevel.keras_tensor import KerasTensor

    if isinstance(q, KerasTensor) or current_backend().is_tensor(q):
        if ndim_of(q) > 1:
            raise ValueError(f"{op}: `q` must be a number or a 1-D sequence; received a tensor of shape {shape_of(q)}.")
        return q
    try:
        v = np.asarray(q, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{op}: `q` must be a number or a 1-D sequence of numbers; received q={q!r}.") from None
    if v.ndim > 1:
        raise ValueError(f"{op}: `q` must be a number or a 1-D sequence; received q of shape {v.shape}.")
    if not np.all((v >= 0) & (v <= top)):
        what = "percentiles" if top == 100 else "quantiles"
        raise ValueError(f"{op}: {what} must be in the range [0, {top:g}]; received q={q!r}.")
    return float(v) if v.ndim == 0 else tuple(float(e) for e in v)


def min_rank(x, n, op, name="x"):
    """``x`` checked to have rank ``n`` or more."""
    if ndim_of(x) < n:
        raise ValueError(f"{op}: `{name}` must have rank {n} or more; received a tensor of shape {shape_of(x)}.")
    return x


def rank_in(x, ranks, op, name="x"):
    """``x`` checked to have one of the ``ranks``."""
    if ndim_of(x) not in ranks:
        wanted = " or ".join(str(r) for r in ranks)
        raise ValueError(f"{op}: `{name}` must have rank {wanted}; received a tensor of shape {shape_of(x)}.")
    return x


def sequence(value, op, name):
    """A non-empty list from a list or tuple (of tensors, usually)."""
    if not isinstance(value, (list, tuple)) or not value:
        raise ValueError(f"{op}: `{name}` must be a non-empty list or tuple; received {name}={value!r}.")
    return list(value)


def sections(value, size, op, axis, equal=True):
    """``indices_or_sections`` of a split: a number of sections (an int >= 1, dividing ``size`` when ``equal``
    and the size is known) or a tuple of int indices to cut at."""
    if is_int(value):
        n = positive_int(value, "indices_or_sections", op)
        if equal and size is not None and size % n:
            raise ValueError(
                f"{op}: cannot split axis {axis} of size {size} into {n} equal sections; pass a number "
                "of sections that divides it, or the indices to cut at."
            )
        return n
    try:
        return tuple(_index(i, "indices_or_sections", op) for i in value)
    except TypeError:
        raise TypeError(
            f"{op}: `indices_or_sections` must be an int or a sequence of ints; received {value!r}."
        ) from None


def dtype_of(x):
    """The dtype of ``x`` as promotion sees it: a canonical name, the Python type of a weak scalar (``bool``,
    ``int``, ``float``), or None where it cannot be told without computing (a list holding symbolic values)."""
    if isinstance(x, (bool, int, float)) and not isinstance(x, np.generic):
        return type(x)
    dt = getattr(x, "dtype", None)
    if dt is not None:
        return _dtypes.standardize_dtype(dt)
    try:
        kind = np.asarray(x).dtype.kind
    except Exception:  # noqa: BLE001 - tensors that cannot reach numpy here (inside a traced function)
        return None
    return {"b": bool, "i": int, "u": int, "f": float}.get(kind)


def _describe_dtype(dt):
    return f"a Python {dt.__name__}" if isinstance(dt, type) else f"a tensor of dtype {dt}"


def integer_input(x, op, name="x", allow_bool=False):
    """Refuses ``x`` unless its dtype is an integer (or bool, when ``allow_bool``); returns ``x`` unchanged.

    Bitwise and integer ops (shifts, ``gcd``, ``ldexp``'s exponent) are defined on the bits or the divisors of
    integers, so a float is an error on every engine, worded here once.
    """
    dt = dtype_of(x)
    if dt is None or dt is int or dt in _dtypes.INT_DTYPES or (allow_bool and dt in (bool, "bool")):
        return x
    expected = "an integer or bool tensor" if allow_bool else "an integer tensor"
    fix = (
        "cast it first, e.g. hl.ops.cast(x, 'int32')"
        if dt in (float,) + _dtypes.FLOAT_DTYPES
        else "cast the bools to an integer dtype first, e.g. hl.ops.cast(x, 'int32')"
    )
    raise TypeError(f"{op}: `{name}` must be {expected}; received {_describe_dtype(dt)}. To use {op} on it, {fix}.")


def number(value, name, op, allow_none=True):
    """``value`` (a Python or numpy number, or a 0-d array) as a Python number; tensors pass unchanged."""
    if value is None:
        if allow_none:
            return None
        raise ValueError(f"{op}: `{name}` must be a number; received None.")
    if isinstance(value, (bool, int, float)) and not isinstance(value, np.generic):
        return value
    if isinstance(value, (np.generic, np.ndarray)):
        if np.ndim(value) != 0:
            raise ValueError(f"{op}: `{name}` must be a single number; received an array of shape {np.shape(value)}.")
        return np.asarray(value).item()
    if isinstance(value, (str, bytes, list, tuple, dict)):
        raise TypeError(f"{op}: `{name}` must be a number; received {name}={value!r}.")
    return value


def argnums(value, op):
    """``argnums`` (an int or a tuple of distinct ints) as an int or a tuple of ints: the contract's one check."""
    nums, single = _core.standardize_argnums(value, op)
    return nums[0] if single else nums


def function(value, name, op):
    """``value`` checked to be callable (the functions of the control-flow ops)."""
    if not callable(value):
        raise TypeError(f"{op}: `{name}` must be a function; received {name}={value!r} of type {type(value).__name__}.")
    return value


def dtype_name_of(x):
    """The dtype name of ``x`` (a tensor of any engine, Variable, KerasTensor, numpy value, Python scalar or nested
    list of them, the latter by the contract's conversion rules), or None when it cannot be told."""
    d = getattr(x, "dtype", None)
    if d is not None:
        try:
            return _dtypes.standardize_dtype(d)
        except ValueError:
            return None
    if isinstance(x, bool):
        return "bool"
    if is_int(x):
        return "int32"
    if isinstance(x, float):
        return _dtypes.floatx()
    try:
        kind = np.asarray(x).dtype.kind
    except Exception:  # a list of tensors of some engine, ...
        return None
    return {"b": "bool", "i": "int32", "u": "int32", "f": _dtypes.floatx()}.get(kind)


def integers(value, name, op):
    """``value`` checked to hold integers (index tensors, segment ids)."""
    dt = dtype_name_of(value)
    if dt is not None and dt not in _dtypes.INT_DTYPES:
        raise TypeError(
            f"{op}: `{name}` must be an integer tensor; received a {dt} value. Cast it with "
            f"hl.ops.cast({name}, 'int32')."
        )
    return value


def int_scalar(value, name, op):
    """A Python int, or a 0-d integer tensor (returned as it is, for traced values)."""
    if is_int(value):
        return int(value)
    integers(value, name, op)
    if ndim_of(value) != 0:
        raise ValueError(
            f"{op}: `{name}` must be a scalar (an int or a 0-d integer tensor); received a value of "
            f"shape {shape_of(value)}."
        )
    return value


def matrices(x, op, name="x", square=False):
    """``x`` checked to be a matrix or a batch of matrices (rank 2 or more; square when asked)."""
    shape = shape_of(x)
    if len(shape) < 2:
        raise ValueError(
            f"{op}: `{name}` must have rank 2 or more (the last two axes are a matrix); received a "
            f"tensor of shape {shape}."
        )
    if square and None not in shape[-2:] and shape[-2] != shape[-1]:
        raise ValueError(
            f"{op}: `{name}` must hold square matrices (its last two axes of one size); received a "
            f"tensor of shape {shape}."
        )
    return x


def right_hand_side(a, b, op):
    """``solve``'s ``b`` checked against the square matrices ``a``: vectors ``(..., M)`` (rank of ``a`` minus one, or
    1) or matrices ``(..., M, K)``, with ``M`` the size of ``a``'s matrices."""
    sa, sb = shape_of(a), shape_of(b)
    m = sa[-1]
    if len(sb) < 1:
        raise ValueError(
            f"{op}: `b` must have rank 1 or more (vectors (..., M) or matrices (..., M, K)); received a "
            f"scalar of shape {sb}."
        )
    vector = len(sb) == len(sa) - 1 or len(sb) == 1
    rows = sb[-1] if vector else sb[-2]
    if m is not None and rows is not None and rows != m:
        kind = "vectors (..., M)" if vector else "matrices (..., M, K)"
        raise ValueError(
            f"{op}: `b` of shape {sb} read as {kind} has {rows} rows, but `a` of shape {sa} holds "
            f"{m}x{m} matrices; they must match."
        )
    return b


def real_pair(x, op, min_rank=1, name="x"):
    """A ``(real, imag)`` pair of tensors of one shape and rank ``min_rank`` or more, as a tuple."""
    if not isinstance(x, (list, tuple)) or len(x) != 2:
        raise ValueError(
            f"{op}: `{name}` must be a pair (real, imag) of tensors of one shape; received "
            f"{type(x).__name__}{'' if not isinstance(x, (list, tuple)) else f' of length {len(x)}'}."
        )
    real, imag = x
    sr, si = shape_of(real), shape_of(imag)
    if len(sr) != len(si) or any(a is not None and b is not None and a != b for a, b in zip(sr, si)):
        raise ValueError(
            f"{op}: the real and imaginary parts of `{name}` must have one shape; received shapes {sr} and {si}."
        )
    if len(sr) < min_rank:
        raise ValueError(f"{op}: the parts of `{name}` must have rank {min_rank} or more; received shape {sr}.")
    return (real, imag)


def optional_positive_int(value, name, op):
    """``None``, or ``value`` as a positive Python int."""
    return None if value is None else positive_int(value, name, op)


def boolean(value, name, op):
    """``value`` as a Python bool (bools and numpy bools only: a string or a number is refused)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{op}: `{name}` must be True or False; received {name}={value!r}.")
