"""``hl.ops.numpy``: the numpy-like ops (``keras.ops.numpy``'s names, arguments and semantics).

Every function goes through the front door (:mod:`highlevel.ops._door`): it runs on the current engine, or
records a node when called on symbolic tensors. Binary ops broadcast like numpy and promote dtypes with
:func:`highlevel.dtypes.result_type` (Python scalars are weak); float ops on integer inputs compute in floatx.

>>> import highlevel as hl
>>> x = hl.ops.numpy.arange(6, dtype="float32")
>>> hl.ops.convert_to_numpy(hl.ops.numpy.sum(hl.ops.numpy.reshape(x, (2, 3)), axis=0)).tolist()
[3.0, 5.0, 7.0]
"""

import builtins  # noqa: F401  (this module defines abs, max, min, sum, round, all, any)

import numpy as np

from highlevel.backends.contract import dtypes as _dtypes
from highlevel.keras_tensor import KerasTensor  # noqa: F401

from . import _args, _door

#: The padding modes of :func:`pad`.
PAD_MODES = ("constant", "reflect", "symmetric", "edge")

# The namespace's public names; each family of ops below adds its own with ``__all__ += [...]``.
__all__ = [
    "ndim",
    "size",
    "zeros",
    "ones",
    "full",
    "zeros_like",
    "ones_like",
    "full_like",
    "arange",
    "eye",
    "linspace",
    "copy",
    "negative",
    "abs",
    "sign",
    "sqrt",
    "square",
    "exp",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "floor",
    "ceil",
    "reciprocal",
    "isnan",
    "isinf",
    "isfinite",
    "logical_not",
    "round",
    "clip",
    "nan_to_num",
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "mod",
    "power",
    "arctan2",
    "maximum",
    "minimum",
    "logaddexp",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
    "sum",
    "mean",
    "max",
    "min",
    "prod",
    "var",
    "std",
    "any",
    "all",
    "argmax",
    "argmin",
    "cumsum",
    "cumprod",
    "matmul",
    "einsum",
    "tensordot",
    "outer",
    "reshape",
    "transpose",
    "swapaxes",
    "moveaxis",
    "concatenate",
    "stack",
    "split",
    "expand_dims",
    "squeeze",
    "take",
    "take_along_axis",
    "where",
    "pad",
    "tile",
    "repeat",
    "broadcast_to",
    "flip",
    "sort",
    "argsort",
    "divide_no_nan",
    "absolute",
    "true_divide",
    "amax",
    "amin",
    "exp2",
    "deg2rad",
    "rad2deg",
    "ravel",
    "ptp",
    "tril",
    "triu",
]


def ndim(x):
    """Returns the number of axes (the rank) of ``x``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        An int: 0 for a scalar, 1 for a vector, 2 for a matrix, and so on.

    >>> import highlevel as hl
    >>> hl.ops.ndim(hl.ops.zeros((2, 3, 4)))
    3
    >>> hl.ops.ndim(5.0)
    0
    """
    if isinstance(x, KerasTensor):
        return x.ndim
    return _door.call("ndim", x)


def size(x):
    """Returns the number of entries of ``x``: the product of its shape.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        The count as an int32 scalar tensor.

    >>> import highlevel as hl
    >>> int(hl.ops.convert_to_numpy(hl.ops.size(hl.ops.zeros((2, 3)))))
    6
    """
    return _door.call("size", x)


def zeros(shape, dtype=None):
    """Creates a tensor of the given shape filled with zeros.

    Args:
        shape: the shape, a tuple (or list) of non-negative ints, or an int for a vector.
        dtype: the dtype, a name such as ``"float32"`` or ``"int32"``; default floatx (``hl.config.floatx()``, float32
            unless changed).

    Returns:
        A tensor of shape ``shape`` and dtype ``dtype``.

    Raises:
        ValueError: ``shape`` has a negative size, or ``dtype`` is not a dtype name.

    >>> import highlevel as hl
    >>> x = hl.ops.zeros((2, 3))
    >>> tuple(x.shape), hl.ops.dtype(x)
    ((2, 3), 'float32')
    >>> hl.ops.convert_to_numpy(hl.ops.zeros(3, dtype="int32")).tolist()
    [0, 0, 0]
    """
    return _door.call("zeros", _args.shape(shape, "zeros"), dtype=_args.dtype(dtype, "zeros"))


def ones(shape, dtype=None):
    """Creates a tensor of the given shape filled with ones.

    Args:
        shape: the shape, a tuple (or list) of non-negative ints, or an int for a vector.
        dtype: the dtype, a name such as ``"float32"`` or ``"int32"``; default floatx (``hl.config.floatx()``, float32
            unless changed).

    Returns:
        A tensor of shape ``shape`` and dtype ``dtype``.

    Raises:
        ValueError: ``shape`` has a negative size, or ``dtype`` is not a dtype name.

    >>> import highlevel as hl
    >>> x = hl.ops.ones((2, 3))
    >>> tuple(x.shape), hl.ops.dtype(x)
    ((2, 3), 'float32')
    >>> hl.ops.convert_to_numpy(hl.ops.ones(3, dtype="int32")).tolist()
    [1, 1, 1]
    """
    return _door.call("ones", _args.shape(shape, "ones"), dtype=_args.dtype(dtype, "ones"))


def full(shape, fill_value, dtype=None):
    """Creates a tensor of the given shape filled with one value.

    Args:
        shape: the shape, a tuple (or list) of non-negative ints, or an int for a vector.
        fill_value: the value of every entry: a Python number, or a tensor broadcastable to ``shape``.
        dtype: the dtype (a name); default the dtype of ``fill_value`` (int32 for a Python int, floatx for a Python
            float).

    Returns:
        A tensor of shape ``shape``.

    Raises:
        ValueError: ``shape`` has a negative size, or ``dtype`` is not a dtype name.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.full((2, 2), 7)).tolist()
    [[7, 7], [7, 7]]
    >>> hl.ops.dtype(hl.ops.full((2,), 0.5))
    'float32'
    """
    return _door.call("full", _args.shape(shape, "full"), fill_value, dtype=_args.dtype(dtype, "full"))


def zeros_like(x, dtype=None):
    """Creates a tensor of zeros with the shape of ``x``.

    Args:
        x: the tensor whose shape (and, by default, dtype) the result takes.
        dtype: the dtype of the result (a name); default the dtype of ``x``.

    Returns:
        A tensor of the shape of ``x``.

    Raises:
        ValueError: ``dtype`` is not a dtype name.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1, 2, 3]])
    >>> hl.ops.convert_to_numpy(hl.ops.zeros_like(x)).tolist()
    [[0, 0, 0]]
    >>> hl.ops.dtype(hl.ops.zeros_like(x, dtype="float32"))
    'float32'
    """
    return _door.call("zeros_like", x, dtype=_args.dtype(dtype, "zeros_like"))


def ones_like(x, dtype=None):
    """Creates a tensor of ones with the shape of ``x``.

    Args:
        x: the tensor whose shape (and, by default, dtype) the result takes.
        dtype: the dtype of the result (a name); default the dtype of ``x``.

    Returns:
        A tensor of the shape of ``x``.

    Raises:
        ValueError: ``dtype`` is not a dtype name.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1, 2, 3]])
    >>> hl.ops.convert_to_numpy(hl.ops.ones_like(x)).tolist()
    [[1, 1, 1]]
    >>> hl.ops.dtype(hl.ops.ones_like(x, dtype="float32"))
    'float32'
    """
    return _door.call("ones_like", x, dtype=_args.dtype(dtype, "ones_like"))


def full_like(x, fill_value, dtype=None):
    """Creates a tensor filled with ``fill_value`` with the shape of ``x``.

    Args:
        x: the tensor whose shape (and, by default, dtype) the result takes.
        fill_value: the value of every entry, a Python number or a broadcastable tensor.
        dtype: the dtype of the result (a name); default the dtype of ``x``.

    Returns:
        A tensor of the shape of ``x``.

    Raises:
        ValueError: ``dtype`` is not a dtype name.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1, 2, 3]])
    >>> hl.ops.convert_to_numpy(hl.ops.full_like(x, 9)).tolist()
    [[9, 9, 9]]
    >>> hl.ops.dtype(hl.ops.full_like(x, 9, dtype="float32"))
    'float32'
    """
    return _door.call("full_like", x, fill_value, dtype=_args.dtype(dtype, "full_like"))


def arange(start, stop=None, step=None, dtype=None):
    """Returns evenly spaced values in the half-open interval ``[start, stop)``.

    Called with one argument, ``arange(n)`` counts from 0 to ``n - 1``, as Python's ``range``.

    Args:
        start: the first value; or, when ``stop`` is None, the end of the interval (the start is then 0).
        stop: the end of the interval, not included. Default None.
        step: the spacing between values (default 1); may be negative or fractional.
        dtype: the dtype (a name); default int32 when every argument is an int, floatx otherwise.

    Returns:
        A 1-D tensor of ``ceil((stop - start) / step)`` values.

    Raises:
        ValueError: ``dtype`` is not a dtype name.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.arange(5)).tolist()
    [0, 1, 2, 3, 4]
    >>> hl.ops.convert_to_numpy(hl.ops.arange(1.0, 2.0, 0.25)).tolist()
    [1.0, 1.25, 1.5, 1.75]
    """
    return _door.call("arange", start, stop=stop, step=1 if step is None else step, dtype=_args.dtype(dtype, "arange"))


