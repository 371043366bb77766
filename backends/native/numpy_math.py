"""The native engine's primitives of the elementwise/bitwise math family (``contract/numpy_math.py``).

Bitwise operations, shifts and ``view`` work on integer and bool arrays and record nothing (they have no
gradient); ``erfc`` and ``erfinv`` are special functions of ``special.py`` with one VJP rule each, written once for
the array and the graph form of the backward pass (see ``autograd.py``).

>>> from highlevel.backends.native import NativeBackend
>>> b = NativeBackend()
>>> b.to_numpy(b.bitwise_left_shift(b.convert_to_tensor([1, 1, 1]), b.convert_to_tensor([3, 31, 32]))).tolist()
[8, -2147483648, 0]
"""

from . import special
from .convert import binary, to_tensor
from .ops_math import _unary
from .tensor import XP_DTYPES, Tensor
from .xp import xp

erfc = _unary(
    "erfc",
    special.erfc,
    lambda F, g, x, y: g * (-special.TWO_OVER_SQRT_PI * F.exp(-x * x)),
    doc="The complementary error function 1 - erf(x).",
)
# the derivative sqrt(pi)/2 * exp(erfinv(x)**2) reads the output: in graph mode the output Tensor, itself a
# function of x, so the second derivative goes through erfinv again
erfinv = _unary(
    "erfinv",
    special.erfinv,
    lambda F, g, x, y: g * (special.SQRT_PI_OVER_2 * F.exp(y * y)),
    doc="The inverse error function.",
)


def _shift_operands(x, y):
    a, b = binary(x, y)
    ad, bd = a.data, b.data
    bits = ad.dtype.itemsize * 8
    inside = (bd >= 0) & (bd < bits)
    return ad, xp.where(inside, bd, 0).astype(bd.dtype, copy=False), inside


class NumpyMathOps:
    """Bitwise ops, shifts, ``view``, ``erfc`` and ``erfinv`` on ``xp`` arrays."""

    erfc = staticmethod(erfc)
    erfinv = staticmethod(erfinv)

    def bitwise_and(self, x, y):
        a, b = binary(x, y)
        return Tensor(xp.bitwise_and(a.data, b.data))

    def bitwise_or(self, x, y):
        a, b = binary(x, y)
        return Tensor(xp.bitwise_or(a.data, b.data))

    def bitwise_xor(self, x, y):
        a, b = binary(x, y)
        return Tensor(xp.bitwise_xor(a.data, b.data))

    def bitwise_invert(self, x):
        return Tensor(xp.invert(to_tensor(x).data))

    def bitwise_left_shift(self, x, y):
        # numpy defines shifts by counts outside [0, bits); CuPy uses the C operator, which does not
        ad, count, inside = _shift_operands(x, y)
        out = xp.where(inside, xp.left_shift(ad, count), 0)
        return Tensor(out.astype(ad.dtype, copy=False))

    def bitwise_right_shift(self, x, y):
        ad, count, inside = _shift_operands(x, y)
        out = xp.where(inside, xp.right_shift(ad, count), xp.where(ad < 0, -1, 0))
        return Tensor(out.astype(ad.dtype, copy=False))

    def view(self, x, dtype):
        a = to_tensor(x).data
        if a.dtype == xp.bool_:
            a = a.astype(xp.uint8)
        target = XP_DTYPES["uint8" if dtype == "bool" else dtype]
        if a.ndim == 0:
            out = a.reshape(1).view(target).reshape(())
        else:
            out = xp.ascontiguousarray(a).view(target)
        if dtype == "bool":
            out = out != 0
        return Tensor(out)
