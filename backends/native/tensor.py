"""The native engine's Tensor: an ``xp`` array plus what autodiff needs.

A Tensor holds its values in ``.data`` (a numpy array, or a CuPy array on a GPU), a ``requires_grad``
flag, the graph node that made it (``None`` for leaves and constants), a version counter that in-place
updates bump, and ``.grad`` where :meth:`Tensor.backward` accumulates leaf gradients. Operators go through
the engine's ops, so ``t * 2.0`` follows the promotion table and is differentiable.

In-place updates (:meth:`Tensor.add_`, variable assignment, ...) rebind ``.data`` to a new buffer
instead of writing into the old one: arrays that other tensors share with this one (views made by
reshape, transpose, slicing) therefore never change under them, and the version counter catches every
tensor that backward would read after it changed.

>>> t = Tensor([1.0, 2.0])
>>> t.dtype, t.shape
('float32', (2,))
>>> (t * 3.0).numpy().tolist()
[3.0, 6.0]
"""

import numpy as np

from .xp import ndarray, on_gpu, to_host, xp

# ----------------------------------------------------------------------------- dtypes
try:  # numpy has no bfloat16; ml_dtypes adds it (CuPy does not support it)
    import ml_dtypes as _ml_dtypes

    _BFLOAT16 = None if on_gpu else np.dtype(_ml_dtypes.bfloat16)
except ImportError:  # ml_dtypes is optional: core dependencies are numpy and rich only
    _BFLOAT16 = None

#: canonical dtype name -> xp dtype
XP_DTYPES = {
    n: xp.dtype(n)
    for n in (
        "bool",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "int8",
        "int16",
        "int32",
        "int64",
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    )
}
if _BFLOAT16 is not None:
    XP_DTYPES["bfloat16"] = _BFLOAT16
#: xp dtype -> canonical name (a dict lookup: ``dtype.name`` costs microseconds)
DTYPE_NAMES = {d: n for n, d in XP_DTYPES.items()}
#: the real floating xp dtypes
FLOAT_DTYPES = frozenset(d for n, d in XP_DTYPES.items() if n.startswith(("float", "bfloat")))
#: the complex xp dtypes
COMPLEX_DTYPES = frozenset((XP_DTYPES["complex64"], XP_DTYPES["complex128"]))
#: the xp dtypes that carry gradients: real floats, and complex numbers (JAX's convention: the cotangent of a
#: complex value z is dL/dRe(z) - i dL/dIm(z), so a holomorphic op's VJP rule is its real one, unconjugated)
GRAD_DTYPES = FLOAT_DTYPES | COMPLEX_DTYPES


def xp_dtype(name):
    """The xp dtype for a canonical dtype name; a clear error for dtypes this engine lacks."""
    try:
        return XP_DTYPES[name]
    except KeyError:
        if name == "bfloat16":
            raise ValueError(
                "bfloat16 needs the ml_dtypes package on the native engine (and is not available with "
                "CuPy). Install it with: pip install ml_dtypes, or use float16/float32."
            ) from None
        raise ValueError(f"The native engine has no dtype {name!r}; expected one of {sorted(XP_DTYPES)}.") from None


def dtype_name(dt):
    """The canonical name of an xp/numpy dtype."""
    try:
        return DTYPE_NAMES[dt]
    except KeyError:
        raise ValueError(
            f"Unsupported array dtype {dt!r} on the native engine; expected one of {sorted(XP_DTYPES)}."
        ) from None