def eye(N, M=None, k=0, dtype=None):
    """Creates a 2-D tensor with ones on a diagonal and zeros elsewhere.

    Args:
        N: the number of rows, an int.
        M: the number of columns (default None: ``N``, a square matrix).
        k: the diagonal: 0 (default) the main one, positive above it, negative below it.
        dtype: the dtype (a name); default floatx.

    Returns:
        A tensor of shape ``(N, M)``.

    Raises:
        ValueError: ``dtype`` is not a dtype name.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.eye(3, dtype="int32")).tolist()
    [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    >>> hl.ops.convert_to_numpy(hl.ops.eye(2, 3, k=1)).tolist()
    [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    return _door.call("eye", N, M=M, k=k, dtype=_args.dtype(dtype, "eye"))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """Returns ``num`` evenly spaced samples from ``start`` to ``stop``, as ``numpy.linspace``.

    Args:
        start: the first sample, a number or a tensor.
        stop: the last sample (or the end of the interval when ``endpoint`` is False), a number or a tensor
            broadcastable with ``start``.
        num: the number of samples, a non-negative int.
        endpoint: whether ``stop`` is the last sample.
        retstep: whether to return the spacing too.
        dtype: the dtype (default: the promotion of ``start``, ``stop`` and a Python float, so floatx for Python
            numbers); integer dtypes round the samples down.
        axis: where the samples' axis goes in the result, when ``start`` or ``stop`` is a tensor.

    Returns:
        The samples, a tensor of shape ``broadcast(start, stop)`` with a new axis of ``num`` at ``axis``; with
        ``retstep``, the pair ``(samples, step)``, the step in the samples' float dtype (NaN without an interval).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.linspace(0.0, 1.0, 5)).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> samples, step = hl.ops.linspace([0.0, 10.0], [1.0, 20.0], 3, retstep=True, axis=1)
    >>> hl.ops.convert_to_numpy(samples).tolist(), hl.ops.convert_to_numpy(step).tolist()
    ([[0.0, 0.5, 1.0], [10.0, 15.0, 20.0]], [0.5, 5.0])
    """
    num = _args.positive_int(num, "num", "linspace", minimum=0)
    if dtype is None:
        found = [_args.dtype_of(v) for v in (start, stop)]
        dtype = _dtypes.result_type(*[d for d in found if d is not None], float)
    else:
        dtype = _args.dtype(dtype, "linspace")
    axis = _args.axis(axis, builtins.max(_args.ndim_of(start), _args.ndim_of(stop)), "linspace", extra=1)
    return _door.call(
        "linspace", start, stop, num=num, endpoint=bool(endpoint), retstep=bool(retstep), dtype=dtype, axis=axis
    )


def copy(x):
    """Returns a copy of ``x``: a new tensor with the same values, shape and dtype.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor equal to ``x`` that shares no storage with it.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([1.0, 2.0])
    >>> y = hl.ops.copy(x)
    >>> hl.ops.convert_to_numpy(y).tolist(), y is x
    ([1.0, 2.0], False)
    """
    return _door.call("copy", x)


def negative(x):
    """Computes the numerical negative ``-x``, elementwise.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape and dtype of ``x``.

    >>> import highlevel as hl
    >>> y = hl.ops.negative([1, -2, 0])
    >>> print(hl.ops.convert_to_numpy(y))
    [-1  2  0]
    """
    return _door.call("negative", x)


def abs(x):
    """Computes the absolute value ``|x|``, elementwise.

    For a complex input, the modulus ``sqrt(re**2 + im**2)`` as a real tensor.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape and dtype of ``x`` (the real dtype for complex inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.abs([-1.5, 0.0, 2.0])
    >>> print(hl.ops.convert_to_numpy(y))
    [1.5 0.  2. ]
    """
    return _door.call("abs", x)


def sign(x):
    """Computes the sign of ``x``, elementwise: -1, 0 or 1.

    ``sign(0)`` is 0; the gradient is 0 everywhere.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape and dtype of ``x``.

    >>> import highlevel as hl
    >>> y = hl.ops.sign([-3.0, 0.0, 2.5])
    >>> print(hl.ops.convert_to_numpy(y))
    [-1.  0.  1.]
    """
    return _door.call("sign", x)


def sqrt(x):
    """Computes the non-negative square root of ``x``, elementwise.

    Negative inputs give NaN.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.sqrt([0.0, 1.0, 2.0, 9.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.     1.     1.4142 3.    ]
    """
    return _door.call("sqrt", x)


def square(x):
    """Computes the square ``x * x``, elementwise.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape and dtype of ``x``.

    >>> import highlevel as hl
    >>> y = hl.ops.square([-3, 0, 2])
    >>> print(hl.ops.convert_to_numpy(y))
    [9 0 4]
    """
    return _door.call("square", x)


def exp(x):
    """Computes the exponential ``e**x`` of ``x``, elementwise.

    Large inputs overflow to inf (above about 88 in float32).

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.exp([0.0, 1.0, -1.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [1.     2.7183 0.3679]
    """
    return _door.call("exp", x)


def expm1(x):
    """Computes ``exp(x) - 1``, elementwise, accurately for ``x`` near 0.

    Where ``exp(x) - 1`` would lose the small result to rounding, this keeps its precision.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.expm1([0.0, 1.0, -0.5])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [ 0.      1.7183 -0.3935]
    """
    return _door.call("expm1", x)


def log(x):
    """Computes the natural logarithm of ``x``, elementwise.

    ``log(0)`` is ``-inf`` and negative inputs give NaN.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.log([1.0, 2.718282, 10.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.     1.     2.3026]
    """
    return _door.call("log", x)


def log1p(x):
    """Computes ``log(1 + x)``, elementwise, accurately for ``x`` near 0.

    Defined for ``x > -1``; ``-1`` gives ``-inf``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.log1p([0.0, 1.0, -0.5])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [ 0.      0.6931 -0.6931]
    """
    return _door.call("log1p", x)


def log2(x):
    """Computes the base-2 logarithm of ``x``, elementwise.

    ``log2(x) = log(x) / log(2)``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.log2([1.0, 2.0, 8.0, 10.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.     1.     3.     3.3219]
    """
    return _door.call("log2", x)


def log10(x):
    """Computes the base-10 logarithm of ``x``, elementwise.

    ``log10(x) = log(x) / log(10)``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.log10([1.0, 10.0, 1000.0, 2.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.    1.    3.    0.301]
    """
    return _door.call("log10", x)


def sin(x):
    """Computes the sine of ``x``, elementwise, with ``x`` in radians.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.sin([0.0, 1.0, 3.14159])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.     0.8415 0.    ]
    """
    return _door.call("sin", x)


def cos(x):
    """Computes the cosine of ``x``, elementwise, with ``x`` in radians.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.cos([0.0, 1.0, 3.14159])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [ 1.      0.5403 -1.    ]
    """
    return _door.call("cos", x)


def tan(x):
    """Computes the tangent of ``x``, elementwise, with ``x`` in radians.

    Near odd multiples of pi/2 the result grows without bound.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.tan([0.0, 0.5, -1.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [ 0.      0.5463 -1.5574]
    """
    return _door.call("tan", x)


def arcsin(x):
    """Computes the inverse sine of ``x``, elementwise, in radians.

    The result lies in ``[-pi/2, pi/2]``; inputs outside ``[-1, 1]`` give NaN.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.arcsin([-1.0, 0.0, 0.5, 1.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-1.5708  0.      0.5236  1.5708]
    """
    return _door.call("arcsin", x)


def arccos(x):
    """Computes the inverse cosine of ``x``, elementwise, in radians.

    The result lies in ``[0, pi]``; inputs outside ``[-1, 1]`` give NaN.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.arccos([-1.0, 0.0, 0.5, 1.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [3.1416 1.5708 1.0472 0.    ]
    """
    return _door.call("arccos", x)


def arctan(x):
    """Computes the inverse tangent of ``x``, elementwise, in radians.

    The result lies in ``(-pi/2, pi/2)``. For the angle of a point ``(x, y)`` use :func:`arctan2`.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.arctan([-1.0, 0.0, 1.0, 100.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.7854  0.      0.7854  1.5608]
    """
    return _door.call("arctan", x)


def sinh(x):
    """Computes the hyperbolic sine of ``x``, elementwise.

    ``sinh(x) = (exp(x) - exp(-x)) / 2``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.sinh([-1.0, 0.0, 1.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-1.1752  0.      1.1752]
    """
    return _door.call("sinh", x)


def cosh(x):
    """Computes the hyperbolic cosine of ``x``, elementwise.

    ``cosh(x) = (exp(x) + exp(-x)) / 2``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.cosh([-1.0, 0.0, 1.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [1.5431 1.     1.5431]
    """
    return _door.call("cosh", x)


def tanh(x):
    """Computes the hyperbolic tangent of ``x``, elementwise.

    ``tanh(x) = sinh(x) / cosh(x)``, a value in ``(-1, 1)``; also used as an activation.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.tanh([-2.0, 0.0, 0.5, 2.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.964   0.      0.4621  0.964 ]
    """
    return _door.call("tanh", x)


def arcsinh(x):
    """Computes the inverse hyperbolic sine of ``x``, elementwise.

    ``arcsinh(x) = log(x + sqrt(x**2 + 1))``, defined for every real ``x``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.arcsinh([-1.0, 0.0, 1.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.8814  0.      0.8814]
    """
    return _door.call("arcsinh", x)


def arccosh(x):
    """Computes the inverse hyperbolic cosine of ``x``, elementwise.

    ``arccosh(x) = log(x + sqrt(x**2 - 1))``, defined for ``x >= 1`` (NaN below).

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.arccosh([1.0, 2.0, 10.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.     1.317  2.9932]
    """
    return _door.call("arccosh", x)


def arctanh(x):
    """Computes the inverse hyperbolic tangent of ``x``, elementwise.

    ``arctanh(x) = log((1 + x) / (1 - x)) / 2``, defined on ``(-1, 1)``; +-inf at +-1 and NaN outside.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.arctanh([-0.5, 0.0, 0.5])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.5493  0.      0.5493]
    """
    return _door.call("arctanh", x)


def floor(x):
    """Rounds ``x`` down to the nearest integer, elementwise.

    The result keeps a floating-point dtype; its gradient is 0.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.floor([-1.5, 0.2, 2.7])
    >>> print(hl.ops.convert_to_numpy(y))
    [-2.  0.  2.]
    """
    return _door.call("floor", x)


def ceil(x):
    """Rounds ``x`` up to the nearest integer, elementwise.

    The result keeps a floating-point dtype; its gradient is 0.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.ceil([-1.5, 0.2, 2.7])
    >>> print(hl.ops.convert_to_numpy(y))
    [-1.  1.  3.]
    """
    return _door.call("ceil", x)


def reciprocal(x):
    """Computes the reciprocal ``1 / x``, elementwise.

    Zero gives inf.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.reciprocal([1.0, 2.0, -4.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [ 1.    0.5  -0.25]
    """
    return _door.call("reciprocal", x)


def isnan(x):
    """Tests ``x`` for NaN (not a number), elementwise.

    Integer and bool inputs are never NaN.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A bool tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> y = hl.ops.isnan([1.0, float('nan'), float('inf')])
    >>> print(hl.ops.convert_to_numpy(y))
    [False  True False]
    """
    return _door.call("isnan", x)


def isinf(x):
    """Tests ``x`` for positive or negative infinity, elementwise.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A bool tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> y = hl.ops.isinf([1.0, float('nan'), float('inf'), -float('inf')])
    >>> print(hl.ops.convert_to_numpy(y))
    [False False  True  True]
    """
    return _door.call("isinf", x)


def isfinite(x):
    """Tests whether ``x`` is finite (neither infinite nor NaN), elementwise.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A bool tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> y = hl.ops.isfinite([1.0, float('nan'), float('inf')])
    >>> print(hl.ops.convert_to_numpy(y))
    [ True False False]
    """
    return _door.call("isfinite", x)


def logical_not(x):
    """Computes the logical negation of ``x``, elementwise.

    Nonzero values count as True and zeros as False.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A bool tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> y = hl.ops.logical_not([True, False, True])
    >>> print(hl.ops.convert_to_numpy(y))
    [False  True False]
    """
    return _door.call("logical_not", x)


def round(x, decimals=0):
    """Rounds ``x`` to a number of decimals, elementwise, with ties to the nearest even value.

    As numpy's ``round``: 0.5 and 2.5 round to 0 and 2, 1.5 to 2. The gradient is 0.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        decimals: the number of decimal places to keep (default 0); negative values round to tens, hundreds, ....

    Returns:
        A tensor of the shape and dtype of ``x``.

    Raises:
        ValueError: ``decimals`` is not an int.

    >>> import highlevel as hl
    >>> print(hl.ops.convert_to_numpy(hl.ops.round([0.5, 1.5, 2.5, -1.7])))
    [ 0.  2.  2. -2.]
    >>> print(hl.ops.convert_to_numpy(hl.ops.round([3.14159, 1234.5], decimals=2)))
    [   3.14 1234.5 ]
    """
    return _door.call("round", x, decimals=_args.integer(decimals, "decimals", "round"))


def clip(x, x_min, x_max):
    """Limits the values of ``x`` to the interval ``[x_min, x_max]``, elementwise.

    Values below ``x_min`` become ``x_min`` and values above ``x_max`` become ``x_max``. The gradient is 1 inside
    the interval and 0 outside.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        x_min: the lower bound, a number or a tensor broadcastable with ``x``.
        x_max: the upper bound, a number or a tensor broadcastable with ``x``.

    Returns:
        A tensor of the broadcast shape, in the promoted dtype of ``x`` and the bounds.

    >>> import highlevel as hl
    >>> print(hl.ops.convert_to_numpy(hl.ops.clip([-2.0, 0.5, 3.0], 0.0, 1.0)))
    [0.  0.5 1. ]
    """
    return _door.call("clip", x, x_min, x_max)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """Replaces NaN and infinite entries of ``x`` with finite numbers.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        nan: the value that replaces NaN (default 0.0).
        posinf: the value that replaces positive infinity (default None: the largest finite value of the dtype).
        neginf: the value that replaces negative infinity (default None: the most negative finite value).

    Returns:
        A tensor of the shape and dtype of ``x``; integer inputs are returned unchanged.

    >>> import highlevel as hl
    >>> x = [1.0, float("nan"), float("inf"), -float("inf")]
    >>> print(hl.ops.convert_to_numpy(hl.ops.nan_to_num(x, posinf=9.0, neginf=-9.0)))
    [ 1.  0.  9. -9.]
    """
    return _door.call("nan_to_num", x, nan=nan, posinf=posinf, neginf=neginf)


def add(x1, x2):
    """Adds ``x1`` and ``x2``, elementwise.

    The operands broadcast against each other as in numpy, and their dtypes promote to a common one (a Python number
    adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape of ``x1`` and ``x2``, in their promoted dtype.

    >>> import highlevel as hl
    >>> y = hl.ops.add([1, 2, 3], 10)
    >>> print(hl.ops.convert_to_numpy(y))
    [11 12 13]
    """
    return _door.call("add", x1, x2)


def subtract(x1, x2):
    """Subtracts ``x2`` from ``x1``, elementwise.

    The operands broadcast against each other as in numpy, and their dtypes promote to a common one (a Python number
    adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape of ``x1`` and ``x2``, in their promoted dtype.

    >>> import highlevel as hl
    >>> y = hl.ops.subtract([[1.0, 2.0], [3.0, 4.0]], [1.0, 0.5])
    >>> print(hl.ops.convert_to_numpy(y))
    [[0.  1.5]
     [2.  3.5]]
    """
    return _door.call("subtract", x1, x2)


def multiply(x1, x2):
    """Multiplies ``x1`` by ``x2``, elementwise.

    The operands broadcast against each other as in numpy, and their dtypes promote to a common one (a Python number
    adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape of ``x1`` and ``x2``, in their promoted dtype.

    >>> import highlevel as hl
    >>> y = hl.ops.multiply([1.0, 2.0, 3.0], [2.0, 0.5, -1.0])
    >>> print(hl.ops.convert_to_numpy(y))
    [ 2.  1. -3.]
    """
    return _door.call("multiply", x1, x2)


def divide(x1, x2):
    """Divides ``x1`` by ``x2``, elementwise (true division).

    Integer operands give a floating-point result; division by zero gives inf or NaN. The operands broadcast against
    each other as in numpy, and their dtypes promote to a common one (a Python number adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape, in the promoted floating-point dtype (floatx for integer operands).

    >>> import highlevel as hl
    >>> y = hl.ops.divide([1, 2, 3], 2)
    >>> print(hl.ops.convert_to_numpy(y))
    [0.5 1.  1.5]
    """
    return _door.call("divide", x1, x2)


def floor_divide(x1, x2):
    """Divides ``x1`` by ``x2`` and rounds down, elementwise: ``floor(x1 / x2)``.

    As with Python's ``//``, negative quotients round toward minus infinity. The operands broadcast against each other
    as in numpy, and their dtypes promote to a common one (a Python number adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape of ``x1`` and ``x2``, in their promoted dtype.

    >>> import highlevel as hl
    >>> y = hl.ops.floor_divide([7, -7, 7], [2, 2, -2])
    >>> print(hl.ops.convert_to_numpy(y))
    [ 3 -4 -4]
    """
    return _door.call("floor_divide", x1, x2)


def mod(x1, x2):
    """Computes the remainder of ``x1 / x2``, elementwise, with the sign of ``x2``.

    ``mod(x1, x2) = x1 - floor(x1 / x2) * x2``, as Python's ``%``. The operands broadcast against each other as in
    numpy, and their dtypes promote to a common one (a Python number adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape of ``x1`` and ``x2``, in their promoted dtype.

    >>> import highlevel as hl
    >>> y = hl.ops.mod([7, -7, 7], [3, 3, -3])
    >>> print(hl.ops.convert_to_numpy(y))
    [ 1  2 -2]
    """
    return _door.call("mod", x1, x2)


def power(x1, x2):
    """Raises ``x1`` to the power ``x2``, elementwise.

    The operands broadcast against each other as in numpy, and their dtypes promote to a common one (a Python number
    adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape of ``x1`` and ``x2``, in their promoted dtype.

    >>> import highlevel as hl
    >>> y = hl.ops.power([2.0, 3.0, 4.0], [2.0, 2.0, 0.5])
    >>> print(hl.ops.convert_to_numpy(y))
    [4. 9. 2.]
    """
    return _door.call("power", x1, x2)


def arctan2(x1, x2):
    """Computes the angle of the point ``(x2, x1)`` from the positive x axis, elementwise, in radians.

    Unlike ``arctan(x1 / x2)``, the signs of both arguments choose the quadrant, so the result lies in ``[-pi, pi]``;
    ``x1`` is the y coordinate and ``x2`` the x coordinate. The operands broadcast against each other as in numpy, and
    their dtypes promote to a common one (a Python number adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape, in the promoted floating-point dtype (floatx for integer operands).

    >>> import highlevel as hl
    >>> y = hl.ops.arctan2([1.0, 1.0, -1.0], [1.0, -1.0, -1.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [ 0.7854  2.3562 -2.3562]
    """
    return _door.call("arctan2", x1, x2)


def maximum(x1, x2):
    """Computes the larger of ``x1`` and ``x2``, elementwise.

    If either entry is NaN the result is NaN. The operands broadcast against each other as in numpy, and their dtypes
    promote to a common one (a Python number adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape of ``x1`` and ``x2``, in their promoted dtype.

    >>> import highlevel as hl
    >>> y = hl.ops.maximum([1.0, 5.0, -2.0], [3.0, 2.0, 0.0])
    >>> print(hl.ops.convert_to_numpy(y))
    [3. 5. 0.]
    """
    return _door.call("maximum", x1, x2)


def minimum(x1, x2):
    """Computes the smaller of ``x1`` and ``x2``, elementwise.

    If either entry is NaN the result is NaN. The operands broadcast against each other as in numpy, and their dtypes
    promote to a common one (a Python number adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape of ``x1`` and ``x2``, in their promoted dtype.

    >>> import highlevel as hl
    >>> y = hl.ops.minimum([1.0, 5.0, -2.0], [3.0, 2.0, 0.0])
    >>> print(hl.ops.convert_to_numpy(y))
    [ 1.  2. -2.]
    """
    return _door.call("minimum", x1, x2)


def logaddexp(x1, x2):
    """Computes ``log(exp(x1) + exp(x2))``, elementwise, without overflow.

    Useful to add probabilities kept as logarithms. The operands broadcast against each other as in numpy, and their
    dtypes promote to a common one (a Python number adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape, in the promoted floating-point dtype (floatx for integer operands).

    >>> import highlevel as hl
    >>> y = hl.ops.logaddexp([0.0, 100.0], [0.0, 100.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [  0.6931 100.6931]
    """
    return _door.call("logaddexp", x1, x2)


def equal(x1, x2):
    """Tests ``x1 == x2``, elementwise.

    The operands broadcast against each other as in numpy, and their dtypes promote to a common one (a Python number
    adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A bool tensor of the broadcast shape of ``x1`` and ``x2``.

    >>> import highlevel as hl
    >>> y = hl.ops.equal([1, 2, 3], [1, 0, 3])
    >>> print(hl.ops.convert_to_numpy(y))
    [ True False  True]
    """
    return _door.call("equal", x1, x2)


def not_equal(x1, x2):
    """Tests ``x1 != x2``, elementwise.

    The operands broadcast against each other as in numpy, and their dtypes promote to a common one (a Python number
    adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A bool tensor of the broadcast shape of ``x1`` and ``x2``.

    >>> import highlevel as hl
    >>> y = hl.ops.not_equal([1, 2, 3], [1, 0, 3])
    >>> print(hl.ops.convert_to_numpy(y))
    [False  True False]
    """
    return _door.call("not_equal", x1, x2)


def less(x1, x2):
    """Tests ``x1 < x2``, elementwise.

    The operands broadcast against each other as in numpy, and their dtypes promote to a common one (a Python number
    adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A bool tensor of the broadcast shape of ``x1`` and ``x2``.

    >>> import highlevel as hl
    >>> y = hl.ops.less([1, 2, 3], 2)
    >>> print(hl.ops.convert_to_numpy(y))
    [ True False False]
    """
    return _door.call("less", x1, x2)


def less_equal(x1, x2):
    """Tests ``x1 <= x2``, elementwise.

    The operands broadcast against each other as in numpy, and their dtypes promote to a common one (a Python number
    adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A bool tensor of the broadcast shape of ``x1`` and ``x2``.

    >>> import highlevel as hl
    >>> y = hl.ops.less_equal([1, 2, 3], 2)
    >>> print(hl.ops.convert_to_numpy(y))
    [ True  True False]
    """
    return _door.call("less_equal", x1, x2)


def greater(x1, x2):
    """Tests ``x1 > x2``, elementwise.

    The operands broadcast against each other as in numpy, and their dtypes promote to a common one (a Python number
    adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A bool tensor of the broadcast shape of ``x1`` and ``x2``.

    >>> import highlevel as hl
    >>> y = hl.ops.greater([1, 2, 3], 2)
    >>> print(hl.ops.convert_to_numpy(y))
    [False False  True]
    """
    return _door.call("greater", x1, x2)


def greater_equal(x1, x2):
    """Tests ``x1 >= x2``, elementwise.

    The operands broadcast against each other as in numpy, and their dtypes promote to a common one (a Python number
    adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A bool tensor of the broadcast shape of ``x1`` and ``x2``.

    >>> import highlevel as hl
    >>> y = hl.ops.greater_equal([1, 2, 3], 2)
    >>> print(hl.ops.convert_to_numpy(y))
    [False  True  True]
    """
    return _door.call("greater_equal", x1, x2)


def logical_and(x1, x2):
    """Computes the logical AND of ``x1`` and ``x2``, elementwise.

    Nonzero values count as True. The operands broadcast against each other as in numpy, and their dtypes promote to a
    common one (a Python number adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A bool tensor of the broadcast shape of ``x1`` and ``x2``.

    >>> import highlevel as hl
    >>> y = hl.ops.logical_and([True, True, False], [True, False, False])
    >>> print(hl.ops.convert_to_numpy(y))
    [ True False False]
    """
    return _door.call("logical_and", x1, x2)


def logical_or(x1, x2):
    """Computes the logical OR of ``x1`` and ``x2``, elementwise.

    Nonzero values count as True. The operands broadcast against each other as in numpy, and their dtypes promote to a
    common one (a Python number adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A bool tensor of the broadcast shape of ``x1`` and ``x2``.

    >>> import highlevel as hl
    >>> y = hl.ops.logical_or([True, True, False], [True, False, False])
    >>> print(hl.ops.convert_to_numpy(y))
    [ True  True False]
    """
    return _door.call("logical_or", x1, x2)


def logical_xor(x1, x2):
    """Computes the logical exclusive OR of ``x1`` and ``x2``, elementwise: True where exactly one is true.

    Nonzero values count as True. The operands broadcast against each other as in numpy, and their dtypes promote to a
    common one (a Python number adapts to the tensor's dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A bool tensor of the broadcast shape of ``x1`` and ``x2``.

    >>> import highlevel as hl
    >>> y = hl.ops.logical_xor([True, True, False], [True, False, False])
    >>> print(hl.ops.convert_to_numpy(y))
    [False  True False]
    """
    return _door.call("logical_xor", x1, x2)


def sum(x, axis=None, keepdims=False):
    """Sums the entries of ``x`` over the given axes.

    Bool inputs count their True entries.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis or axes to reduce: an int, a tuple of ints (negative values count from the end), or
            None (default) for all of them.
        keepdims: if True, the reduced axes stay in the result with size 1, so that it broadcasts against ``x``.

    Returns:
        A tensor of the shape of ``x`` without the reduced axes (kept with size 1 under ``keepdims``), in the dtype of
        ``x`` (int32 for bool inputs).

    Raises:
        ValueError: an axis is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 5.0]])
    >>> print(hl.ops.convert_to_numpy(hl.ops.sum(x)))
    11.0
    >>> print(hl.ops.convert_to_numpy(hl.ops.sum(x, axis=0)))
    [4. 7.]
    >>> tuple(hl.ops.sum(x, axis=1, keepdims=True).shape)
    (2, 1)
    """
    return _door.call("sum", x, axis=_args.axes(axis, _args.ndim_of(x), "sum"), keepdims=bool(keepdims))


def mean(x, axis=None, keepdims=False):
    """Averages the entries of ``x`` over the given axes.

    Integer inputs give a floating-point result (floatx).

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis or axes to reduce: an int, a tuple of ints (negative values count from the end), or
            None (default) for all of them.
        keepdims: if True, the reduced axes stay in the result with size 1, so that it broadcasts against ``x``.

    Returns:
        A tensor of the shape of ``x`` without the reduced axes, in the floating-point dtype of ``x``.

    Raises:
        ValueError: an axis is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 5.0]])
    >>> print(hl.ops.convert_to_numpy(hl.ops.mean(x)))
    2.75
    >>> print(hl.ops.convert_to_numpy(hl.ops.mean(x, axis=0)))
    [2.  3.5]
    >>> tuple(hl.ops.mean(x, axis=1, keepdims=True).shape)
    (2, 1)
    """
    return _door.call("mean", x, axis=_args.axes(axis, _args.ndim_of(x), "mean"), keepdims=bool(keepdims))


def max(x, axis=None, keepdims=False, initial=None):
    """Returns the maximum of ``x`` over ``axis`` (NaN propagates; ties share the gradient).

    Args:
        x: a tensor.
        axis: an int, a tuple of ints, or None (default) for every axis.
        keepdims: keep the reduced axes with size 1.
        initial: a number that joins the reduction (numpy's ``initial``): the result is at least ``initial``,
            and over an empty axis it is ``initial`` (without one, an empty axis is an error).

    Returns:
        A tensor of the dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.max([[1.0, 2.0], [3.0, 0.0]], axis=1, initial=2.5)).tolist()
    [2.5, 3.0]
    """
    kwargs = {} if initial is None else {"initial": _args.number(initial, "initial", "max")}
    return _door.call("max", x, axis=_args.axes(axis, _args.ndim_of(x), "max"), keepdims=bool(keepdims), **kwargs)


def min(x, axis=None, keepdims=False, initial=None):
    """Returns the minimum of ``x`` over ``axis`` (NaN propagates; ties share the gradient).

    Args:
        x: a tensor.
        axis: an int, a tuple of ints, or None (default) for every axis.
        keepdims: keep the reduced axes with size 1.
        initial: a number that joins the reduction (numpy's ``initial``): the result is at most ``initial``,
            and over an empty axis it is ``initial`` (without one, an empty axis is an error).

    Returns:
        A tensor of the dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.min([[1.0, 2.0], [3.0, 4.0]], axis=1, initial=2.5)).tolist()
    [1.0, 2.5]
    """
    kwargs = {} if initial is None else {"initial": _args.number(initial, "initial", "min")}
    return _door.call("min", x, axis=_args.axes(axis, _args.ndim_of(x), "min"), keepdims=bool(keepdims), **kwargs)


def prod(x, axis=None, keepdims=False, dtype=None):
    """Returns the product of ``x`` over ``axis``.

    Args:
        x: a tensor.
        axis: an int, a tuple of ints, or None (default) for every axis.
        keepdims: keep the reduced axes with size 1.
        dtype: the dtype to multiply in and return (``x`` is cast to it first). By default bool gives int32 and
            every other dtype is kept.

    Returns:
        A tensor of ``dtype`` (or of the default above).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.prod(hl.ops.convert_to_tensor([100, 100, 1000]), dtype="int64")).tolist()
    10000000
    """
    dtype = _args.dtype(dtype, "prod")
    kwargs = {} if dtype is None else {"dtype": dtype}
    return _door.call("prod", x, axis=_args.axes(axis, _args.ndim_of(x), "prod"), keepdims=bool(keepdims), **kwargs)


def var(x, axis=None, keepdims=False):
    """Computes the variance of ``x`` over the given axes.

    The population variance: ``mean((x - mean(x))**2)``, dividing by the number of entries (no Bessel correction).

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis or axes to reduce: an int, a tuple of ints (negative values count from the end), or
            None (default) for all of them.
        keepdims: if True, the reduced axes stay in the result with size 1, so that it broadcasts against ``x``.

    Returns:
        A tensor of the shape of ``x`` without the reduced axes, in the floating-point dtype of ``x``.

    Raises:
        ValueError: an axis is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 5.0]])
    >>> print(hl.ops.convert_to_numpy(hl.ops.var(x)).round(4))
    2.1875
    >>> print(hl.ops.convert_to_numpy(hl.ops.var(x, axis=0)).round(4))
    [1.   2.25]
    >>> tuple(hl.ops.var(x, axis=1, keepdims=True).shape)
    (2, 1)
    """
    return _door.call("var", x, axis=_args.axes(axis, _args.ndim_of(x), "var"), keepdims=bool(keepdims))


def std(x, axis=None, keepdims=False):
    """Computes the standard deviation of ``x`` over the given axes.

    The square root of the population variance (see :func:`var`): no Bessel correction.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis or axes to reduce: an int, a tuple of ints (negative values count from the end), or
            None (default) for all of them.
        keepdims: if True, the reduced axes stay in the result with size 1, so that it broadcasts against ``x``.

    Returns:
        A tensor of the shape of ``x`` without the reduced axes, in the floating-point dtype of ``x``.

    Raises:
        ValueError: an axis is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 5.0]])
    >>> print(hl.ops.convert_to_numpy(hl.ops.std(x)).round(4))
    1.479
    >>> print(hl.ops.convert_to_numpy(hl.ops.std(x, axis=0)).round(4))
    [1.  1.5]
    >>> tuple(hl.ops.std(x, axis=1, keepdims=True).shape)
    (2, 1)
    """
    return _door.call("std", x, axis=_args.axes(axis, _args.ndim_of(x), "std"), keepdims=bool(keepdims))


def any(x, axis=None, keepdims=False):
    """Tests whether any entry of ``x`` is true over the given axes.

    Nonzero values count as True; an empty reduction gives False.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis or axes to reduce: an int, a tuple of ints (negative values count from the end), or
            None (default) for all of them.
        keepdims: if True, the reduced axes stay in the result with size 1, so that it broadcasts against ``x``.

    Returns:
        A bool tensor of the shape of ``x`` without the reduced axes.

    Raises:
        ValueError: an axis is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[True, False], [False, False]])
    >>> print(hl.ops.convert_to_numpy(hl.ops.any(x)))
    True
    >>> print(hl.ops.convert_to_numpy(hl.ops.any(x, axis=0)))
    [ True False]
    >>> tuple(hl.ops.any(x, axis=1, keepdims=True).shape)
    (2, 1)
    """
    return _door.call("any", x, axis=_args.axes(axis, _args.ndim_of(x), "any"), keepdims=bool(keepdims))


def all(x, axis=None, keepdims=False):
    """Tests whether every entry of ``x`` is true over the given axes.

    Nonzero values count as True; an empty reduction gives True.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis or axes to reduce: an int, a tuple of ints (negative values count from the end), or
            None (default) for all of them.
        keepdims: if True, the reduced axes stay in the result with size 1, so that it broadcasts against ``x``.

    Returns:
        A bool tensor of the shape of ``x`` without the reduced axes.

    Raises:
        ValueError: an axis is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[True, False], [True, True]])
    >>> print(hl.ops.convert_to_numpy(hl.ops.all(x)))
    False
    >>> print(hl.ops.convert_to_numpy(hl.ops.all(x, axis=0)))
    [ True False]
    >>> tuple(hl.ops.all(x, axis=1, keepdims=True).shape)
    (2, 1)
    """
    return _door.call("all", x, axis=_args.axes(axis, _args.ndim_of(x), "all"), keepdims=bool(keepdims))


def argmax(x, axis=None, keepdims=False):
    """Returns the index of the largest entry of ``x`` along an axis.

    When several entries tie, the first one's index is returned.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis to search, an int; None (default) searches the flattened tensor.
        keepdims: if True, the searched axis stays in the result with size 1.

    Returns:
        An int32 tensor of the shape of ``x`` without ``axis`` (a scalar when ``axis`` is None).

    Raises:
        ValueError: ``axis`` is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1, 7, 3], [9, 2, 9]])
    >>> hl.ops.convert_to_numpy(hl.ops.argmax(x)).tolist()
    3
    >>> hl.ops.convert_to_numpy(hl.ops.argmax(x, axis=1)).tolist()
    [1, 0]
    """
    return _door.call(
        "argmax", x, axis=_args.axis(axis, _args.ndim_of(x), "argmax", allow_none=True), keepdims=bool(keepdims)
    )


def argmin(x, axis=None, keepdims=False):
    """Returns the index of the smallest entry of ``x`` along an axis.

    When several entries tie, the first one's index is returned.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis to search, an int; None (default) searches the flattened tensor.
        keepdims: if True, the searched axis stays in the result with size 1.

    Returns:
        An int32 tensor of the shape of ``x`` without ``axis`` (a scalar when ``axis`` is None).

    Raises:
        ValueError: ``axis`` is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1, 7, 3], [9, 2, 9]])
    >>> hl.ops.convert_to_numpy(hl.ops.argmin(x)).tolist()
    0
    >>> hl.ops.convert_to_numpy(hl.ops.argmin(x, axis=1)).tolist()
    [0, 1]
    """
    return _door.call(
        "argmin", x, axis=_args.axis(axis, _args.ndim_of(x), "argmin", allow_none=True), keepdims=bool(keepdims)
    )


def cumsum(x, axis=None, dtype=None):
    """Computes the cumulative sum of ``x`` along an axis.

    Entry ``i`` of the result is the sum of entries ``0`` to ``i`` (both included).

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis to accumulate along, an int; None (default) flattens ``x`` first.
        dtype: the dtype of the result (a dtype name); default the dtype of ``x`` (int32 for bool inputs).

    Returns:
        A tensor of the shape of ``x`` (1-D of ``size(x)`` entries when ``axis`` is None).

    Raises:
        ValueError: ``axis`` is out of range, or ``dtype`` is not a dtype name.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> hl.ops.convert_to_numpy(hl.ops.cumsum(x)).tolist()
    [1, 3, 6, 10, 15, 21]
    >>> hl.ops.convert_to_numpy(hl.ops.cumsum(x, axis=1)).tolist()
    [[1, 3, 6], [4, 9, 15]]
    """
    return _door.call(
        "cumsum",
        x,
        axis=_args.axis(axis, _args.ndim_of(x), "cumsum", allow_none=True),
        dtype=_args.dtype(dtype, "cumsum"),
    )


def cumprod(x, axis=None, dtype=None):
    """Computes the cumulative product of ``x`` along an axis.

    Entry ``i`` of the result is the product of entries ``0`` to ``i`` (both included).

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis to accumulate along, an int; None (default) flattens ``x`` first.
        dtype: the dtype of the result (a dtype name); default the dtype of ``x`` (int32 for bool inputs).

    Returns:
        A tensor of the shape of ``x`` (1-D of ``size(x)`` entries when ``axis`` is None).

    Raises:
        ValueError: ``axis`` is out of range, or ``dtype`` is not a dtype name.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> hl.ops.convert_to_numpy(hl.ops.cumprod(x)).tolist()
    [1, 2, 6, 24, 120, 720]
    >>> hl.ops.convert_to_numpy(hl.ops.cumprod(x, axis=1)).tolist()
    [[1, 2, 6], [4, 20, 120]]
    """
    return _door.call(
        "cumprod",
        x,
        axis=_args.axis(axis, _args.ndim_of(x), "cumprod", allow_none=True),
        dtype=_args.dtype(dtype, "cumprod"),
    )


def matmul(x1, x2):
    """Computes the matrix product of ``x1`` and ``x2``, with numpy's rules.

    Two matrices ``(n, k)`` and ``(k, m)`` give ``(n, m)``. A 1-D operand is a vector (a row on the left, a column
    on the right) whose axis is dropped from the result. Operands of rank above 2 are stacks of matrices: their
    leading (batch) axes broadcast.

    Args:
        x1: the left operand, of shape ``(..., n, k)`` or ``(k,)``.
        x2: the right operand, of shape ``(..., k, m)`` or ``(k,)``.

    Returns:
        A tensor of shape ``(..., n, m)`` (with the vector axes dropped), in the promoted dtype.

    >>> import highlevel as hl
    >>> a = hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> print(hl.ops.convert_to_numpy(hl.ops.matmul(a, a)))
    [[ 7. 10.]
     [15. 22.]]
    >>> tuple(hl.ops.matmul(hl.ops.ones((5, 2, 3)), hl.ops.ones((3, 4))).shape)
    (5, 2, 4)
    """
    return _door.call("matmul", x1, x2)


def einsum(subscripts, *operands):
    """Evaluates an Einstein summation: products of operands summed over the repeated indices.

    ``subscripts`` names each operand's axes with letters; a letter missing from the output (after ``->``) is
    summed over. For instance ``"ij,jk->ik"`` is a matrix product, ``"ii->i"`` a diagonal, ``"bij->bji"`` a batched
    transpose. ``...`` stands for any leading axes.

    Args:
        subscripts: the equation, a str such as ``"ij,jk->ik"``.
        *operands: the tensors, one per comma-separated term.

    Returns:
        A tensor with the output's axes, in the promoted dtype of the operands.

    >>> import highlevel as hl
    >>> a = hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> print(hl.ops.convert_to_numpy(hl.ops.einsum("ij,jk->ik", a, a)))
    [[ 7. 10.]
     [15. 22.]]
    >>> print(hl.ops.convert_to_numpy(hl.ops.einsum("ii->", a)))
    5.0
    """
    return _door.call("einsum", subscripts, *operands)


def tensordot(x1, x2, axes=2):
    """Contracts ``x1`` and ``x2`` over given axes: sums the products of their entries along them.

    Args:
        x1: the first tensor.
        x2: the second tensor.
        axes: an int ``n`` (default 2) contracts the last ``n`` axes of ``x1`` with the first ``n`` of ``x2``; a
            pair of sequences ``([a1, ...], [b1, ...])`` contracts axis ``a1`` of ``x1`` with ``b1`` of ``x2``, and
            so on.

    Returns:
        A tensor with the remaining axes of ``x1`` followed by those of ``x2``.

    >>> import highlevel as hl
    >>> a, b = hl.ops.ones((2, 3, 4)), hl.ops.ones((4, 3, 5))
    >>> tuple(hl.ops.tensordot(a, b, axes=([1, 2], [1, 0])).shape)
    (2, 5)
    >>> print(hl.ops.convert_to_numpy(hl.ops.tensordot([1.0, 2.0], [3.0, 4.0], axes=1)))
    11.0
    """
    return _door.call("tensordot", x1, x2, axes=axes)


def outer(x1, x2):
    """Computes the outer product of two vectors: ``out[i, j] = x1[i] * x2[j]``.

    Inputs of higher rank are flattened first.

    Args:
        x1: the first vector (flattened if not 1-D).
        x2: the second vector (flattened if not 1-D).

    Returns:
        A tensor of shape ``(size(x1), size(x2))``, in the promoted dtype.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.outer([1, 2], [1, 10, 100])).tolist()
    [[1, 10, 100], [2, 20, 200]]
    """
    return _door.call("outer", x1, x2)


def reshape(x, newshape):
    """Gives ``x`` a new shape with the same entries, in row-major order.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        newshape: the new shape, a tuple of ints (or one int); one entry may be -1, which takes the size that
            keeps the number of entries.

    Returns:
        A tensor of shape ``newshape`` and the dtype of ``x``.

    Raises:
        ValueError: the new shape does not hold the same number of entries as ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.arange(6)
    >>> hl.ops.convert_to_numpy(hl.ops.reshape(x, (2, 3))).tolist()
    [[0, 1, 2], [3, 4, 5]]
    >>> tuple(hl.ops.reshape(x, (-1, 2)).shape)
    (3, 2)
    """
    return _door.call("reshape", x, _args.new_shape(newshape, _args.shape_of(x), "reshape"))


def transpose(x, axes=None):
    """Permutes the axes of ``x``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axes: the new order of the axes, a permutation of ``range(ndim(x))``: axis ``i`` of the result is axis
            ``axes[i]`` of ``x``. Default None reverses the axes (the matrix transpose for 2-D).

    Returns:
        A tensor with the permuted shape and the dtype of ``x``.

    Raises:
        ValueError: ``axes`` does not list every axis of ``x`` exactly once.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.transpose([[1, 2, 3], [4, 5, 6]])).tolist()
    [[1, 4], [2, 5], [3, 6]]
    >>> tuple(hl.ops.transpose(hl.ops.zeros((2, 3, 4)), axes=(1, 0, 2)).shape)
    (3, 2, 4)
    """
    if axes is not None:
        n = _args.ndim_of(x)
        axes = _args.axes(axes, n, "transpose", name="axes", keep_order=True)
        if len(axes) != n:
            raise ValueError(
                f"transpose: `axes` must list every axis of the tensor once (a permutation of "
                f"{list(range(n))}); received axes={axes!r} for a tensor of rank {n}."
            )
    return _door.call("transpose", x, axes=axes)


def swapaxes(x, axis1, axis2):
    """Swaps two axes of ``x``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis1: the first axis (negative values count from the end).
        axis2: the second axis.

    Returns:
        A tensor with axes ``axis1`` and ``axis2`` exchanged.

    Raises:
        ValueError: an axis is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> tuple(hl.ops.swapaxes(hl.ops.zeros((2, 3, 4)), 0, 2).shape)
    (4, 3, 2)
    """
    n = _args.ndim_of(x)
    return _door.call(
        "swapaxes", x, _args.axis(axis1, n, "swapaxes", "axis1"), _args.axis(axis2, n, "swapaxes", "axis2")
    )


def moveaxis(x, source, destination):
    """Moves axes of ``x`` to new positions; the other axes keep their order.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        source: the axis to move, an int, or a sequence of them.
        destination: where each moved axis goes in the result: an int, or a sequence as long as ``source``.

    Returns:
        A tensor of the rearranged shape and the dtype of ``x``.

    Raises:
        ValueError: ``source`` and ``destination`` have different lengths, or an axis is out of range.

    >>> import highlevel as hl
    >>> x = hl.ops.zeros((2, 3, 4))
    >>> tuple(hl.ops.moveaxis(x, 0, -1).shape), tuple(hl.ops.moveaxis(x, [0, 1], [2, 0]).shape)
    ((3, 4, 2), (3, 4, 2))
    """
    n = _args.ndim_of(x)
    src = _args.axes(source, n, "moveaxis", name="source", keep_order=True)
    dst = _args.axes(destination, n, "moveaxis", name="destination", keep_order=True)
    if len(src) != len(dst):
        raise ValueError(
            f"moveaxis: `source` and `destination` must have the same number of axes; received "
            f"source={source!r} and destination={destination!r}."
        )
    return _door.call("moveaxis", x, src, dst)


def concatenate(xs, axis=0):
    """Joins a sequence of tensors along an existing axis.

    The tensors must have the same rank and the same sizes on every axis but ``axis``; their dtypes promote to a
    common one.

    Args:
        xs: a list or tuple of tensors.
        axis: the axis to join along (default 0; negative values count from the end).

    Returns:
        A tensor whose size along ``axis`` is the sum of the inputs' sizes.

    Raises:
        ValueError: ``xs`` is empty, the tensors have different ranks, or their other axes differ.

    >>> import highlevel as hl
    >>> a, b = hl.ops.convert_to_tensor([[1, 2]]), hl.ops.convert_to_tensor([[3, 4], [5, 6]])
    >>> hl.ops.convert_to_numpy(hl.ops.concatenate([a, b], axis=0)).tolist()
    [[1, 2], [3, 4], [5, 6]]
    >>> tuple(hl.ops.concatenate([hl.ops.zeros((2, 1)), hl.ops.zeros((2, 3))], axis=-1).shape)
    (2, 4)
    """
    xs = list(xs)
    if not xs:
        raise ValueError("concatenate: needs at least one tensor; received an empty sequence.")
    ranks = {_args.ndim_of(t) for t in xs}
    if len(ranks) > 1:
        raise ValueError(
            f"concatenate: every tensor must have the same rank; received ranks {[_args.ndim_of(t) for t in xs]}."
        )
    return _door.call("concatenate", xs, axis=_args.axis(axis, ranks.pop(), "concatenate"))


def stack(x, axis=0):
    """Joins a sequence of tensors of one shape along a new axis.

    Args:
        x: a sequence of tensors (promoted to their common dtype).
        axis: where the new axis goes in the result.

    Returns:
        A tensor with one more axis than the inputs, of length ``len(x)``.

    Raises:
        ValueError: ``x`` is an empty sequence.

    >>> import highlevel as hl
    >>> hl.ops.shape(hl.ops.stack([hl.ops.ones((2, 3)), hl.ops.zeros((2, 3))], axis=1))
    (2, 2, 3)
    """
    x = list(x)
    if not x:
        raise ValueError("stack: needs at least one tensor; received an empty sequence.")
    return _door.call("stack", x, axis=_args.axis(axis, _args.ndim_of(x[0]), "stack", extra=1))


def split(x, indices_or_sections, axis=0):
    """Splits ``x`` into several tensors along an axis.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        indices_or_sections: an int ``n`` splits into ``n`` equal parts (``n`` must divide the axis's size); a
            sorted list of indices cuts before each of them (``[2, 5]`` gives ``x[:2]``, ``x[2:5]``, ``x[5:]``).
        axis: the axis to split (default 0).

    Returns:
        A list of tensors, with the rank and dtype of ``x``.

    Raises:
        ValueError: an int ``indices_or_sections`` is below 1 or does not divide the size of ``axis``.

    >>> import highlevel as hl
    >>> x = hl.ops.arange(6)
    >>> [hl.ops.convert_to_numpy(t).tolist() for t in hl.ops.split(x, 3)]
    [[0, 1], [2, 3], [4, 5]]
    >>> [hl.ops.convert_to_numpy(t).tolist() for t in hl.ops.split(x, [1, 4])]
    [[0], [1, 2, 3], [4, 5]]
    """
    axis = _args.axis(axis, _args.ndim_of(x), "split")
    size = _args.shape_of(x)[axis]
    if _args.is_int(indices_or_sections):
        sections = int(indices_or_sections)
        if sections < 1 or (size is not None and size % sections):
            raise ValueError(
                f"split: cannot split axis {axis} of size {size} into {indices_or_sections} equal "
                "sections; pass a number of sections that divides it, or the indices to cut at."
            )
        indices_or_sections = sections
    return _door.call("split", x, indices_or_sections, axis=axis)


def expand_dims(x, axis):
    """Inserts new axes of size 1 into the shape of ``x``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: where the new axis goes in the result, an int (negative values count from the end), or a tuple of
            ints for several new axes.

    Returns:
        A tensor with the same entries and one more axis per entry of ``axis``.

    Raises:
        ValueError: an axis is out of range for the result's rank.

    >>> import highlevel as hl
    >>> x = hl.ops.zeros((2, 3))
    >>> tuple(hl.ops.expand_dims(x, 0).shape), tuple(hl.ops.expand_dims(x, -1).shape)
    ((1, 2, 3), (2, 3, 1))
    >>> tuple(hl.ops.expand_dims(x, (0, 2)).shape)
    (1, 2, 1, 3)
    """
    n_new = len(axis) if isinstance(axis, (list, tuple)) else 1
    axis = _args.axes(axis, _args.ndim_of(x), "expand_dims", extra=n_new)
    return _door.call("expand_dims", x, axis if len(axis) > 1 else axis[0])


def squeeze(x, axis=None):
    """Removes axes of size 1 from the shape of ``x``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis or axes to remove, an int or a tuple; each must have size 1. Default None removes every
            axis of size 1.

    Returns:
        A tensor with the same entries and fewer axes.

    Raises:
        ValueError: an axis given in ``axis`` does not have size 1, or is out of range.

    >>> import highlevel as hl
    >>> x = hl.ops.zeros((1, 3, 1))
    >>> tuple(hl.ops.squeeze(x).shape), tuple(hl.ops.squeeze(x, axis=0).shape)
    ((3,), (3, 1))
    """
    if axis is not None:
        shape = _args.shape_of(x)
        axis = _args.axes(axis, len(shape), "squeeze")
        bad = [a for a in axis if shape[a] not in (1, None)]
        if bad:
            raise ValueError(
                f"squeeze: can only remove axes of size 1; axis {bad[0]} of shape {shape} has size {shape[bad[0]]}."
            )
    return _door.call("squeeze", x, axis=axis)


def take(x, indices, axis=None):
    """Gathers the entries of ``x`` at integer indices along an axis.

    ``take(x, [2, 0], axis=1)`` is ``x[:, [2, 0]]``. Negative indices count from the end.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        indices: an integer tensor (or list) of any shape; its shape replaces ``axis`` in the result.
        axis: the axis to gather along; None (default) gathers from the flattened ``x``.

    Returns:
        A tensor of shape ``x.shape[:axis] + indices.shape + x.shape[axis + 1:]`` and the dtype of ``x``.

    Raises:
        IndexError: when the indices are known now (eager) and one is out of ``[-size, size)``; engines differ
            on such an index otherwise (NaN, an engine error), so none is let through. Under ``jax.jit`` or
            ``tf.function`` the indices are not known and the engine's gather decides.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> hl.ops.convert_to_numpy(hl.ops.take(x, [2, 0], axis=1)).tolist()
    [[3, 1], [6, 4]]
    >>> hl.ops.convert_to_numpy(hl.ops.take(x, [-1, 0])).tolist()
    [6, 1]
    """
    axis = _args.axis(axis, _args.ndim_of(x), "take", allow_none=True)
    indices = _check_take_range(x, indices, axis)
    return _door.call("take", x, indices, axis=axis)


def _check_take_range(x, indices, axis):
    """``indices`` checked against ``x``'s size along ``axis`` (see :mod:`highlevel.index_range`)."""
    from highlevel.index_range import check_index_range

    shape = _args.shape_of(x)
    size = int(np.prod(shape)) if axis is None and None not in shape else (None if axis is None else shape[axis])
    if size is None or isinstance(indices, KerasTensor):
        return indices
    if isinstance(indices, (int, list, tuple)):
        values = np.asarray(indices)
        if values.size == 0 or values.dtype.kind not in "iu":
            return indices
        tensor = values
    elif not str(_args.dtype_name_of(indices)).startswith(("int", "uint")):
        return indices
    else:
        tensor = indices
    where = "the flattened input" if axis is None else f"axis {axis}"
    template = (
        f"take: indices must be in [-{size}, {size}) for {where} of shape {tuple(shape)}; received indices from "
        "{lo} to {hi}. Clip or remap the indices into that range."
    )
    checked = check_index_range(tensor, -size, size, template)
    return indices if checked is tensor else checked


def take_along_axis(x, indices, axis=None):
    """Picks entries of ``x`` along an axis with an index tensor of the same rank.

    ``out[..., i, ...] = x[..., indices[..., i, ...], ...]`` along ``axis``: the counterpart of
    :func:`argsort` and :func:`argmax` with ``keepdims``, as numpy's ``take_along_axis``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        indices: an integer tensor of the rank of ``x``; its other axes broadcast against those of ``x``.
        axis: the axis to pick along; None flattens ``x`` (and ``indices`` must then be 1-D).

    Returns:
        A tensor of the broadcast shape, its ``axis`` of the size of ``indices``'s, in the dtype of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[10, 30, 20], [60, 40, 50]])
    >>> idx = hl.ops.argsort(x, axis=1)
    >>> hl.ops.convert_to_numpy(hl.ops.take_along_axis(x, idx, axis=1)).tolist()
    [[10, 20, 30], [40, 50, 60]]
    """
    return _door.call(
        "take_along_axis", x, indices, axis=_args.axis(axis, _args.ndim_of(x), "take_along_axis", allow_none=True)
    )


def where(condition, x1=None, x2=None):
    """Chooses entries from ``x1`` where ``condition`` is true and from ``x2`` elsewhere.

    ``condition``, ``x1`` and ``x2`` broadcast together; ``x1`` and ``x2`` promote to a common dtype. Called with
    ``condition`` alone, it returns the indices of the true entries (as numpy's ``nonzero``).

    Args:
        condition: a bool tensor (nonzero values count as True).
        x1: the values where ``condition`` holds, a tensor or number.
        x2: the values elsewhere, a tensor or number.

    Returns:
        A tensor of the broadcast shape; or, with ``condition`` alone, a tuple of int index tensors, one per axis.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([-1.0, 2.0, -3.0])
    >>> print(hl.ops.convert_to_numpy(hl.ops.where(x > 0, x, 0.0)))
    [0. 2. 0.]
    """
    return _door.call("where", condition, x1=x1, x2=x2)


def pad(x, pad_width, mode="constant", constant_values=None):
    """Pads ``x`` with values before and after each axis.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        pad_width: how much to add on each axis: a sequence of ``(before, after)`` pairs, one per axis; one pair
            for every axis; or an int for the same amount everywhere.
        mode: what the padding holds: ``"constant"`` (default: ``constant_values``), ``"reflect"`` (a mirror
            image without the edge entry), ``"symmetric"`` (a mirror image with it) or ``"edge"`` (the edge entry
            repeated).
        constant_values: the value of the padding in ``"constant"`` mode (default None: 0).

    Returns:
        A tensor whose axes are longer by ``before + after``, in the dtype of ``x``.

    Raises:
        ValueError: ``mode`` is not one of the four modes, or ``constant_values`` is given with another mode.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.pad([1, 2, 3], [(2, 1)])).tolist()
    [0, 0, 1, 2, 3, 0]
    >>> hl.ops.convert_to_numpy(hl.ops.pad([1, 2, 3], [(2, 2)], mode="reflect")).tolist()
    [3, 2, 1, 2, 3, 2, 1]
    """
    _args.one_of(mode, PAD_MODES, "mode", "pad")
    if constant_values is not None and mode != "constant":
        raise ValueError(
            f"pad: `constant_values` is only used with mode='constant'; received mode={mode!r} and "
            f"constant_values={constant_values!r}."
        )
    return _door.call(
        "pad", x, _args.pad_width(pad_width, _args.ndim_of(x), "pad"), mode=mode, constant_values=constant_values
    )


def tile(x, repeats):
    """Repeats the whole of ``x`` a number of times along each axis.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        repeats: an int, or a sequence of ints with one count per axis (a longer sequence adds leading axes).

    Returns:
        A tensor whose size on each axis is the original size times its count.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.tile([1, 2], 3)).tolist()
    [1, 2, 1, 2, 1, 2]
    >>> hl.ops.convert_to_numpy(hl.ops.tile([[1, 2]], (2, 1))).tolist()
    [[1, 2], [1, 2]]
    """
    return _door.call("tile", x, repeats)


def repeat(x, repeats, axis=None):
    """Repeats each entry of ``x`` a number of times, next to itself.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        repeats: the number of copies of each entry, an int, or an int sequence with one count per entry along
            ``axis``.
        axis: the axis to repeat along; None (default) flattens ``x`` first.

    Returns:
        A tensor whose ``axis`` is longer by the repeats (1-D when ``axis`` is None).

    Raises:
        ValueError: ``axis`` is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.repeat([1, 2], 2)).tolist()
    [1, 1, 2, 2]
    >>> hl.ops.convert_to_numpy(hl.ops.repeat([[1, 2]], [1, 3], axis=1)).tolist()
    [[1, 2, 2, 2]]
    """
    return _door.call("repeat", x, repeats, axis=_args.axis(axis, _args.ndim_of(x), "repeat", allow_none=True))


def broadcast_to(x, shape):
    """Broadcasts ``x`` to a shape, as numpy does.

    Axes of size 1 are stretched and missing leading axes added. For a symbolic ``x`` (from ``hl.Input``),
    ``shape`` may hold None, an unknown size, as ``ops.shape`` of a symbolic tensor gives:
    ``ops.broadcast_to(x, ops.shape(y))`` with a batch size of None.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        shape: the target shape, a tuple of ints (None entries allowed for a symbolic ``x``).

    Returns:
        A tensor of shape ``shape`` and the dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.broadcast_to([1, 2], (2, 2))).tolist()
    [[1, 2], [1, 2]]
    >>> hl.ops.broadcast_to(hl.Input((1, 3)), (None, 4, 3)).shape
    (None, 4, 3)
    """
    if isinstance(shape, (tuple, list)) and builtins.any(d is None for d in shape):
        return _broadcast_to_unknown(x, tuple(shape))
    return _door.call("broadcast_to", x, _args.shape(shape, "broadcast_to"))


def _broadcast_to_unknown(x, shape):
    if not isinstance(x, KerasTensor):
        raise ValueError(
            f"broadcast_to: `shape` has an unknown (None) size, {shape}, which only a symbolic tensor can take; "
            f"received a tensor of shape {tuple(_args.shape_of(x))}. Pass ops.shape(y) of a real tensor, or ints."
        )
    known = tuple(d for d in shape if d is not None)
    _args.shape(known, "broadcast_to")  # the known sizes are ints >= 0
    compatible = len(shape) >= x.ndim and builtins.all(
        d is None or s is None or s == 1 or s == d for d, s in zip(shape[len(shape) - x.ndim :], x.shape)
    )
    if not compatible:
        raise ValueError(f"broadcast_to: a tensor of shape {x.shape} cannot be broadcast to shape {shape}.")
    out = KerasTensor(shape, x.dtype)
    return _door.symbolic_node("broadcast_to", (x, shape), {}, out)


def flip(x, axis=None):
    """Reverses the order of the entries of ``x`` along the given axes.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: an int or tuple of ints; None (default) reverses every axis.

    Returns:
        A tensor of the shape and dtype of ``x``.

    Raises:
        ValueError: an axis is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> x = [[1, 2], [3, 4]]
    >>> hl.ops.convert_to_numpy(hl.ops.flip(x, axis=1)).tolist(), hl.ops.convert_to_numpy(hl.ops.flip(x)).tolist()
    ([[2, 1], [4, 3]], [[4, 3], [2, 1]])
    """
    return _door.call("flip", x, axis=_args.axes(axis, _args.ndim_of(x), "flip"))


def sort(x, axis=-1):
    """Sorts ``x`` along an axis, in ascending order.

    NaN entries sort to the end.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis to sort (default -1, the last).

    Returns:
        A sorted tensor of the shape and dtype of ``x``.

    Raises:
        ValueError: ``axis`` is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.sort([[3, 1, 2], [0, 9, 5]])).tolist()
    [[1, 2, 3], [0, 5, 9]]
    """
    return _door.call("sort", x, axis=_args.axis(axis, _args.ndim_of(x), "sort"))


def argsort(x, axis=-1):
    """Returns the indices that sort ``x`` along an axis, in ascending order.

    The sort is stable: equal entries keep their order.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis to sort (default -1, the last).

    Returns:
        An int32 tensor of the shape of ``x``; ``take_along_axis(x, argsort(x, axis), axis)`` is ``sort(x, axis)``.

    Raises:
        ValueError: ``axis`` is out of range for the rank of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.argsort([30, 10, 20, 10])).tolist()
    [1, 3, 2, 0]
    """
    return _door.call("argsort", x, axis=_args.axis(axis, _args.ndim_of(x), "argsort"))


def divide_no_nan(x1, x2):
    """Divides ``x1`` by ``x2``, elementwise, giving 0 where ``x2`` is 0.

    Safe division: no inf or NaN comes from a zero denominator, and the gradient there is 0. The operands broadcast
    against each other as in numpy, and their dtypes promote to a common one (a Python number adapts to the tensor's
    dtype).

    Args:
        x1: the first operand, a tensor or anything convertible to one (numpy array, list, Python number).
        x2: the second operand, broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape, in the promoted floating-point dtype (floatx for integer operands).

    >>> import highlevel as hl
    >>> y = hl.ops.divide_no_nan([1.0, 2.0, 3.0], [2.0, 0.0, 4.0])
    >>> print(hl.ops.convert_to_numpy(y))
    [0.5  0.   0.75]
    """
    return _door.call("divide_no_nan", x1, x2)


absolute = abs


true_divide = divide


amax = max


amin = min


def exp2(x):
    """Two to the power ``x``, elementwise.

    Args:
        x: a tensor; integer inputs compute in floatx.

    Returns:
        ``2 ** x``, a float tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.exp2(hl.ops.convert_to_tensor([0.0, 3.0]))).tolist()
    [1.0, 8.0]
    """
    return _door.call("exp2", x)


def deg2rad(x):
    """Converts angles from degrees to radians.

    Args:
        x: angles in degrees; integer inputs compute in floatx.

    Returns:
        ``x * pi / 180``.

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.deg2rad(180.0))):.5f}")
    3.14159
    """
    return _door.call("deg2rad", x)


def rad2deg(x):
    """Converts angles from radians to degrees.

    Args:
        x: angles in radians; integer inputs compute in floatx.

    Returns:
        ``x * 180 / pi``.

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.rad2deg(1.0))):.3f}")
    57.296
    """
    return _door.call("rad2deg", x)


def ravel(x):
    """Flattens ``x`` to one axis, in row-major order.

    Args:
        x: a tensor of any rank.

    Returns:
        A 1-D tensor of ``size(x)`` elements.

    >>> import highlevel as hl
    >>> hl.ops.ravel(hl.ops.ones((2, 3))).shape
    (6,)
    """
    return _door.call("ravel", x)


def ptp(x, axis=None, keepdims=False):
    """The range (maximum minus minimum) of ``x`` along ``axis`` ("peak to peak").

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes; None (default) reduces over every axis.
        keepdims: keep the reduced axes with size 1.

    Returns:
        ``max(x, axis) - min(x, axis)``, in the dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.ptp(hl.ops.convert_to_tensor([[1, 5], [2, 3]]), axis=1)).tolist()
    [4, 1]
    """
    return _door.call("ptp", x, axis=_args.axes(axis, _args.ndim_of(x), "ptp"), keepdims=bool(keepdims))


def tril(x, k=0):
    """The lower triangle of a matrix (or of each matrix of a batch): entries above the ``k``-th diagonal are 0.

    Args:
        x: a tensor of rank 2 or more; the last two axes are the matrix.
        k: the diagonal above which to zero: 0 is the main diagonal, a positive ``k`` keeps ``k`` diagonals
            above it, a negative one zeroes the main diagonal and ``-k - 1`` below it.

    Returns:
        A tensor of the shape and dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.tril(hl.ops.ones((3, 3), dtype="int32"))).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
    return _door.call("tril", _matrices(x, "tril"), k=_args.integer(k, "k", "tril"))


def triu(x, k=0):
    """The upper triangle of a matrix (or of each matrix of a batch): entries below the ``k``-th diagonal are 0.

    Args:
        x: a tensor of rank 2 or more; the last two axes are the matrix.
        k: the diagonal below which to zero (see :func:`tril`).

    Returns:
        A tensor of the shape and dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.triu(hl.ops.ones((2, 3), dtype="int32"), k=1)).tolist()
    [[0, 1, 1], [0, 0, 1]]
    """
    return _door.call("triu", _matrices(x, "triu"), k=_args.integer(k, "k", "triu"))


def _matrices(x, op, square=False):
    if _args.ndim_of(x) < 2:
        raise ValueError(
            f"{op}: `x` must have rank 2 or more (the last two axes are a matrix); received a tensor "
            f"of shape {_args.shape_of(x)}."
        )
    return _args.matrices(x, op, square=square)


# ----------------------------------------------------------------- NaN-ignoring reductions, order statistics, windows
def _reduction(name, x, axis, keepdims):
    return _door.call(name, x, axis=_args.axes(axis, _args.ndim_of(x), name), keepdims=bool(keepdims))


def nansum(x, axis=None, keepdims=False):
    """The sum of ``x`` along ``axis``, counting NaN entries as 0.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes; None (default) sums every entry.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The sum: 0 where every entry is NaN. Bool, int8 and int16 inputs sum in int32, uint8 and uint16 in uint32;
        other dtypes are kept.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, float("nan"), 3.0], [float("nan"), 2.0, 1.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.nansum(x, axis=1)).tolist()
    [4.0, 3.0]
    """
    return _reduction("nansum", x, axis, keepdims)


def nanmean(x, axis=None, keepdims=False):
    """The mean of the non-NaN entries of ``x`` along ``axis``.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes; None (default) averages every entry.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The mean (NaN where every entry is NaN), in the float dtype of ``x``; integer inputs give floatx.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, float("nan"), 3.0], [float("nan"), 2.0, 1.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.nanmean(x, axis=1)).tolist()
    [2.0, 1.5]
    """
    return _reduction("nanmean", x, axis, keepdims)


def nanmax(x, axis=None, keepdims=False):
    """The maximum of the non-NaN entries of ``x`` along ``axis``.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes; None (default) reduces every entry.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The maximum (NaN where every entry is NaN), in the dtype of ``x``. The gradient goes to the maximal
        entries (shared between ties) and is 0 at NaN entries.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, float("nan"), 3.0], [float("nan"), 2.0, 1.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.nanmax(x, axis=1)).tolist()
    [3.0, 2.0]
    """
    return _reduction("nanmax", x, axis, keepdims)


def nanmin(x, axis=None, keepdims=False):
    """The minimum of the non-NaN entries of ``x`` along ``axis``.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes; None (default) reduces every entry.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The minimum (NaN where every entry is NaN), in the dtype of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, float("nan"), 3.0], [float("nan"), 2.0, 1.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.nanmin(x, axis=1)).tolist()
    [1.0, 1.0]
    """
    return _reduction("nanmin", x, axis, keepdims)


def nanprod(x, axis=None, keepdims=False):
    """The product of ``x`` along ``axis``, counting NaN entries as 1.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes; None (default) multiplies every entry.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The product: 1 where every entry is NaN. Bool, int8 and int16 inputs multiply in int32, uint8 and uint16
        in uint32; other dtypes are kept.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, float("nan"), 3.0], [float("nan"), 2.0, 1.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.nanprod(x, axis=1)).tolist()
    [3.0, 2.0]
    """
    return _reduction("nanprod", x, axis, keepdims)


def nanstd(x, axis=None, keepdims=False):
    """The population standard deviation (ddof 0) of the non-NaN entries of ``x`` along ``axis``.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes; None (default) uses every entry.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The standard deviation (NaN where every entry is NaN), in the float dtype of ``x``; integer inputs give
        floatx.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, float("nan"), 3.0], [float("nan"), 2.0, 1.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.nanstd(x, axis=1)).tolist()
    [1.0, 0.5]
    """
    return _reduction("nanstd", x, axis, keepdims)


def nanvar(x, axis=None, keepdims=False):
    """The population variance (ddof 0) of the non-NaN entries of ``x`` along ``axis``.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes; None (default) uses every entry.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The variance (NaN where every entry is NaN), in the float dtype of ``x``; integer inputs give floatx.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, float("nan"), 3.0], [float("nan"), 2.0, 1.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.nanvar(x, axis=1)).tolist()
    [1.0, 0.25]
    """
    return _reduction("nanvar", x, axis, keepdims)


def nanargmax(x, axis=None, keepdims=False):
    """The index of the first maximum of the non-NaN entries of ``x`` along ``axis``.

    Args:
        x: a tensor.
        axis: one axis; None (default) indexes the flattened tensor.
        keepdims: keep the reduced axis (all axes when ``axis`` is None) with size 1.

    Returns:
        int32 indices; -1 where every entry is NaN (numpy raises an error there, which a compiled step cannot).
        The index is always that of a real entry: ``nanargmax([nan, -inf])`` is 1 (numpy, and Keras on every
        backend, answer 0, the index of the NaN that was to be ignored).

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, float("nan"), 3.0], [float("nan"), 2.0, 0.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.nanargmax(x, axis=1)).tolist()
    [2, 1]
    """
    return _door.call(
        "nanargmax", x, axis=_args.axis(axis, _args.ndim_of(x), "nanargmax", allow_none=True), keepdims=bool(keepdims)
    )


def nanargmin(x, axis=None, keepdims=False):
    """The index of the first minimum of the non-NaN entries of ``x`` along ``axis``.

    Args:
        x: a tensor.
        axis: one axis; None (default) indexes the flattened tensor.
        keepdims: keep the reduced axis (all axes when ``axis`` is None) with size 1.

    Returns:
        int32 indices; -1 where every entry is NaN (see :func:`nanargmax`).

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, float("nan"), 3.0], [float("nan"), 2.0, 0.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.nanargmin(x, axis=1)).tolist()
    [0, 2]
    """
    return _door.call(
        "nanargmin", x, axis=_args.axis(axis, _args.ndim_of(x), "nanargmin", allow_none=True), keepdims=bool(keepdims)
    )


def nancumsum(x, axis=None, dtype=None):
    """The cumulative sum of ``x`` along ``axis``, counting NaN entries as 0.

    Args:
        x: a tensor.
        axis: one axis; None (default) flattens ``x`` first.
        dtype: the dtype to sum in and return; default: the dtype of ``x`` (int32 for bool).

    Returns:
        A tensor of the shape of ``x`` (1-D when ``axis`` is None).

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, float("nan"), 3.0], [float("nan"), 2.0, 1.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.nancumsum(x, axis=1)).tolist()
    [[1.0, 1.0, 4.0], [0.0, 2.0, 3.0]]
    """
    return _door.call(
        "nancumsum",
        x,
        axis=_args.axis(axis, _args.ndim_of(x), "nancumsum", allow_none=True),
        dtype=_args.dtype(dtype, "nancumsum"),
    )


def nancumprod(x, axis=None, dtype=None):
    """The cumulative product of ``x`` along ``axis``, counting NaN entries as 1.

    Args:
        x: a tensor.
        axis: one axis; None (default) flattens ``x`` first.
        dtype: the dtype to multiply in and return; default: the dtype of ``x`` (int32 for bool).

    Returns:
        A tensor of the shape of ``x`` (1-D when ``axis`` is None).

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, float("nan"), 3.0], [float("nan"), 2.0, 1.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.nancumprod(x, axis=1)).tolist()
    [[1.0, 1.0, 3.0], [1.0, 2.0, 2.0]]
    """
    return _door.call(
        "nancumprod",
        x,
        axis=_args.axis(axis, _args.ndim_of(x), "nancumprod", allow_none=True),
        dtype=_args.dtype(dtype, "nancumprod"),
    )


def _quantile_call(name, x, q, axis, method, keepdims, top):
    from highlevel.backends.contract.statistics import QUANTILE_METHODS

    return _door.call(
        name,
        x,
        _args.quantiles(q, name, top=top),
        axis=_args.axes(axis, _args.ndim_of(x), name),
        method=_args.one_of(method, QUANTILE_METHODS, "method", name),
        keepdims=bool(keepdims),
    )


def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The ``q``-th quantiles of ``x`` along ``axis``.

    Args:
        x: a tensor.
        q: a level in [0, 1], a 1-D sequence of levels, or a tensor of rank 0 or 1 (whose entries outside
            [0, 1] give NaN).
        axis: an axis or a tuple of axes; None (default) uses every entry.
        method: where a quantile falls between two sorted entries ``a <= b``: ``"linear"`` (default)
            interpolates, ``"lower"`` takes ``a``, ``"higher"`` ``b``, ``"midpoint"`` ``(a + b) / 2`` and
            ``"nearest"`` the closer of the two (the even position on a tie).
        keepdims: keep the reduced axes with size 1.

    Returns:
        The quantiles, one per level along a new first axis when ``q`` is a sequence; NaN where a slice holds a
        NaN or is empty. In the float dtype of ``x`` (integer inputs give floatx). The gradient goes to the
        entries a quantile selects or interpolates.

    Raises:
        ValueError: if a level of a number or sequence ``q`` is outside [0, 1], or ``method`` is unknown.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([1.0, 2.0, 3.0, 4.0])
    >>> hl.ops.convert_to_numpy(hl.ops.quantile(x, [0.25, 0.5])).tolist()
    [1.75, 2.5]
    >>> hl.ops.convert_to_numpy(hl.ops.quantile(x, 0.5, method="lower")).tolist()
    2.0
    """
    return _quantile_call("quantile", x, q, axis, method, keepdims, 1.0)


def percentile(x, q, axis=None, method="linear", keepdims=False):
    """The ``q``-th percentiles of ``x`` along ``axis``: :func:`quantile` with levels in percent.

    Args:
        x: a tensor.
        q: a level in [0, 100], a 1-D sequence of levels, or a tensor of rank 0 or 1.
        axis: an axis or a tuple of axes; None (default) uses every entry.
        method: ``"linear"`` (default), ``"lower"``, ``"higher"``, ``"midpoint"`` or ``"nearest"`` (see
            :func:`quantile`).
        keepdims: keep the reduced axes with size 1.

    Returns:
        The percentiles, one per level along a new first axis when ``q`` is a sequence.

    Raises:
        ValueError: if a level of a number or sequence ``q`` is outside [0, 100], or ``method`` is unknown.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, 2.0, 3.0], [4.0, 8.0, 6.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.percentile(x, 50, axis=1)).tolist()
    [2.0, 6.0]
    """
    return _quantile_call("percentile", x, q, axis, method, keepdims, 100.0)


def median(x, axis=None, keepdims=False):
    """The median of ``x`` along ``axis``.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes; None (default) uses every entry.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The middle entry, or the mean of the two middle entries of an even count; NaN where a slice holds a NaN
        or is empty. In the float dtype of ``x`` (integer inputs give floatx).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.median(hl.ops.convert_to_tensor([[3, 1, 2], [4, 6, 9]]), axis=1)).tolist()
    [2.0, 6.0]
    """
    return _reduction("median", x, axis, keepdims)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """The ``q``-th quantiles of the non-NaN entries of ``x`` along ``axis``.

    Args:
        x: a tensor.
        q: a level in [0, 1], a 1-D sequence of levels, or a tensor of rank 0 or 1.
        axis: an axis or a tuple of axes; None (default) uses every entry.
        method: ``"linear"`` (default), ``"lower"``, ``"higher"``, ``"midpoint"`` or ``"nearest"`` (see
            :func:`quantile`).
        keepdims: keep the reduced axes with size 1.

    Returns:
        The quantiles of each slice's non-NaN entries (NaN where there are none); the gradient is 0 at NaN
        entries.

    Raises:
        ValueError: if a level of a number or sequence ``q`` is outside [0, 1], or ``method`` is unknown.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, 2.0, float("nan")], [4.0, 5.0, 6.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.nanquantile(x, 0.5, axis=1)).tolist()
    [1.5, 5.0]
    """
    return _quantile_call("nanquantile", x, q, axis, method, keepdims, 1.0)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    """The ``q``-th percentiles of the non-NaN entries of ``x`` along ``axis``.

    Args:
        x: a tensor.
        q: a level in [0, 100], a 1-D sequence of levels, or a tensor of rank 0 or 1.
        axis: an axis or a tuple of axes; None (default) uses every entry.
        method: ``"linear"`` (default), ``"lower"``, ``"higher"``, ``"midpoint"`` or ``"nearest"`` (see
            :func:`quantile`).
        keepdims: keep the reduced axes with size 1.

    Returns:
        The percentiles of each slice's non-NaN entries (NaN where there are none).

    Raises:
        ValueError: if a level of a number or sequence ``q`` is outside [0, 100], or ``method`` is unknown.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([1.0, 2.0, float("nan"), 4.0])
    >>> hl.ops.convert_to_numpy(hl.ops.nanpercentile(x, [50, 100])).tolist()
    [2.0, 4.0]
    """
    return _quantile_call("nanpercentile", x, q, axis, method, keepdims, 100.0)


def nanmedian(x, axis=None, keepdims=False):
    """The median of the non-NaN entries of ``x`` along ``axis``.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes; None (default) uses every entry.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The median of each slice's non-NaN entries (NaN where there are none), in the float dtype of ``x``
        (integer inputs give floatx).

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, float("nan"), 3.0], [float("nan"), float("nan"), 2.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.nanmedian(x, axis=1)).tolist()
    [2.0, 2.0]
    """
    return _reduction("nanmedian", x, axis, keepdims)


def _same_shape(a, b):
    return len(a) == len(b) and builtins.all(d is None or e is None or d == e for d, e in zip(a, b))


def average(x, axis=None, weights=None):
    """The mean of ``x`` along ``axis``, weighted by ``weights``.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes; None (default) averages every entry.
        weights: None (every entry weighs 1), a tensor of the shape of ``x``, or a 1-D tensor of one weight per
            position along ``axis`` (which must then be a single axis).

    Returns:
        ``sum(x * weights) / sum(weights)`` over ``axis``, in ``result_type(x, weights, float)`` (integer inputs
        give floatx). Differentiable with respect to ``x`` and ``weights``.

    Raises:
        ValueError: if the shape of ``weights`` fits neither rule.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[0.0, 1.0], [2.0, 3.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.average(x, axis=1, weights=hl.ops.convert_to_tensor([0.25, 0.75]))).tolist()
    [0.75, 2.75]
    """
    x_shape = _args.shape_of(x)
    axes = _args.axes(axis, len(x_shape), "average")
    if weights is not None:
        w_shape = _args.shape_of(weights)
        if not _same_shape(w_shape, x_shape):
            if axes is None:
                raise ValueError(
                    f"average: `weights` must have the shape of `x` when `axis` is None (or be 1-D "
                    f"with a single axis given); received weights of shape {w_shape} for x of shape "
                    f"{x_shape}."
                )
            if len(w_shape) != 1 or len(axes) != 1:
                raise ValueError(
                    f"average: `weights` must have the shape of `x` {x_shape}, or be 1-D along a single "
                    f"axis; received weights of shape {w_shape} with axis={axis!r}."
                )
            if None not in (w_shape[0], x_shape[axes[0]]) and w_shape[0] != x_shape[axes[0]]:
                raise ValueError(
                    f"average: 1-D `weights` need one weight per position along axis {axis!r} "
                    f"({x_shape[axes[0]]}); received {w_shape[0]} weights."
                )
    return _door.call("average", x, axis=axes, weights=weights)


def _window(name, x, *extra):
    return _door.call(name, _args.static_int(x, "x", name), *extra)


def bartlett(x):
    """The Bartlett (triangular) window: rises linearly from 0 to 1 and falls back to 0.

    Args:
        x: the number of points ``M`` (an int, or a tensor holding one; not a symbolic tensor). ``M < 1`` gives
            an empty window.

    Returns:
        A 1-D tensor of ``M`` values in floatx: ``1 - |2n - (M - 1)| / (M - 1)`` for ``n = 0 .. M - 1``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bartlett(5)).tolist()
    [0.0, 0.5, 1.0, 0.5, 0.0]
    """
    return _window("bartlett", x)


def blackman(x):
    """The Blackman window, a taper of three cosine terms.

    Args:
        x: the number of points ``M`` (an int, or a tensor holding one; not a symbolic tensor).

    Returns:
        A 1-D tensor of ``M`` values in floatx:
        ``0.42 - 0.5 cos(2 pi n / (M - 1)) + 0.08 cos(4 pi n / (M - 1))``.

    >>> import highlevel as hl
    >>> [float(f"{v:.4f}") + 0.0 for v in hl.ops.convert_to_numpy(hl.ops.blackman(5))]
    [0.0, 0.34, 1.0, 0.34, 0.0]
    """
    return _window("blackman", x)


def hamming(x):
    """The Hamming window: ``0.54 - 0.46 cos(2 pi n / (M - 1))``.

    Args:
        x: the number of points ``M`` (an int, or a tensor holding one; not a symbolic tensor).

    Returns:
        A 1-D tensor of ``M`` values in floatx.

    >>> import highlevel as hl
    >>> [float(f"{v:.4f}") for v in hl.ops.convert_to_numpy(hl.ops.hamming(5))]
    [0.08, 0.54, 1.0, 0.54, 0.08]
    """
    return _window("hamming", x)


def hanning(x):
    """The Hann window: ``0.5 - 0.5 cos(2 pi n / (M - 1))``.

    Args:
        x: the number of points ``M`` (an int, or a tensor holding one; not a symbolic tensor).

    Returns:
        A 1-D tensor of ``M`` values in floatx.

    >>> import highlevel as hl
    >>> [float(f"{v:.4f}") for v in hl.ops.convert_to_numpy(hl.ops.hanning(5))]
    [0.0, 0.5, 1.0, 0.5, 0.0]
    """
    return _window("hanning", x)


def kaiser(x, beta):
    """The Kaiser window: ``I0(beta * sqrt(1 - (2n / (M - 1) - 1) ** 2)) / I0(beta)``.

    ``I0`` is the modified Bessel function of the first kind and order 0; the window is finite for any finite
    ``beta`` (a negative ``beta`` gives the window of ``-beta``, as ``I0`` is even).

    Args:
        x: the number of points ``M`` (an int, or a tensor holding one; not a symbolic tensor).
        beta: the shape parameter (a real number): 0 gives a rectangular window, larger values narrower ones.

    Returns:
        A 1-D tensor of ``M`` values in floatx.

    Raises:
        ValueError: if ``beta`` is infinite or NaN.

    >>> import highlevel as hl
    >>> [float(f"{v:.4f}") for v in hl.ops.convert_to_numpy(hl.ops.kaiser(5, beta=5.0))]
    [0.0367, 0.5529, 1.0, 0.5529, 0.0367]
    """
    beta = _args.static_float(beta, "beta", "kaiser")
    if beta != beta or beta in (float("inf"), float("-inf")):
        raise ValueError(f"kaiser: `beta` must be a finite number; received beta={beta!r}.")
    return _window("kaiser", x, beta)


__all__ += [
    "nansum",
    "nanmean",
    "nanmax",
    "nanmin",
    "nanprod",
    "nanstd",
    "nanvar",
    "nanargmax",
    "nanargmin",
    "nancumsum",
    "nancumprod",
    "quantile",
    "percentile",
    "median",
    "nanquantile",
    "nanpercentile",
    "nanmedian",
    "average",
    "bartlett",
    "blackman",
    "hamming",
    "hanning",
    "kaiser",
]


# ----------------------------------------------------------- array building, indexing and search
def _value_dependent(out, dims):
    """On symbolic tensors: the axes whose size depends on the input's values (``dims[i]`` for output ``i``)
    become unknown (None); shape inference ran on placeholder values."""
    outs = out if isinstance(out, (list, tuple)) else (out,)
    for t, unknown in zip(outs, dims):
        if isinstance(t, KerasTensor):
            t.shape = tuple(None if i in unknown else d for i, d in enumerate(t.shape))
    return out


def _int_list(value, name, op):
    """An int or a sequence of ints as a tuple of ints."""
    if _args.is_int(value):
        return (int(value),)
    try:
        return tuple(_args.integer(v, name, op) for v in value)
    except TypeError:
        raise TypeError(f"{op}: `{name}` must be an int or a sequence of ints; received {name}={value!r}.") from None


def append(x1, x2, axis=None):
    """Appends ``x2`` to the end of ``x1``.

    Args:
        x1: a tensor.
        x2: the values to append; with ``axis``, of the shape of ``x1`` except along ``axis``.
        axis: the axis to append along; None (default) flattens both first.

    Returns:
        A tensor of the promoted dtype of ``x1`` and ``x2``.

    Raises:
        ValueError: an ``axis`` is given and ``x1`` and ``x2`` have different ranks.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.append(hl.ops.convert_to_tensor([1, 2]), [[3, 4]])).tolist()
    [1, 2, 3, 4]
    """
    if axis is not None:
        n = _args.ndim_of(x1)
        axis = _args.axis(axis, n, "append")
        if _args.ndim_of(x2) != n:
            raise ValueError(
                f"append: with an axis, `x1` and `x2` must have the same rank; received shapes "
                f"{_args.shape_of(x1)} and {_args.shape_of(x2)}."
            )
    return _door.call("append", x1, x2, axis=axis)


def array_split(x, indices_or_sections, axis=0):
    """Splits ``x`` into parts along ``axis``, which need not be of equal size.

    Args:
        x: a tensor.
        indices_or_sections: a number of parts (the first ``size % n`` get one element more than the others),
            or the indices to cut at.
        axis: the axis to split.

    Returns:
        A list of tensors.

    >>> import highlevel as hl
    >>> [p.shape for p in hl.ops.array_split(hl.ops.ones((7,)), 3)]
    [(3,), (2,), (2,)]
    """
    axis = _args.axis(axis, _args.ndim_of(x), "array_split")
    size = _args.shape_of(x)[axis]
    return _door.call(
        "array_split", x, _args.sections(indices_or_sections, size, "array_split", axis, equal=False), axis=axis
    )


def _split_along(x, indices_or_sections, axis, op, rank):
    _args.min_rank(x, rank, op)
    return _args.sections(indices_or_sections, _args.shape_of(x)[axis], op, axis)


def hsplit(x, indices_or_sections):
    """Splits ``x`` horizontally: along axis 1 (axis 0 of a 1-D tensor).

    Args:
        x: a tensor of rank 1 or more.
        indices_or_sections: a number of equal parts, or the indices to cut at.

    Returns:
        A list of tensors.

    >>> import highlevel as hl
    >>> [p.shape for p in hl.ops.hsplit(hl.ops.ones((2, 4)), 2)]
    [(2, 2), (2, 2)]
    """
    axis = 1 if _args.ndim_of(x) > 1 else 0
    return _door.call("hsplit", x, _split_along(x, indices_or_sections, axis, "hsplit", 1))


def vsplit(x, indices_or_sections):
    """Splits ``x`` vertically: along axis 0.

    Args:
        x: a tensor of rank 2 or more.
        indices_or_sections: a number of equal parts, or the indices to cut at.

    Returns:
        A list of tensors.

    >>> import highlevel as hl
    >>> [p.shape for p in hl.ops.vsplit(hl.ops.ones((4, 3)), [1])]
    [(1, 3), (3, 3)]
    """
    return _door.call("vsplit", x, _split_along(x, indices_or_sections, 0, "vsplit", 2))


def dsplit(x, indices_or_sections):
    """Splits ``x`` along its depth: axis 2.

    Args:
        x: a tensor of rank 3 or more.
        indices_or_sections: a number of equal parts, or the indices to cut at.

    Returns:
        A list of tensors.

    >>> import highlevel as hl
    >>> [p.shape for p in hl.ops.dsplit(hl.ops.ones((1, 2, 4)), 2)]
    [(1, 2, 2), (1, 2, 2)]
    """
    return _door.call("dsplit", x, _split_along(x, indices_or_sections, 2, "dsplit", 3))


def hstack(xs):
    """Joins tensors horizontally: along axis 1 (along axis 0 when they are 1-D).

    Args:
        xs: a list of tensors of the same shape except along the joined axis.

    Returns:
        A tensor of their promoted dtype.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.hstack([hl.ops.convert_to_tensor([1, 2]), [3]])).tolist()
    [1, 2, 3]
    """
    return _door.call("hstack", _args.sequence(xs, "hstack", "xs"))


def vstack(xs):
    """Joins tensors vertically: along axis 0, a 1-D tensor of length ``n`` taken as a ``(1, n)`` row.

    Args:
        xs: a list of tensors of the same shape except along axis 0.

    Returns:
        A tensor of their promoted dtype.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.vstack([hl.ops.convert_to_tensor([1, 2]), [3, 4]])).tolist()
    [[1, 2], [3, 4]]
    """
    return _door.call("vstack", _args.sequence(xs, "vstack", "xs"))


def dstack(xs):
    """Joins tensors along their depth, axis 2 (``(n,)`` is taken as ``(1, n, 1)``, ``(m, n)`` as
    ``(m, n, 1)``).

    Args:
        xs: a list of tensors of the same shape except along axis 2.

    Returns:
        A tensor of rank 3 or more, of their promoted dtype.

    >>> import highlevel as hl
    >>> hl.ops.dstack([hl.ops.ones((2, 3)), hl.ops.zeros((2, 3))]).shape
    (2, 3, 2)
    """
    return _door.call("dstack", _args.sequence(xs, "dstack", "xs"))


def fliplr(x):
    """Reverses ``x`` left to right: along axis 1.

    Args:
        x: a tensor of rank 2 or more.

    Returns:
        A tensor of the shape and dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.fliplr(hl.ops.convert_to_tensor([[1, 2, 3]]))).tolist()
    [[3, 2, 1]]
    """
    return _door.call("fliplr", _args.min_rank(x, 2, "fliplr"))


def flipud(x):
    """Reverses ``x`` upside down: along axis 0.

    Args:
        x: a tensor of rank 1 or more.

    Returns:
        A tensor of the shape and dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.flipud(hl.ops.convert_to_tensor([[1], [2]]))).tolist()
    [[2], [1]]
    """
    return _door.call("flipud", _args.min_rank(x, 1, "flipud"))


def rot90(array, k=1, axes=(0, 1)):
    """Rotates ``array`` by ``k`` quarter turns in the plane of ``axes``, from the first axis towards the second.

    Args:
        array: a tensor of rank 2 or more.
        k: the number of quarter turns; negative turns the other way.
        axes: the two (different) axes of the plane.

    Returns:
        A tensor of the dtype of ``array``, its two axes swapped when ``k`` is odd.

    Raises:
        ValueError: ``axes`` is not a pair of distinct axes of ``array``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.rot90(hl.ops.convert_to_tensor([[1, 2], [3, 4]]))).tolist()
    [[2, 4], [1, 3]]
    """
    n = _args.ndim_of(_args.min_rank(array, 2, "rot90", "array"))
    if not isinstance(axes, (list, tuple)) or len(axes) != 2:
        raise ValueError(f"rot90: `axes` must be two axes; received axes={axes!r}.")
    axes = _args.axes(axes, n, "rot90", name="axes", keep_order=True)
    return _door.call("rot90", array, k=_args.integer(k, "k", "rot90"), axes=axes)


def roll(x, shift, axis=None):
    """Shifts the entries of ``x`` cyclically: those pushed past the end come back at the start.

    Args:
        x: a tensor.
        shift: the number of places (an int, or one per axis of ``axis``; negative shifts the other way).
        axis: an axis or a tuple of axes; None (default) shifts the flattened tensor and restores the shape.

    Returns:
        A tensor of the shape and dtype of ``x``.

    Raises:
        ValueError: ``shift`` and ``axis`` are sequences of different lengths.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.roll(hl.ops.convert_to_tensor([1, 2, 3, 4]), 1)).tolist()
    [4, 1, 2, 3]
    """
    shifts = _int_list(shift, "shift", "roll")
    if axis is None:
        return _door.call("roll", x, shifts, axis=None)
    n = _args.ndim_of(x)
    axes = (
        _args.axes(axis, n, "roll", keep_order=True)
        if not isinstance(axis, (list, tuple))
        else tuple(_args.axis(a, n, "roll") for a in axis)
    )
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(axes) == 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError(
            f"roll: `shift` and `axis` must have the same length (or one of them one entry); "
            f"received shift={shift!r} and axis={axis!r}."
        )
    total = {}
    for s, a in zip(shifts, axes):
        total[a] = total.get(a, 0) + s
    order = tuple(sorted(total))
    return _door.call("roll", x, tuple(total[a] for a in order), axis=order)


def diag(x, k=0):
    """Builds a diagonal matrix from a 1-D tensor, or takes the diagonal of a 2-D one.

    Args:
        x: a 1-D tensor (placed on the diagonal of a square matrix of size ``len(x) + |k|``) or a 2-D tensor.
        k: the diagonal: 0 is the main one, positive above it, negative below.

    Returns:
        A 2-D or 1-D tensor of the dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.diag(hl.ops.convert_to_tensor([1, 2]))).tolist()
    [[1, 0], [0, 2]]
    """
    _args.rank_in(x, (1, 2), "diag")
    return _door.call("diag", x, k=_args.integer(k, "k", "diag"))


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The diagonal of the matrices in the plane of ``axis1`` and ``axis2``.

    Args:
        x: a tensor of rank 2 or more.
        offset: the diagonal: 0 is the main one, positive above it, negative below.
        axis1: the axis of the rows.
        axis2: the axis of the columns (different from ``axis1``).

    Returns:
        A tensor of the dtype of ``x``: its other axes in order, then the diagonal.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.diagonal(hl.ops.convert_to_tensor([[1, 2], [3, 4]]))).tolist()
    [1, 4]
    """
    axis1, axis2 = _two_axes(x, axis1, axis2, "diagonal")
    return _door.call("diagonal", x, offset=_args.integer(offset, "offset", "diagonal"), axis1=axis1, axis2=axis2)


def _two_axes(x, axis1, axis2, op):
    n = _args.ndim_of(_args.min_rank(x, 2, op))
    axis1, axis2 = _args.axis(axis1, n, op, "axis1"), _args.axis(axis2, n, op, "axis2")
    if axis1 == axis2:
        raise ValueError(f"{op}: `axis1` and `axis2` must be different axes; both are axis {axis1}.")
    return axis1, axis2


def diagflat(x, k=0):
    """A square matrix with the flattened ``x`` on its ``k``-th diagonal and zeros elsewhere.

    Args:
        x: a tensor of any rank (flattened).
        k: the diagonal: 0 is the main one, positive above it, negative below.

    Returns:
        A 2-D tensor of size ``x.size + |k|`` and the dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.diagflat(hl.ops.convert_to_tensor([[1, 2]]), k=1)).tolist()
    [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    """
    return _door.call("diagflat", x, k=_args.integer(k, "k", "diagflat"))


def trace(x, offset=0, axis1=0, axis2=1):
    """The sum of a diagonal of the matrices in the plane of ``axis1`` and ``axis2``.

    Args:
        x: a tensor of rank 2 or more.
        offset: the diagonal: 0 is the main one, positive above it, negative below.
        axis1: the axis of the rows.
        axis2: the axis of the columns (different from ``axis1``).

    Returns:
        A tensor of the other axes of ``x``; bool, int8 and int16 inputs sum in int32, uint8 and uint16 in
        uint32, other dtypes are kept.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.trace(hl.ops.convert_to_tensor([[1, 2], [3, 4]]))).item()
    5
    """
    axis1, axis2 = _two_axes(x, axis1, axis2, "trace")
    return _door.call("trace", x, offset=_args.integer(offset, "offset", "trace"), axis1=axis1, axis2=axis2)


def tri(N, M=None, k=0, dtype=None):
    """A matrix with ones at and below a diagonal, zeros above it.

    Args:
        N: the number of rows.
        M: the number of columns (default ``N``).
        k: the diagonal: 0 is the main one, positive above it, negative below.
        dtype: the result's dtype (default floatx).

    Returns:
        An ``(N, M)`` tensor.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.tri(2, 3, dtype="int32")).tolist()
    [[1, 0, 0], [1, 1, 0]]
    """
    N = _args.positive_int(N, "N", "tri", minimum=0)
    M = None if M is None else _args.positive_int(M, "M", "tri", minimum=0)
    return _door.call("tri", N, M=M, k=_args.integer(k, "k", "tri"), dtype=_args.dtype(dtype, "tri"))


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of ``x``: its columns are powers of ``x``.

    Args:
        x: a 1-D tensor.
        N: the number of columns (default ``len(x)``).
        increasing: powers from ``x ** 0`` up (default: from ``x ** (N - 1)`` down).

    Returns:
        A ``(len(x), N)`` tensor of the dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.vander(hl.ops.convert_to_tensor([2, 3]), 3)).tolist()
    [[4, 2, 1], [9, 3, 1]]
    """
    _args.rank_in(x, (1,), "vander")
    N = None if N is None else _args.positive_int(N, "N", "vander", minimum=0)
    return _door.call("vander", x, N=N, increasing=bool(increasing))


def meshgrid(*x, indexing="xy"):
    """Coordinate tensors of the grid spanned by 1-D tensors.

    Args:
        *x: 1-D tensors (others are flattened), the coordinates along each axis of the grid.
        indexing: ``"xy"`` (default, Cartesian: the first two axes of the grid are swapped) or ``"ij"``
            (matrix indexing: axis ``i`` of the grid runs along ``x[i]``).

    Returns:
        A list of ``len(x)`` tensors, each of the grid's shape and the dtype of its input.

    >>> import highlevel as hl
    >>> a, b = hl.ops.meshgrid(hl.ops.convert_to_tensor([1, 2, 3]), hl.ops.convert_to_tensor([4, 5]))
    >>> hl.ops.convert_to_numpy(a).tolist()
    [[1, 2, 3], [1, 2, 3]]
    """
    _args.one_of(indexing, ("xy", "ij"), "indexing", "meshgrid")
    return _door.call("meshgrid", *x, indexing=indexing)


def _space_axis(start, stop, axis, op):
    rank = builtins.max(_args.ndim_of(start), _args.ndim_of(stop))
    return _args.axis(axis, rank, op, extra=1)


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """``num`` values spaced evenly on a log scale: ``base ** t`` for ``t`` evenly spaced from ``start`` to
    ``stop``.

    Args:
        start: the first exponent (a scalar, or a tensor that broadcasts with ``stop``).
        stop: the last exponent (excluded when ``endpoint`` is False).
        num: the number of values.
        endpoint: whether ``base ** stop`` is the last value.
        base: the base of the powers.
        dtype: the result's dtype (default: the float dtype of ``start`` and ``stop``, floatx for Python
            numbers and integers).
        axis: where the new axis of the values goes, for tensor ``start`` and ``stop``.

    Returns:
        A tensor of ``num`` values along ``axis``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.logspace(0, 2, 3)).tolist()
    [1.0, 10.0, 100.0]
    """
    return _door.call(
        "logspace",
        start,
        stop,
        num=_args.positive_int(num, "num", "logspace", minimum=0),
        endpoint=bool(endpoint),
        base=base,
        dtype=_args.dtype(dtype, "logspace"),
        axis=_space_axis(start, stop, axis, "logspace"),
    )


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """``num`` values from ``start`` to ``stop`` in a geometric progression (a constant ratio between
    neighbours).

    Args:
        start: the first value (a scalar, or a tensor that broadcasts with ``stop``); not 0.
        stop: the last value (excluded when ``endpoint`` is False), of the sign of ``start``.
        num: the number of values.
        endpoint: whether ``stop`` is the last value.
        dtype: the result's dtype (default: the float dtype of ``start`` and ``stop``, floatx for Python
            numbers and integers).
        axis: where the new axis of the values goes, for tensor ``start`` and ``stop``.

    Returns:
        A tensor of ``num`` values along ``axis``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.geomspace(1, 1000, 4)).tolist()
    [1.0, 10.0, 100.0, 1000.0]
    """
    return _door.call(
        "geomspace",
        start,
        stop,
        num=_args.positive_int(num, "num", "geomspace", minimum=0),
        endpoint=bool(endpoint),
        dtype=_args.dtype(dtype, "geomspace"),
        axis=_space_axis(start, stop, axis, "geomspace"),
    )


def kron(x1, x2):
    """The Kronecker product: a tensor of blocks, each an entry of ``x1`` times the whole of ``x2``.

    Args:
        x1: a tensor.
        x2: a tensor (the lower rank is padded with leading axes of size 1).

    Returns:
        A tensor of shape ``x1.shape * x2.shape`` (axis by axis), of their promoted dtype.

    >>> import highlevel as hl
    >>> a, b = hl.ops.convert_to_tensor([1, 10]), hl.ops.convert_to_tensor([1, 2])
    >>> hl.ops.convert_to_numpy(hl.ops.kron(a, b)).tolist()
    [1, 2, 10, 20]
    """
    return _door.call("kron", x1, x2)


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (or 2-vectors, taken with a zero third component).

    Args:
        x1: a tensor whose axis ``axisa`` has size 2 or 3.
        x2: a tensor whose axis ``axisb`` has size 2 or 3; the other axes broadcast with those of ``x1``.
        axisa: the vector axis of ``x1``.
        axisb: the vector axis of ``x2``.
        axisc: the vector axis of the result (unused when both vectors have two components).
        axis: if given, the vector axis of all three.

    Returns:
        The products, of the promoted dtype; two 2-vectors give the scalar z component.

    Raises:
        ValueError: a vector axis has a size other than 2 or 3.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.cross(hl.ops.convert_to_tensor([1, 0, 0]), [0, 1, 0])).tolist()
    [0, 0, 1]
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    n1, n2 = _args.ndim_of(_args.min_rank(x1, 1, "cross", "x1")), _args.ndim_of(_args.min_rank(x2, 1, "cross", "x2"))
    axisa, axisb = _args.axis(axisa, n1, "cross", "axisa"), _args.axis(axisb, n2, "cross", "axisb")
    da, db = _args.shape_of(x1)[axisa], _args.shape_of(x2)[axisb]
    for name, d in (("x1", da), ("x2", db)):
        if d not in (2, 3, None):
            raise ValueError(
                f"cross: the vectors of `{name}` must have 2 or 3 components; its vector axis has size {d}."
            )
    rank = builtins.max(n1, n2) - 1
    axisc = axisc if da == db == 2 else _args.axis(axisc, rank + 1, "cross", "axisc")
    return _door.call("cross", x1, x2, axisa=axisa, axisb=axisb, axisc=axisc, axis=None)


def dot(x1, x2):
    """The dot product, as numpy's: a product with a scalar, the inner product of vectors, a matrix product,
    or in general a sum over the last axis of ``x1`` and the second-to-last axis of ``x2`` (the only one of a
    1-D ``x2``).

    Args:
        x1: a tensor.
        x2: a tensor.

    Returns:
        A tensor of the promoted dtype.

    Raises:
        ValueError: the contracted axes of ``x1`` and ``x2`` have different sizes.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.dot(hl.ops.convert_to_tensor([1, 2]), [3, 4])).item()
    11
    """
    s1, s2 = _args.shape_of(x1), _args.shape_of(x2)
    if s1 and s2:
        b = s2[0] if len(s2) == 1 else s2[-2]
        if None not in (s1[-1], b) and s1[-1] != b:
            raise ValueError(
                f"dot: the last axis of `x1` and the {'only' if len(s2) == 1 else 'second-to-last'} "
                f"axis of `x2` must have the same size; received shapes {s1} and {s2}."
            )
    return _door.call("dot", x1, x2)


def inner(x1, x2):
    """The inner product: a sum over the last axes of ``x1`` and ``x2`` (a product with a scalar).

    Args:
        x1: a tensor.
        x2: a tensor whose last axis has the size of the last axis of ``x1``.

    Returns:
        A tensor of shape ``x1.shape[:-1] + x2.shape[:-1]``, of the promoted dtype.

    Raises:
        ValueError: the last axes of ``x1`` and ``x2`` have different sizes.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.inner(hl.ops.convert_to_tensor([[1, 2], [3, 4]]), [1, 1])).tolist()
    [3, 7]
    """
    s1, s2 = _args.shape_of(x1), _args.shape_of(x2)
    if s1 and s2 and None not in (s1[-1], s2[-1]) and s1[-1] != s2[-1]:
        raise ValueError(
            f"inner: the last axes of `x1` and `x2` must have the same size; received shapes {s1} and {s2}."
        )
    return _door.call("inner", x1, x2)


def vdot(x1, x2):
    """The dot product of the flattened ``x1`` and ``x2``.

    Args:
        x1: a tensor.
        x2: a tensor of as many elements.

    Returns:
        A scalar tensor of the promoted dtype.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.vdot(hl.ops.convert_to_tensor([[1, 2], [3, 4]]), [[1, 1], [1, 1]])).item()
    10
    """
    return _door.call("vdot", x1, x2)


def unravel_index(indices, shape):
    """Converts flat indices into coordinates in a (row-major) tensor of ``shape``.

    Args:
        indices: an integer tensor of flat indices.
        shape: the shape the indices point into.

    Returns:
        A tuple of ``len(shape)`` tensors of the shape and dtype of ``indices``, one per axis.

    >>> import highlevel as hl
    >>> [hl.ops.convert_to_numpy(c).tolist() for c in hl.ops.unravel_index(hl.ops.convert_to_tensor([5, 7]), (3, 4))]
    [[1, 1], [1, 3]]
    """
    shape = _args.shape(shape, "unravel_index")
    return _door.call("unravel_index", indices, shape)


def select(condlist, choicelist, default=0):
    """Picks each entry from the first choice whose condition holds there.

    Args:
        condlist: a list of bool tensors.
        choicelist: a list of as many tensors; all broadcast together with the conditions.
        default: the value where no condition holds.

    Returns:
        A tensor of the promoted dtype of the choices and ``default``.

    Raises:
        TypeError: ``condlist`` or ``choicelist`` is not a list or tuple.
        ValueError: ``condlist`` and ``choicelist`` have different lengths.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([-2, 0, 3])
    >>> hl.ops.convert_to_numpy(hl.ops.select([x < 0, x > 0], [-x, x * 10], default=7)).tolist()
    [2, 7, 30]
    """
    if not isinstance(condlist, (list, tuple)) or not isinstance(choicelist, (list, tuple)):
        raise TypeError(
            "select: `condlist` and `choicelist` must be lists (or tuples) of tensors; received "
            f"{type(condlist).__name__} and {type(choicelist).__name__}."
        )
    if len(condlist) != len(choicelist):
        raise ValueError(
            f"select: `condlist` and `choicelist` must have the same length; received "
            f"{len(condlist)} conditions and {len(choicelist)} choices."
        )
    return _door.call("select", list(condlist), list(choicelist), default=default)


def isin(x1, x2, assume_unique=False, invert=False):
    """Tests whether each entry of ``x1`` occurs in ``x2``.

    Args:
        x1: a tensor.
        x2: the values to look for (any shape; flattened).
        assume_unique: accepted for numpy's signature; the result is the same either way.
        invert: return where the entries do *not* occur.

    Returns:
        A bool tensor of the shape of ``x1``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.isin(hl.ops.convert_to_tensor([1, 2, 3]), [2, 5])).tolist()
    [False, True, False]
    """
    return _door.call("isin", x1, x2, assume_unique=bool(assume_unique), invert=bool(invert))


def argpartition(x, kth, axis=-1):
    """Indices that partition ``x`` along ``axis`` around its ``kth`` smallest entry: that entry's index at
    position ``kth``, the indices of entries no larger before it, of entries no smaller after it.

    highlevel returns the indices of a stable sort, one valid partition for every ``kth``, so the result is
    the same on every engine.

    Args:
        x: a tensor.
        kth: the position of the partition (an int, or a sequence of ints; negative counts from the end).
        axis: the axis to partition; None flattens first.

    Returns:
        An int32 tensor of the shape of ``x`` (flattened for ``axis=None``).

    Raises:
        ValueError: ``kth`` is out of bounds for the size of ``axis``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.argpartition(hl.ops.convert_to_tensor([3.0, 1.0, 2.0]), 1)).tolist()
    [1, 2, 0]
    """
    axis = _args.axis(axis, _args.ndim_of(x), "argpartition", allow_none=True)
    shape = _args.shape_of(x)
    if axis is not None:
        n = shape[axis]
    else:
        n = None if None in shape else 1
        for d in shape if n is not None else ():
            n *= d
    kths = _int_list(kth, "kth", "argpartition")
    for k in kths:
        if n is not None and not -n <= k < n:
            raise ValueError(f"argpartition: kth={k} is out of bounds for an axis of size {n}.")
    return _door.call("argpartition", x, kths[0] if _args.is_int(kth) else kths, axis=axis)


def unique(
    x, sorted=True, return_index=False, return_inverse=False, return_counts=False, axis=None, size=None, fill_value=None
):
    """The distinct entries of ``x`` (or its distinct slices along ``axis``).

    Args:
        x: a tensor.
        sorted: sort the distinct entries ascending (slices lexicographically); False keeps the order in which
            they first occur.
        return_index: also return the index of each one's first occurrence in ``x``.
        return_inverse: also return, for each element of ``x`` (each slice along ``axis``), the index of its
            entry in the result.
        return_counts: also return how many times each occurs.
        axis: None (default) flattens ``x``; an int compares the slices along that axis.
        size: a fixed number of results: the distinct entries are cut to ``size`` or padded with
            ``fill_value`` (their index and count padded with 0). Without it the number of results depends on
            the values, which are not known inside a compiled step (``jax.jit``, ``tf.function``); with it
            ``unique`` works there too.
        fill_value: the padding value for ``size`` (default 0).

    Returns:
        The distinct values (of the dtype of ``x``), or a tuple of them and the index, inverse and counts asked
        for (int32). The inverse has the shape of ``x`` when ``axis`` is None.

    Raises:
        ValueError: without ``size``, inside a compiled step.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([3, 1, 2, 1, 3])
    >>> hl.ops.convert_to_numpy(hl.ops.unique(x)).tolist()
    [1, 2, 3]
    >>> values, counts = hl.ops.unique(x, return_counts=True, size=4, fill_value=-1)
    >>> hl.ops.convert_to_numpy(values).tolist(), hl.ops.convert_to_numpy(counts).tolist()
    ([1, 2, 3, -1], [2, 1, 2, 0])
    """
    n = _args.ndim_of(x)
    axis = _args.axis(axis, n, "unique", allow_none=True)
    if size is not None:
        size = _args.positive_int(size, "size", "unique", minimum=0)
    flags = (bool(return_index), bool(return_inverse), bool(return_counts))
    out = _door.call(
        "unique",
        x,
        sorted=bool(sorted),
        return_index=flags[0],
        return_inverse=flags[1],
        return_counts=flags[2],
        axis=axis,
        size=size,
        fill_value=fill_value,
    )
    if size is None:
        unknown = [{0 if axis is None else axis}]
        unknown += [{0}] * flags[0] + [set()] * flags[1] + [{0}] * flags[2]
        out = _value_dependent(out, unknown)
    return out


def nonzero(x):
    """The indices of the non-zero entries of ``x``.

    Their number depends on the values, so ``nonzero`` needs concrete values: inside a compiled step
    (``jax.jit``, ``tf.function``) it raises; ``where`` keeps a static shape there.

    Args:
        x: a tensor.

    Returns:
        A tuple of int32 tensors, one per axis of ``x``: the coordinates of the non-zero entries, in row-major
        order.

    Raises:
        ValueError: inside a compiled step.

    >>> import highlevel as hl
    >>> rows, cols = hl.ops.nonzero(hl.ops.convert_to_tensor([[0, 5], [7, 0]]))
    >>> hl.ops.convert_to_numpy(rows).tolist(), hl.ops.convert_to_numpy(cols).tolist()
    ([0, 1], [1, 0])
    """
    return _value_dependent(_door.call("nonzero", x), [{0}] * _args.ndim_of(x))


def searchsorted(sorted_sequence, values, side="left"):
    """Where each of ``values`` would be inserted into ``sorted_sequence`` to keep it sorted.

    Args:
        sorted_sequence: a 1-D tensor sorted in ascending order.
        values: a tensor of values to place.
        side: ``"left"`` (default): before entries equal to the value; ``"right"``: after them.

    Returns:
        An int32 tensor of the shape of ``values``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.searchsorted(hl.ops.convert_to_tensor([1, 2, 3]), [2, 5], side="right")).tolist()
    [2, 3]
    """
    _args.rank_in(sorted_sequence, (1,), "searchsorted", "sorted_sequence")
    return _door.call(
        "searchsorted", sorted_sequence, values, side=_args.one_of(side, ("left", "right"), "side", "searchsorted")
    )


def digitize(x, bins):
    """The index of the bin each entry of ``x`` falls in.

    Args:
        x: a tensor.
        bins: a 1-D tensor of bin edges, increasing or decreasing. Increasing edges put ``x`` in bin ``i`` when
            ``bins[i - 1] <= x < bins[i]``; decreasing ones when ``bins[i - 1] > x >= bins[i]``; 0 and
            ``len(bins)`` are the bins below and above all edges.

    Returns:
        An int32 tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.digitize(hl.ops.convert_to_tensor([0.5, 1.0, 3.5]), [1.0, 2.0, 3.0])).tolist()
    [0, 1, 3]
    """
    _args.rank_in(bins, (1,), "digitize", "bins")
    return _door.call("digitize", x, bins)


def bincount(x, weights=None, minlength=0, sparse=False):
    """Counts the occurrences of each non-negative integer in ``x``.

    The result's length is ``max(x) + 1`` (at least ``minlength``), so ``bincount`` needs concrete values:
    inside a compiled step (``jax.jit``, ``tf.function``) it raises.

    Args:
        x: a 1-D tensor of non-negative integers, or a 2-D one (each row counted on its own).
        weights: None, or a tensor of the shape of ``x``: then each occurrence adds its weight instead of 1.
        minlength: the least length of the result.
        sparse: a sparse result; highlevel has no sparse tensors, so only False is accepted.

    Returns:
        The counts (int32), or the sums of the weights (the promoted dtype of ``x`` and ``weights``): a tensor of
        shape ``(length,)``, or ``(rows, length)`` for a 2-D ``x``.

    Raises:
        ValueError: inside a compiled step; for negative values.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bincount(hl.ops.convert_to_tensor([1, 3, 1]))).tolist()
    [0, 2, 0, 1]
    """
    if sparse:
        raise ValueError(
            "bincount: sparse=True asks for a sparse tensor, which highlevel does not have; pass "
            "sparse=False (the default) for a dense result."
        )
    _args.rank_in(x, (1, 2), "bincount")
    from highlevel.backends.contract import dtypes as _dt

    dt = getattr(x, "dtype", None)
    if dt is not None and _dt.standardize_dtype(dt) not in _dt.INT_DTYPES:
        raise TypeError(f"bincount: `x` must hold integers; received a tensor of dtype {_dt.standardize_dtype(dt)}.")
    if weights is not None and _args.shape_of(weights) != _args.shape_of(x):
        raise ValueError(
            f"bincount: `weights` must have the shape of `x`; received shapes "
            f"{_args.shape_of(weights)} and {_args.shape_of(x)}."
        )
    minlength = _args.positive_int(minlength, "minlength", "bincount", minimum=0)
    out = _door.call("bincount", x, weights=weights, minlength=minlength, sparse=False)
    return _value_dependent(out, [{_args.ndim_of(x) - 1}])


def histogram(x, bins=10, range=None):
    """The histogram of the values of ``x`` in equal bins.

    Args:
        x: a 1-D tensor.
        bins: the number of bins.
        range: ``(low, high)``, the span of the bins (default: the minimum to the maximum of ``x``); values
            outside it are not counted.

    Returns:
        ``(counts, edges)``: ``bins`` counts and ``bins + 1`` edges, in the float dtype of ``x`` (floatx for
        integers). Bin ``i`` holds ``edges[i] <= x < edges[i + 1]``; the last bin holds its right edge too.

    Raises:
        ValueError: ``range`` is not a ``(low, high)`` pair of numbers with ``low <= high``.

    >>> import highlevel as hl
    >>> counts, edges = hl.ops.histogram(hl.ops.convert_to_tensor([1.0, 2.0, 2.0, 4.0]), bins=3)
    >>> hl.ops.convert_to_numpy(counts).tolist(), hl.ops.convert_to_numpy(edges).tolist()
    ([1.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0])
    """
    _args.rank_in(x, (1,), "histogram")
    bins = _args.positive_int(bins, "bins", "histogram")
    if range is not None:
        try:
            low, high = (float(v) for v in range)
        except (TypeError, ValueError):
            raise ValueError(
                f"histogram: `range` must be a (low, high) pair of numbers; received range={range!r}."
            ) from None
        if not low <= high:
            raise ValueError(f"histogram: `range` must have low <= high; received range={range!r}.")
        range = (low, high)
    return _door.call("histogram", x, bins=bins, range=range)


def count_nonzero(x, axis=None):
    """The number of non-zero entries of ``x`` over ``axis``.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes; None (default) counts over all of them.

    Returns:
        An int32 tensor of the shape of ``x`` without ``axis``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.count_nonzero(hl.ops.convert_to_tensor([[0, 1], [2, 3]]), axis=1)).tolist()
    [1, 2]
    """
    return _door.call("count_nonzero", x, axis=_args.axes(axis, _args.ndim_of(x), "count_nonzero"))


def diff(a, n=1, axis=-1):
    """The ``n``-th discrete difference along ``axis``: ``a[1:] - a[:-1]``, taken ``n`` times.

    Args:
        a: a tensor of rank 1 or more.
        n: how many times to take the difference (0 returns ``a``).
        axis: the axis.

    Returns:
        A tensor of the dtype of ``a``, ``n`` shorter along ``axis`` (bool inputs give ``a[1:] != a[:-1]``).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.diff(hl.ops.convert_to_tensor([1, 4, 9, 16]))).tolist()
    [3, 5, 7]
    """
    axis = _args.axis(axis, _args.ndim_of(_args.min_rank(a, 1, "diff", "a")), "diff")
    return _door.call("diff", a, n=_args.positive_int(n, "n", "diff", minimum=0), axis=axis)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integrates ``y`` along ``axis`` with the trapezoidal rule.

    Args:
        y: the sampled values, a tensor of rank 1 or more.
        x: the sample points: a 1-D tensor as long as ``y`` along ``axis``, or a tensor of the shape of ``y``;
            None (default) spaces them ``dx`` apart.
        dx: the spacing of the samples when ``x`` is None.
        axis: the axis to integrate along.

    Returns:
        A tensor of the shape of ``y`` without ``axis``, in the float dtype of ``y`` (floatx for integers).

    Raises:
        ValueError: ``x`` is neither 1-D with one point per sample along ``axis`` nor of the shape of ``y``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.trapezoid(hl.ops.convert_to_tensor([1.0, 2.0, 3.0]))).item()
    4.0
    """
    nd = _args.ndim_of(_args.min_rank(y, 1, "trapezoid", "y"))
    axis = _args.axis(axis, nd, "trapezoid")
    if x is not None:
        sx, sy = _args.shape_of(x), _args.shape_of(y)
        if not ((len(sx) == 1 and sx[0] in (sy[axis], None)) or sx == sy):
            raise ValueError(
                f"trapezoid: `x` must be 1-D with one point per sample along the axis "
                f"({sy[axis]}), or have the shape of `y` {sy}; received shape {sx}."
            )
    return _door.call("trapezoid", y, x=x, dx=dx, axis=axis)


def correlate(x1, x2, mode="valid"):
    """The cross-correlation of two 1-D tensors: ``c[k] = sum_n x1[n + k] * x2[n]``.

    Args:
        x1: a non-empty 1-D tensor.
        x2: a non-empty 1-D tensor.
        mode: the shifts ``k`` returned: ``"valid"`` (default) where one input covers the other,
            ``max(len) - min(len) + 1`` values; ``"same"``: ``max(len)`` values, centred; ``"full"``: every
            overlap, ``len(x1) + len(x2) - 1`` values.

    Returns:
        A 1-D float tensor: float64 for int64 inputs, float32 for other integers, else the promoted float dtype.

    Raises:
        ValueError: ``x1`` or ``x2`` is empty, or ``mode`` is not ``"valid"``, ``"same"`` or ``"full"``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.correlate(hl.ops.convert_to_tensor([1.0, 2.0, 3.0]), [0.0, 1.0])).tolist()
    [2.0, 3.0]
    """
    for name, v in (("x1", x1), ("x2", x2)):
        _args.rank_in(v, (1,), "correlate", name)
        if _args.shape_of(v)[0] == 0:
            raise ValueError(f"correlate: `{name}` must not be empty.")
    return _door.call("correlate", x1, x2, mode=_args.one_of(mode, ("valid", "same", "full"), "mode", "correlate"))


def corrcoef(x):
    """The Pearson correlation coefficients of the rows of ``x``.

    Args:
        x: a 2-D tensor: each row a variable, each column an observation (a 1-D tensor is one variable).

    Returns:
        A ``(rows, rows)`` tensor of coefficients in ``[-1, 1]`` (a scalar for a 1-D ``x``), in the float dtype
        of ``x`` (float64 for int64, floatx for other integers).

    >>> import highlevel as hl
    >>> c = hl.ops.corrcoef(hl.ops.convert_to_tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]]))
    >>> hl.ops.convert_to_numpy(c).round(6).tolist()
    [[1.0, -1.0], [-1.0, 1.0]]
    """
    _args.rank_in(x, (1, 2), "corrcoef")
    return _door.call("corrcoef", x)


def vectorize(pyfunc, *, excluded=None, signature=None):
    """Turns a function of tensors into one that maps over extra leading axes of its arguments.

    The returned function broadcasts its (non-excluded) arguments' leading axes together and calls ``pyfunc``
    once per position of them, on the core of each argument (its scalar entry, or the trailing axes named by
    ``signature``), then stacks the results. It is written on ``hl.ops``, so it runs on every engine and is
    differentiable; ``pyfunc`` runs once per position, so it suits small batches.

    Args:
        pyfunc: a function of tensors returning a tensor (or a tuple of tensors with a ``signature`` that has
            several outputs).
        excluded: positions (ints) or names (strings) of arguments passed to ``pyfunc`` unchanged.
        signature: a generalized ufunc signature such as ``"(m,n),(n)->(m)"``: the core axes of each input and
            output; default: every input and the output are scalars.

    Returns:
        The vectorized function.

    Raises:
        TypeError: ``pyfunc`` is not callable.

    >>> import highlevel as hl
    >>> norms = hl.ops.vectorize(lambda v: hl.ops.sqrt(hl.ops.sum(v * v)), signature="(n)->()")
    >>> hl.ops.convert_to_numpy(norms(hl.ops.convert_to_tensor([[3.0, 4.0], [6.0, 8.0]]))).tolist()
    [5.0, 10.0]
    """
    from ._vectorize import vectorized

    if not callable(pyfunc):
        raise TypeError(f"vectorize: `pyfunc` must be callable; received {pyfunc!r}.")
    return vectorized(pyfunc, excluded=excluded, signature=signature)


__all__ += [
    "append",
    "array_split",
    "hsplit",
    "vsplit",
    "dsplit",
    "hstack",
    "vstack",
    "dstack",
    "fliplr",
    "flipud",
    "rot90",
    "roll",
    "diag",
    "diagonal",
    "diagflat",
    "trace",
    "tri",
    "vander",
    "meshgrid",
    "logspace",
    "geomspace",
    "kron",
    "cross",
    "dot",
    "inner",
    "vdot",
    "unravel_index",
    "select",
    "isin",
    "argpartition",
    "unique",
    "nonzero",
    "searchsorted",
    "digitize",
    "bincount",
    "histogram",
    "count_nonzero",
    "diff",
    "trapezoid",
    "correlate",
    "corrcoef",
    "vectorize",
]


# ------------------------------------------------------------------------------ elementwise and bitwise math
def _itemsize(dtype):
    return 2 if dtype == "bfloat16" else np.dtype(dtype).itemsize


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Returns whether two tensors are equal within a tolerance, elementwise.

    ``x1`` and ``x2`` are close where ``|x1 - x2| <= atol + rtol * |x2|`` (so the test is not symmetric, as in
    numpy). An infinity is close only to the same infinity; NaN is close to NaN only with ``equal_nan``. Integer
    and bool tensors are compared with the same formula, in float64.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with ``x1``.
        rtol: the relative tolerance, a non-negative number.
        atol: the absolute tolerance, a non-negative number.
        equal_nan: whether NaNs compare equal to each other.

    Returns:
        A bool tensor of the broadcast shape.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.isclose([1.0, 1.0, float("nan")], [1.0 + 1e-7, 1.1, float("nan")])).tolist()
    [True, False, False]
    """
    return _door.call(
        "isclose",
        x1,
        x2,
        rtol=_args.number(rtol, "rtol", "isclose", allow_none=False),
        atol=_args.number(atol, "atol", "isclose", allow_none=False),
        equal_nan=bool(equal_nan),
    )


def allclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Returns whether every pair of entries of two tensors is close (see :func:`isclose`).

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with ``x1``.
        rtol: the relative tolerance, a non-negative number.
        atol: the absolute tolerance, a non-negative number.
        equal_nan: whether NaNs compare equal to each other.

    Returns:
        A 0-d bool tensor.

    >>> import highlevel as hl
    >>> bool(hl.ops.convert_to_numpy(hl.ops.allclose([1.0, 2.0], [1.0, 2.00001])))
    True
    """
    return _door.call(
        "allclose",
        x1,
        x2,
        rtol=_args.number(rtol, "rtol", "allclose", allow_none=False),
        atol=_args.number(atol, "atol", "allclose", allow_none=False),
        equal_nan=bool(equal_nan),
    )


def cbrt(x):
    """Returns the real cube root of ``x``, elementwise (negative for negative entries).

    Args:
        x: a tensor; integer and bool inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.cbrt([-8.0, 27.0])).tolist()
    [-2.0, 3.0]
    """
    return _door.call("cbrt", x)


def fabs(x):
    """Returns the absolute value of ``x`` as a float tensor, elementwise.

    Args:
        x: a tensor; integer and bool inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.fabs(hl.ops.convert_to_tensor([-1, 2]))).tolist()
    [1.0, 2.0]
    """
    return _door.call("fabs", x)


def fmax(x1, x2):
    """Returns the elementwise maximum of two tensors, ignoring NaNs.

    Where one entry is NaN the other one is returned; the result is NaN only where both are.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape and the promoted dtype.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.fmax([2.0, float("nan")], [1.0, 4.0])).tolist()
    [2.0, 4.0]
    """
    return _door.call("fmax", x1, x2)


def fmin(x1, x2):
    """Returns the elementwise minimum of two tensors, ignoring NaNs.

    Where one entry is NaN the other one is returned; the result is NaN only where both are.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape and the promoted dtype.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.fmin([2.0, float("nan")], [1.0, 4.0])).tolist()
    [1.0, 4.0]
    """
    return _door.call("fmin", x1, x2)


def fmod(x1, x2):
    """Returns the remainder of the division truncated toward zero, elementwise (C's ``fmod``).

    The result has the sign of the dividend ``x1``, unlike :func:`mod` (the sign of the divisor). A float divisor
    of 0 gives NaN, an integer one 0; bool pairs compute in int32.

    Args:
        x1: the dividend, a tensor.
        x2: the divisor, a tensor broadcastable with ``x1``.

    Returns:
        A tensor of the broadcast shape and the promoted dtype.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.fmod([-7.5, 7.5], [2.0, -2.0])).tolist()
    [-1.5, 1.5]
    """
    return _door.call("fmod", x1, x2)


def gcd(x1, x2):
    """Returns the greatest common divisor of two integer tensors, elementwise.

    The result is non-negative whatever the signs; ``gcd(0, 0)`` is 0.

    Args:
        x1: an integer tensor.
        x2: an integer tensor broadcastable with ``x1``.

    Returns:
        An integer tensor of the broadcast shape and the promoted dtype.

    Raises:
        TypeError: for a float or bool input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.gcd([-12, 7, 0], [18, 0, 0])).tolist()
    [6, 7, 0]
    """
    return _door.call("gcd", _args.integer_input(x1, "gcd", "x1"), _args.integer_input(x2, "gcd", "x2"))


def lcm(x1, x2):
    """Returns the least common multiple of two integer tensors, elementwise.

    The result is non-negative whatever the signs, and 0 where either entry is 0.

    Args:
        x1: an integer tensor.
        x2: an integer tensor broadcastable with ``x1``.

    Returns:
        An integer tensor of the broadcast shape and the promoted dtype.

    Raises:
        TypeError: for a float or bool input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.lcm([2, 3, -4], [5, 6, 6])).tolist()
    [10, 6, 12]
    """
    return _door.call("lcm", _args.integer_input(x1, "lcm", "x1"), _args.integer_input(x2, "lcm", "x2"))


def heaviside(x1, x2):
    """Returns the Heaviside step function of ``x1``: 0 where it is negative, 1 where positive, ``x2`` where 0.

    Args:
        x1: a tensor; NaN entries stay NaN.
        x2: the value at 0, a tensor broadcastable with ``x1`` (or a number).

    Returns:
        A float tensor of the broadcast shape (integer inputs compute in floatx).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.heaviside([-2.0, 0.0, 3.0], 0.5)).tolist()
    [0.0, 0.5, 1.0]
    """
    return _door.call("heaviside", x1, x2)


def hypot(x1, x2):
    """Returns ``sqrt(x1**2 + x2**2)`` elementwise, the hypotenuse of right triangles with legs ``x1`` and ``x2``.

    Computed without squaring the legs, so it neither overflows for large legs nor underflows for tiny ones. An
    infinite leg gives inf even when the other one is NaN.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with ``x1``.

    Returns:
        A float tensor of the broadcast shape (integer inputs compute in floatx).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.hypot([3.0, 5.0], [4.0, 12.0])).tolist()
    [5.0, 13.0]
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.hypot(3e30, 4e30))):.4e}")   # the squares would overflow
    5.0000e+30
    """
    return _door.call("hypot", x1, x2)


def i0(x):
    """Returns the modified Bessel function of the first kind of order 0, elementwise.

    Args:
        x: a tensor; integer and bool inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``; differentiable (its derivative is the Bessel function ``I1``).

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.i0(1.0))):.6f}")
    1.266066
    """
    return _door.call("i0", x)


def isneginf(x):
    """Returns whether each entry of ``x`` is negative infinity.

    Args:
        x: a tensor (integer tensors give False everywhere).

    Returns:
        A bool tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.isneginf([-float("inf"), float("inf"), 0.0])).tolist()
    [True, False, False]
    """
    return _door.call("isneginf", x)


def isposinf(x):
    """Returns whether each entry of ``x`` is positive infinity.

    Args:
        x: a tensor (integer tensors give False everywhere).

    Returns:
        A bool tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.isposinf([-float("inf"), float("inf"), 0.0])).tolist()
    [False, True, False]
    """
    return _door.call("isposinf", x)


def isreal(x):
    """Returns whether each entry of ``x`` has no imaginary part.

    highlevel has no complex dtypes, so every entry is real: the result is True everywhere.

    Args:
        x: a tensor.

    Returns:
        A bool tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.isreal([1.0, 2.5])).tolist()
    [True, True]
    """
    return _door.call("isreal", x)


def ldexp(x1, x2):
    """Returns ``x1 * 2**x2`` elementwise, exactly: no rounding but that of the result itself.

    Args:
        x1: the mantissas, a tensor.
        x2: the exponents, an integer tensor (or a Python int) broadcastable with ``x1``.

    Returns:
        A float tensor of the broadcast shape, of the promotion of ``x1``, ``x2`` and a Python float (integer
        mantissas give floatx); differentiable in ``x1``.

    Raises:
        TypeError: when ``x2`` is not an integer.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.ldexp([0.75, 1.5], [1, 2])).tolist()
    [1.5, 6.0]
    """
    return _door.call("ldexp", x1, _args.integer_input(x2, "ldexp", "x2"))


def bitwise_and(x, y):
    """Returns the bitwise AND of two integer or bool tensors, elementwise (``x & y``).

    Args:
        x: an integer or bool tensor.
        y: an integer or bool tensor broadcastable with ``x`` (or a Python int).

    Returns:
        A tensor of the broadcast shape and the promoted dtype (bools give the logical and).

    Raises:
        TypeError: for a float input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_and([12, 10], [10, 6])).tolist()
    [8, 2]
    """
    return _door.call(
        "bitwise_and",
        _args.integer_input(x, "bitwise_and", "x", allow_bool=True),
        _args.integer_input(y, "bitwise_and", "y", allow_bool=True),
    )


def bitwise_or(x, y):
    """Returns the bitwise OR of two integer or bool tensors, elementwise (``x | y``).

    Args:
        x: an integer or bool tensor.
        y: an integer or bool tensor broadcastable with ``x`` (or a Python int).

    Returns:
        A tensor of the broadcast shape and the promoted dtype (bools give the logical or).

    Raises:
        TypeError: for a float input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_or([12, 10], [10, 6])).tolist()
    [14, 14]
    """
    return _door.call(
        "bitwise_or",
        _args.integer_input(x, "bitwise_or", "x", allow_bool=True),
        _args.integer_input(y, "bitwise_or", "y", allow_bool=True),
    )


def bitwise_xor(x, y):
    """Returns the bitwise exclusive OR of two integer or bool tensors, elementwise (``x ^ y``).

    Args:
        x: an integer or bool tensor.
        y: an integer or bool tensor broadcastable with ``x`` (or a Python int).

    Returns:
        A tensor of the broadcast shape and the promoted dtype (bools give the logical xor).

    Raises:
        TypeError: for a float input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_xor([12, 10], [10, 6])).tolist()
    [6, 12]
    """
    return _door.call(
        "bitwise_xor",
        _args.integer_input(x, "bitwise_xor", "x", allow_bool=True),
        _args.integer_input(y, "bitwise_xor", "y", allow_bool=True),
    )


def bitwise_invert(x):
    """Returns the bitwise NOT of an integer or bool tensor, elementwise (``~x``).

    Every bit is flipped, so a signed integer ``v`` gives ``-v - 1``; a bool tensor gives its logical not.

    Args:
        x: an integer or bool tensor.

    Returns:
        A tensor of the shape and dtype of ``x``.

    Raises:
        TypeError: for a float input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_invert(hl.ops.convert_to_tensor([0, 5], dtype="uint8"))).tolist()
    [255, 250]
    """
    return _door.call("bitwise_invert", _args.integer_input(x, "bitwise_invert", "x", allow_bool=True))


def bitwise_not(x):
    """Returns the bitwise NOT of an integer or bool tensor, elementwise: the same op as :func:`bitwise_invert`.

    Args:
        x: an integer or bool tensor.

    Returns:
        A tensor of the shape and dtype of ``x``.

    Raises:
        TypeError: for a float input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_not(hl.ops.convert_to_tensor([0, -3]))).tolist()
    [-1, 2]
    """
    return _door.call("bitwise_invert", _args.integer_input(x, "bitwise_not", "x", allow_bool=True))


def _shift(name, op, x, y):
    return _door.call(name, _args.integer_input(x, op, "x"), _args.integer_input(y, op, "y"))


def bitwise_left_shift(x, y):
    """Shifts the bits of integers to the left, elementwise (``x << y``): ``x * 2**y`` modulo the dtype's range.

    A shift count outside ``[0, bits of the dtype)`` gives 0 (numpy's definition, on every engine).

    Args:
        x: an integer tensor.
        y: the shift counts, an integer tensor broadcastable with ``x`` (or a Python int, which keeps the dtype
            of ``x``).

    Returns:
        An integer tensor of the broadcast shape and the promoted dtype.

    Raises:
        TypeError: for a float or bool input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_left_shift([1, 3], [3, 1])).tolist()
    [8, 6]
    """
    return _shift("bitwise_left_shift", "bitwise_left_shift", x, y)


def bitwise_right_shift(x, y):
    """Shifts the bits of integers to the right, elementwise (``x >> y``): ``floor(x / 2**y)``.

    Signed integers shift arithmetically (the sign bit repeats), unsigned ones logically. A shift count outside
    ``[0, bits of the dtype)`` gives 0 for a non-negative entry and -1 for a negative one.

    Args:
        x: an integer tensor.
        y: the shift counts, an integer tensor broadcastable with ``x`` (or a Python int, which keeps the dtype
            of ``x``).

    Returns:
        An integer tensor of the broadcast shape and the promoted dtype.

    Raises:
        TypeError: for a float or bool input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.bitwise_right_shift([-16, 16], 2)).tolist()
    [-4, 4]
    """
    return _shift("bitwise_right_shift", "bitwise_right_shift", x, y)


def left_shift(x, y):
    """Shifts the bits of integers to the left, elementwise: the same op as :func:`bitwise_left_shift`.

    Args:
        x: an integer tensor.
        y: the shift counts, an integer tensor broadcastable with ``x`` (or a Python int).

    Returns:
        An integer tensor of the broadcast shape and the promoted dtype.

    Raises:
        TypeError: for a float or bool input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.left_shift([1, 2], 4)).tolist()
    [16, 32]
    """
    return _shift("bitwise_left_shift", "left_shift", x, y)


def right_shift(x, y):
    """Shifts the bits of integers to the right, elementwise: the same op as :func:`bitwise_right_shift`.

    Args:
        x: an integer tensor.
        y: the shift counts, an integer tensor broadcastable with ``x`` (or a Python int).

    Returns:
        An integer tensor of the broadcast shape and the promoted dtype.

    Raises:
        TypeError: for a float or bool input.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.right_shift([16, 40], 3)).tolist()
    [2, 5]
    """
    return _shift("bitwise_right_shift", "right_shift", x, y)


def logaddexp2(x1, x2):
    """Returns ``log2(2**x1 + 2**x2)`` elementwise, without overflow for large inputs.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with ``x1``.

    Returns:
        A float tensor of the broadcast shape (integer inputs compute in floatx).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.logaddexp2([1.0, 1000.0], [1.0, 1000.0])).tolist()
    [2.0, 1001.0]
    """
    return _door.call("logaddexp2", x1, x2)


def nextafter(x1, x2):
    """Returns the next representable float after ``x1`` in the direction of ``x2``, elementwise.

    Computed in the result's own dtype (a float32 step is a float32 ulp): ``x2`` where the two are equal, the
    smallest subnormal of the right sign after 0, NaN where either is NaN.

    Args:
        x1: the starting values, a tensor.
        x2: the directions, a tensor broadcastable with ``x1``.

    Returns:
        A float tensor of the broadcast shape, of the promotion of ``x1``, ``x2`` and a Python float (integer
        inputs give floatx). Not differentiable (its gradient is 0).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.nextafter([1.0, 1.0], [2.0, 0.0])).tolist()
    [1.0000001192092896, 0.9999999403953552]
    """
    return _door.call("nextafter", x1, x2)


def signbit(x):
    """Returns whether the sign bit of each entry of ``x`` is set.

    True for negative numbers, and also for -0.0 and NaNs with the sign bit set; False for unsigned and bool
    tensors.

    Args:
        x: a tensor.

    Returns:
        A bool tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.signbit([-1.0, -0.0, 0.0, 2.0])).tolist()
    [True, True, False, False]
    """
    return _door.call("signbit", x)


def sinc(x):
    """Returns the normalized sinc function ``sin(pi x) / (pi x)``, elementwise (1 at 0).

    Args:
        x: a tensor; integer and bool inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``; differentiable everywhere (its derivative at 0 is 0).

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.sinc(0.5))):.6f}")
    0.636620
    """
    return _door.call("sinc", x)


def trunc(x):
    """Rounds each entry of ``x`` toward zero (drops the fractional part).

    Args:
        x: a tensor; integer and bool tensors are returned unchanged.

    Returns:
        A tensor of the shape and dtype of ``x`` (gradient 0).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.trunc([-1.7, 1.7, 2.0])).tolist()
    [-1.0, 1.0, 2.0]
    """
    return _door.call("trunc", x)


def empty(shape, dtype=None):
    """Returns a tensor of ``shape`` whose values are not specified (highlevel fills it with zeros).

    Args:
        shape: an int or a sequence of ints.
        dtype: the dtype (default: floatx).

    Returns:
        A tensor of ``shape`` and ``dtype``.

    >>> import highlevel as hl
    >>> hl.ops.shape(hl.ops.empty((2, 3)))
    (2, 3)
    """
    return _door.call("empty", _args.shape(shape, "empty"), dtype=_args.dtype(dtype, "empty"))


def empty_like(x, dtype=None):
    """Returns a tensor of the shape of ``x`` whose values are not specified (highlevel fills it with zeros).

    Args:
        x: a tensor.
        dtype: the dtype (default: the dtype of ``x``).

    Returns:
        A tensor of the shape of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.dtype(hl.ops.empty_like(hl.ops.ones((2,), dtype="int32")))
    'int32'
    """
    return _door.call("empty_like", x, dtype=_args.dtype(dtype, "empty_like"))


def identity(n, dtype=None):
    """Returns the ``n x n`` identity matrix: ones on the main diagonal, zeros elsewhere.

    Args:
        n: the number of rows and columns, a non-negative int.
        dtype: the dtype (default: floatx).

    Returns:
        A 2-D tensor of shape ``(n, n)``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.identity(2)).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    return _door.call(
        "identity", _args.positive_int(n, "n", "identity", minimum=0), dtype=_args.dtype(dtype, "identity")
    )


