"""The PyTorch engine's primitives of the elementwise/bitwise math family (``contract/numpy_math.py``).

uint16/32/64 tensors run their bit operations in int64 (``_convert.run``): exact for and, or, xor and left
shifts, whose low bits do not depend on the wider type; a right shift of a uint64 value of 2**63 or more is not
(documented in ``_convert``). Shift counts outside ``[0, bits)`` are mapped to the contract's results explicitly.

>>> from highlevel.backends.torch import TorchBackend
>>> b = TorchBackend()
>>> b.to_numpy(b.bitwise_right_shift(b.convert_to_tensor([-16, 16]), 40)).tolist()
[-1, 0]
"""

import torch

from . import _convert as cv

_BITS = {
    torch.uint8: 8,
    torch.int8: 8,
    torch.int16: 16,
    torch.uint16: 16,
    torch.int32: 32,
    torch.uint32: 32,
    torch.int64: 64,
    torch.uint64: 64,
}


def _shift(fn, x, y, outside):
    (a, b), _ = cv.promote(x, y)
    bits = _BITS[a.dtype]

    def run(p, q):
        inside = (q >= 0) & (q < bits)
        shifted = fn(p, torch.where(inside, q, torch.zeros_like(q)))
        return torch.where(inside, shifted, outside(p))

    return cv.run(run, [a, b])


class TorchNumpyMathMixin:
    """Bitwise ops, shifts, ``view``, ``erfc`` and ``erfinv`` with torch."""

    def bitwise_and(self, x, y):
        (a, b), _ = cv.promote(x, y)
        return cv.run(torch.bitwise_and, [a, b])

    def bitwise_or(self, x, y):
        (a, b), _ = cv.promote(x, y)
        return cv.run(torch.bitwise_or, [a, b])

    def bitwise_xor(self, x, y):
        (a, b), _ = cv.promote(x, y)
        return cv.run(torch.bitwise_xor, [a, b])

    def bitwise_invert(self, x):
        return cv.run(torch.bitwise_not, [cv.convert(x)])

    def bitwise_left_shift(self, x, y):
        return _shift(torch.bitwise_left_shift, x, y, torch.zeros_like)

    def bitwise_right_shift(self, x, y):
        return _shift(
            torch.bitwise_right_shift, x, y, lambda p: torch.where(p < 0, torch.full_like(p, -1), torch.zeros_like(p))
        )

    def view(self, x, dtype):
        t = cv.convert(x).detach()
        if t.dtype == torch.bool:
            t = t.to(torch.uint8)
        target = cv.to_torch_dtype("uint8" if dtype == "bool" else dtype)
        out = t.contiguous().view(target)
        return out != 0 if dtype == "bool" else out

    def erfc(self, x):
        return torch.erfc(cv.to_float(x))

    def erfinv(self, x):
        return torch.erfinv(cv.to_float(x))