class Tensor:
    """An n-dimensional array of the native engine that records the ops applied to it.

    Args:
        data: an xp array (used as is) or anything :func:`convert.to_array` accepts.
        requires_grad: whether gradients are tracked for this tensor (float dtypes only).

    >>> x = Tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    >>> (x @ x).sum().backward()
    >>> x.grad.tolist()
    [[7.0, 11.0], [9.0, 13.0]]
    """

    # `_keras_mask`: the mask the front end attaches to a layer's output (unset until then), as on the other
    # engines' tensors
    __slots__ = ("data", "requires_grad", "_node", "_version", "grad", "_keras_mask", "__weakref__")
    # numpy's binary operators defer to ours (``np_array * tensor`` calls ``Tensor.__rmul__``)
    __array_priority__ = 1000

    def __init__(self, data, requires_grad=False):
        if data.__class__ is not ndarray:
            if isinstance(data, np.generic):  # numpy reductions of 0-d results return scalars
                data = xp.asarray(data)
            else:
                from .convert import to_array

                data = to_array(data)
        self.data = data
        self.requires_grad = False
        self._node = None
        self._version = 0
        self.grad = None
        if requires_grad:
            self.requires_grad_(True)

    # ------------------------------------------------------------------ metadata
    @property
    def shape(self):
        return self.data.shape

    @property
    def dtype(self):
        return DTYPE_NAMES[self.data.dtype]

    @property
    def ndim(self):
        return self.data.ndim

    @property
    def size(self):
        return self.data.size

    @property
    def is_leaf(self):
        return self._node is None

    def requires_grad_(self, flag=True):
        """Sets ``requires_grad`` in place (only float tensors can require grad) and returns self."""
        if flag and self.data.dtype not in GRAD_DTYPES:
            raise ValueError(
                f"Only float (or complex) tensors can require grad; this tensor is {self.dtype}. "
                "Cast it to a float dtype first."
            )
        if not flag and self._node is not None:
            raise RuntimeError(
                "requires_grad cannot be turned off on a tensor made by a recorded op; use detach() instead."
            )
        self.requires_grad = bool(flag)
        return self

    # --------------------------------------------------------------- conversions
    def numpy(self):
        """A numpy array with this tensor's values (a copy, so changing it never changes the tensor)."""
        a = to_host(self.data)
        return a.copy() if a is self.data else a

    def __array__(self, dtype=None, copy=None):
        a = to_host(self.data)
        if dtype is not None:
            a = a.astype(dtype, copy=False)
        return a.copy() if copy else a

    def item(self):
        """The single value as a Python scalar."""
        return self.data.item()

    def tolist(self):
        return self.data.tolist()

    def _scalar(self, kind):
        if self.data.size != 1:
            raise TypeError(
                f"Only a tensor with one element can be converted to a Python {kind}; this one has shape {self.shape}."
            )
        return self.data.item()

    def __bool__(self):
        if self.data.size != 1:
            raise ValueError(f"The truth value of a tensor of shape {self.shape} is ambiguous; use ops.any or ops.all.")
        return bool(self.data.item())

    def __float__(self):
        return float(self._scalar("float"))

    def __int__(self):
        return int(self._scalar("int"))

    def __index__(self):
        if self.data.dtype.kind not in "iub":
            raise TypeError(f"Only an integer tensor can be used as an index; this one is {self.dtype}.")
        return int(self._scalar("int"))

    def __len__(self):
        if self.data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.data.shape[0]

    def __iter__(self):
        if self.data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        for i in range(self.data.shape[0]):
            yield _shape.getitem(self, i)

    def __repr__(self):
        body = np.array2string(to_host(self.data), separator=", ", prefix="Tensor(")
        grad = ", requires_grad=True" if self.requires_grad else ""
        return f"Tensor({body}, dtype={self.dtype}{grad})"

    __hash__ = object.__hash__  # identity: tensors are dict keys in the backward pass

    # ---------------------------------------------------------------- autodiff
    def detach(self):
        """A tensor sharing the values but cut from the graph."""
        return Tensor(self.data)

    def backward(self, grad_output=None):
        """Accumulates d(self)/d(leaf) into ``.grad`` of every leaf that requires grad."""
        from .autograd import backward

        backward(self, grad_output)

    # ---------------------------------------------------------------- in place
    def _inplace(self, new, what):
        if self._node is not None:
            raise RuntimeError(
                f"{what}: in-place update of a tensor computed by a recorded op would corrupt the graph; "
                "use the out-of-place op (e.g. x + y instead of x.add_(y)) or detach() first."
            )
        if new.shape != self.data.shape:
            raise ValueError(
                f"{what}: the update has shape {new.shape}, the tensor has shape "
                f"{self.data.shape}; in-place updates cannot change the shape."
            )
        if new.dtype != self.data.dtype:
            new = new.astype(self.data.dtype)
        self.data = new
        self._version += 1
        return self

    def _operand(self, other):
        from .convert import to_array

        return other.data if isinstance(other, Tensor) else to_array(other, self.dtype)

    def assign_(self, value):
        """Replaces the values (same shape; cast to this dtype) and bumps the version counter."""
        value = self._operand(value)
        return self._inplace(xp.array(value, dtype=self.data.dtype, copy=True), "assign_")

    def add_(self, other):
        """``self += other`` in place (not recorded by autodiff); bumps the version counter."""
        return self._inplace(self.data + self._operand(other), "add_")

    def sub_(self, other):
        """``self -= other`` in place (not recorded by autodiff); bumps the version counter."""
        return self._inplace(self.data - self._operand(other), "sub_")

    def mul_(self, other):
        """``self *= other`` in place (not recorded by autodiff); bumps the version counter."""
        return self._inplace(self.data * self._operand(other), "mul_")

    def div_(self, other):
        """``self /= other`` in place (not recorded by autodiff); bumps the version counter."""
        return self._inplace(self.data / self._operand(other), "div_")

    def zero_(self):
        """Sets every entry to 0 in place; bumps the version counter."""
        return self._inplace(xp.zeros_like(self.data), "zero_")

    # ---------------------------------------------------------------- operators
    def __add__(self, o):
        return _math.add(self, o)

    def __radd__(self, o):
        return _math.add(o, self)

    def __sub__(self, o):
        return _math.subtract(self, o)

    def __rsub__(self, o):
        return _math.subtract(o, self)

    def __mul__(self, o):
        return _math.multiply(self, o)

    def __rmul__(self, o):
        return _math.multiply(o, self)

    def __truediv__(self, o):
        return _math.divide(self, o)

    def __rtruediv__(self, o):
        return _math.divide(o, self)

    def __floordiv__(self, o):
        return _math.floor_divide(self, o)

    def __rfloordiv__(self, o):
        return _math.floor_divide(o, self)

    def __mod__(self, o):
        return _math.mod(self, o)

    def __rmod__(self, o):
        return _math.mod(o, self)

    def __pow__(self, o):
        return _math.power(self, o)

    def __rpow__(self, o):
        return _math.power(o, self)

    def __matmul__(self, o):
        return _linalg.matmul(self, o)

    def __rmatmul__(self, o):
        return _linalg.matmul(o, self)

    def __neg__(self):
        return _math.negative(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _math.abs(self)

    def __invert__(self):
        return _math.invert(self)

    def __and__(self, o):
        return _math.bitwise_and(self, o)

    def __rand__(self, o):
        return _math.bitwise_and(o, self)

    def __or__(self, o):
        return _math.bitwise_or(self, o)

    def __ror__(self, o):
        return _math.bitwise_or(o, self)

    def __xor__(self, o):
        return _math.bitwise_xor(self, o)

    def __rxor__(self, o):
        return _math.bitwise_xor(o, self)

    def __eq__(self, o):
        return _math.equal(self, o)

    def __ne__(self, o):
        return _math.not_equal(self, o)

    def __lt__(self, o):
        return _math.less(self, o)

    def __le__(self, o):
        return _math.less_equal(self, o)

    def __gt__(self, o):
        return _math.greater(self, o)

    def __ge__(self, o):
        return _math.greater_equal(self, o)

    def __getitem__(self, key):
        return _shape.getitem(self, key)

    @property
    def T(self):  # noqa: N802 - numpy's name
        return _shape.transpose(self)

    # a few numpy-style conveniences
    def astype(self, dtype):
        return _math.cast(self, dtype)

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return _shape.reshape(self, tuple(shape))

    def sum(self, axis=None, keepdims=False):
        return _reduce.sum(self, axis, keepdims)

    def mean(self, axis=None, keepdims=False):
        return _reduce.mean(self, axis, keepdims)


def bind_ops():
    """Binds the op modules that the operators call (they import Tensor, so they come after it)."""
    global _linalg, _math, _reduce, _shape
    from . import ops_linalg as _linalg
    from . import ops_math as _math
    from . import ops_reduce as _reduce
    from . import ops_shape as _shape