def array(x, dtype=None):
    """Creates a tensor from ``x`` (a nested list, a numpy array, a scalar or a tensor).

    Args:
        x: the values.
        dtype: the dtype (default: Python floats give floatx, Python ints int32, numpy arrays keep theirs).

    Returns:
        A tensor holding ``x``.

    >>> import highlevel as hl
    >>> hl.ops.dtype(hl.ops.array([1, 2, 3]))
    'int32'
    """
    return _door.call("array", x, dtype=_args.dtype(dtype, "array"))


def view(x, dtype=None):
    """Returns the bits of ``x`` reinterpreted as ``dtype``, as numpy's ``ndarray.view``.

    When the item sizes differ, the last axis changes length so that it holds the same bytes (float32 viewed as
    int16 doubles it); its byte count must divide by the new item size. A bool tensor reads as bytes of 0 or 1,
    and a byte viewed as bool is True when it is not 0.

    Args:
        x: a tensor.
        dtype: the dtype to read the bits as (default: the dtype of ``x``).

    Returns:
        A tensor of ``dtype`` (not differentiable).

    Raises:
        ValueError: when the last axis does not hold a whole number of items of ``dtype``, or ``x`` is 0-d and
            the item sizes differ.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.view(hl.ops.convert_to_tensor([1.0, -0.0]), "int32")).tolist()
    [1065353216, -2147483648]
    """
    old = _args.dtype_of(x)
    if old is None:  # a nested list holding symbolic values: its dtype is known once it is a tensor
        x = _door.call("convert_to_tensor", x)
        old = _args.dtype_of(x)
    if isinstance(old, type):  # a Python scalar
        old = _dtypes.result_type(old)
    new = _args.dtype(dtype, "view") or old
    shape = _args.shape_of(x)
    size_old, size_new = _itemsize(old), _itemsize(new)
    if size_old != size_new:
        if not shape:
            raise ValueError(
                f"view: cannot view a 0-d tensor of {old} ({size_old} bytes) as {new} ({size_new} "
                "bytes): the item sizes differ, so the last axis would change length. Reshape it to "
                "(1,) first."
            )
        last = shape[-1]
        if last is not None and (last * size_old) % size_new:
            raise ValueError(
                f"view: the last axis of a tensor of shape {shape} and dtype {old} holds "
                f"{last * size_old} bytes, not a whole number of {new} items ({size_new} bytes each). "
                "Pad or slice the last axis to a multiple first."
            )
    return _door.call("view", x, new)


def get_item(x, key):
    """Returns ``x[key]`` (Keras's name for indexing; :func:`highlevel.ops.getitem` is the same op).

    Args:
        x: a tensor.
        key: an int, a slice, None, Ellipsis, an integer array for one axis, or a tuple of those.

    Returns:
        The selected entries, as numpy's basic indexing selects them.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.get_item(hl.ops.convert_to_tensor([[1, 2], [3, 4]]), (1, 0))).tolist()
    3
    """
    return _door.call("getitem", x, key)


__all__ += [
    "isclose",
    "allclose",
    "cbrt",
    "fabs",
    "fmax",
    "fmin",
    "fmod",
    "gcd",
    "lcm",
    "heaviside",
    "hypot",
    "i0",
    "isneginf",
    "isposinf",
    "isreal",
    "ldexp",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_invert",
    "bitwise_not",
    "bitwise_left_shift",
    "bitwise_right_shift",
    "left_shift",
    "right_shift",
    "logaddexp2",
    "nextafter",
    "signbit",
    "sinc",
    "trunc",
    "empty",
    "empty_like",
    "identity",
    "array",
    "view",
    "get_item",
]


def slogdet(x):
    """The sign and the natural log of the absolute value of the determinant of each square matrix of ``x``.

    Computed from the QR decomposition: no overflow where the determinant itself would overflow, and the log is
    differentiable wherever the matrix is invertible.

    Args:
        x: a tensor of shape ``(..., M, M)``.

    Returns:
        ``(sign, logabsdet)``, each of shape ``(...)``: ``det(x) = sign * exp(logabsdet)``; a singular matrix gives
        sign 0 and ``-inf``.

    >>> import highlevel as hl
    >>> sign, logabs = hl.ops.slogdet(hl.ops.convert_to_tensor([[0.0, 2.0], [3.0, 0.0]]))
    >>> print(f"{float(hl.ops.convert_to_numpy(sign))} {float(hl.ops.convert_to_numpy(logabs)):.4f}")
    -1.0 1.7918
    """
    return _door.call("slogdet", _matrices(x, "slogdet", square=True))


def real(x):
    """The real part of each entry of ``x``.

    Args:
        x: a tensor; a real one is returned unchanged.

    Returns:
        For a complex ``x``, a float tensor (float32 for complex64, float64 for complex128).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.real(hl.ops.view_as_complex(hl.ops.convert_to_tensor([[1.0, 2.0]])))).tolist()
    [1.0]
    """
    return _door.call("real", x)


def imag(x):
    """The imaginary part of each entry of ``x``.

    Args:
        x: a tensor; for a real one, zeros of its dtype.

    Returns:
        For a complex ``x``, a float tensor (float32 for complex64, float64 for complex128).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.imag(hl.ops.view_as_complex(hl.ops.convert_to_tensor([[1.0, 2.0]])))).tolist()
    [2.0]
    """
    return _door.call("imag", x)


def conjugate(x):
    """The complex conjugate of each entry of ``x``.

    Args:
        x: a tensor; a real one is returned unchanged.

    Returns:
        A tensor of the dtype of ``x``.

    >>> import highlevel as hl
    >>> z = hl.ops.conjugate(hl.ops.view_as_complex(hl.ops.convert_to_tensor([[1.0, 2.0]])))
    >>> hl.ops.convert_to_numpy(z).tolist()
    [(1-2j)]
    """
    return _door.call("conj", x)


def conj(x):
    """The complex conjugate of each entry of ``x`` (the same as :func:`conjugate`).

    Args:
        x: a tensor; a real one is returned unchanged.

    Returns:
        A tensor of the dtype of ``x``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.conj(hl.ops.convert_to_tensor([1.0, -2.0]))).tolist()
    [1.0, -2.0]
    """
    return _door.call("conj", x)


def angle(x):
    """The argument (phase angle) of each entry of ``x``, in radians in ``(-pi, pi]``.

    Args:
        x: a tensor: complex, or real (0 for non-negative entries, pi for negative ones; integers give floatx).

    Returns:
        A float tensor.

    >>> import highlevel as hl
    >>> z = hl.ops.view_as_complex(hl.ops.convert_to_tensor([[0.0, 1.0], [-1.0, 0.0]]))
    >>> hl.ops.convert_to_numpy(hl.ops.angle(z)).astype("float64").round(4).tolist()
    [1.5708, 3.1416]
    """
    return _door.call("angle", x)


__all__ += ["slogdet", "real", "imag", "conjugate", "conj", "angle"]
