"""The backend contract, part 2c: elementwise and bitwise math of ``keras.ops.numpy`` beyond the basics.

Most of these ops are written here once, on the contract's own methods and with the canonical arguments the front
door hands over (``highlevel/ops/_args.py``): ``cbrt``, ``hypot``, ``fmod``, ``gcd``, ``i0``, ``ldexp``,
``nextafter``, ``saturate_cast``, ... An engine needs nothing to support them; it may override one where its own
kernel is faster or more exact, and the conformance suite holds the override to the same numbers.

The primitives of the family are abstract: the bitwise operations and shifts, ``view`` (reinterpreting the bits of
a tensor as another dtype) and the special functions ``erfc`` and ``erfinv``, which cannot be written accurately
from other ops (``1 - erf(x)`` loses every digit of ``erfc`` for large ``x``). ``nextafter``, ``signbit`` and
``ldexp`` are written on ``view`` and the shifts, so that they are exact on every engine.

Dtypes follow the contract's promotion table (Python scalars weak); float math on integer or bool inputs computes in
floatx.

>>> import highlevel as hl
>>> b = hl.config.current_backend()
>>> b.to_numpy(b.hypot(b.convert_to_tensor([3.0, 5.0]), b.convert_to_tensor([4.0, 12.0]))).tolist()
[5.0, 13.0]
>>> b.to_numpy(b.gcd(b.convert_to_tensor([-12, 0]), b.convert_to_tensor([18, 0]))).tolist()
[6, 0]
"""

import abc
import fractions
import math

import numpy as np

from . import dtypes

#: the float dtypes' (total bits, mantissa bits, exponent bias): the layout ``ldexp`` builds powers of two with
_FLOAT_LAYOUT = {"float16": (16, 10, 15), "bfloat16": (16, 7, 127), "float32": (32, 23, 127), "float64": (64, 52, 1023)}

#: the signed integer dtype of each float dtype's width (what ``view`` reinterprets its bits as)
_SAME_WIDTH_INT = {"float16": "int16", "bfloat16": "int16", "float32": "int32", "float64": "int64"}

#: the precision (significand digits, the implicit bit included) and largest finite value of each float dtype
_FLOAT_INFO = {
    "float16": (11, 65504.0),
    "bfloat16": (8, 3.3895313892515355e38),
    "float32": (24, float(np.finfo(np.float32).max)),
    "float64": (53, float(np.finfo(np.float64).max)),
}

_INT_BITS = {"int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "int32": 32, "uint32": 32, "int64": 64, "uint64": 64}

# I0: the power series sum_k (x^2/4)^k / (k!)^2 up to |x| = 20 (35 terms), the asymptotic series
# e^x / sqrt(2 pi x) * sum_k a_k / x^k beyond it (21 terms); both reach float64 rounding on their side of 20. The
# power series runs in u = (x / 20)^2 = (x^2/4) / 100, so that its coefficients 100^k / (k!)^2 stay normal float32
# numbers (1/(k!)^2 itself becomes subnormal from k = 21, which engines that flush subnormals would drop).
_I0_SWITCH = 20.0
_I0_SERIES = tuple((10.0**k / math.factorial(k)) ** 2 for k in range(35))


def _asymptotic_i0_coefficients(n):
    out = [1.0]
    for k in range(1, n):
        out.append(out[-1] * (2 * k - 1) ** 2 / (8.0 * k))
    return tuple(out)


_I0_ASYMPTOTIC = _asymptotic_i0_coefficients(21)

# sin(y) / y = sum_k (-1)^k y^(2k) / (2k + 1)!, to y^12: below |y| = 0.5 the next term is under float64's rounding
_SINC_SERIES = tuple((-1) ** k / math.factorial(2 * k + 1) for k in range(7))


def _euclid_steps(bits):
    """How many steps of Euclid's algorithm suffice for integers below ``2**bits`` (Lame's bound: the inputs
    that need the most steps are consecutive Fibonacci numbers), plus the first step that may swap the pair."""
    a, b, n = 1, 1, 1
    while b < 2**bits:
        a, b, n = b, a + b, n + 1
    return n + 1


def _is_py_scalar(x):
    return isinstance(x, (bool, int, float)) and not isinstance(x, np.generic)


def _toward_zero(value, dtype):
    """The representable value of float ``dtype`` nearest to ``value`` (a Python int or float) on the side of 0,
    as a Python float (computed exactly: ``2**63 - 1`` gives the float64 below ``2**63``, not ``2**63``)."""
    if value == 0 or dtype not in _FLOAT_INFO:
        return value
    digits, largest = _FLOAT_INFO[dtype]
    if abs(value) >= largest:
        return math.copysign(largest, value)
    exact = fractions.Fraction(abs(value))
    exponent = math.floor(exact).bit_length() if exact >= 1 else math.frexp(float(exact))[1]
    scale = fractions.Fraction(2) ** (exponent - digits)  # the spacing of dtype's values below 2**exponent
    return math.copysign(float(math.floor(exact / scale) * scale), value)


def _limits(dtype):
    """``(lowest, highest)`` finite values of ``dtype`` as Python numbers (bool: 0 and 1)."""
    if dtype == "bool":
        return 0, 1
    if dtype in _FLOAT_INFO:
        largest = _FLOAT_INFO[dtype][1]
        return -largest, largest
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


class NumpyMathContract(abc.ABC):
    """Elementwise, bitwise and special-function ops of ``keras.ops.numpy`` (and ``erfc``, ``erfinv``,
    ``saturate_cast``)."""

    # ------------------------------------------------------------------------------------------- helpers
    def _node(self, x):
        """What promotion sees of ``x``: a dtype name, or the Python type of a weak scalar."""
        if _is_py_scalar(x):
            return type(x)
        if isinstance(x, (np.ndarray, np.generic)):
            return dtypes.standardize_dtype(x.dtype)
        return self.dtype(self.convert_to_tensor(x))

    def _common(self, *xs, floating=False):
        """The operands as tensors of their common dtype (float math on ints: floatx when ``floating``)."""
        dt = dtypes.result_type(*(self._node(x) for x in xs))
        if floating and dt not in dtypes.FLOAT_DTYPES:
            dt = dtypes.floatx()
        out = []
        for x in xs:
            t = self.convert_to_tensor(x, dt) if _is_py_scalar(x) else self.convert_to_tensor(x)
            out.append(t if self.dtype(t) == dt else self.cast(t, dt))
        return out, dt

    def _float_tensor(self, x):
        (t,), _ = self._common(x, floating=True)
        return t

    def _constant(self, value, dtype):
        return self.full((), value, dtype)

    def _reduce_with_initial(self, name, x, axis, keepdims, initial):
        """``max``/``min`` with numpy's ``initial``: the reduction joined with ``initial`` (a Python number, in the
        dtype of ``x``); over an empty axis, ``initial`` itself. The engines' ``max`` and ``min`` call this when
        ``initial`` is given."""
        x = self.convert_to_tensor(x)
        shape = self.shape(x)
        axes = tuple(range(len(shape))) if axis is None else tuple(a % max(len(shape), 1) for a in axis)
        dt = self.dtype(x)
        if any(shape[a] == 0 for a in axes):
            kept = (
                tuple(1 if i in axes else d for i, d in enumerate(shape))
                if keepdims
                else tuple(d for i, d in enumerate(shape) if i not in axes)
            )
            return self.full(kept, initial, dt)
        reduced = getattr(self, name)(x, axis=axis, keepdims=keepdims)
        combine = self.maximum if name == "max" else self.minimum
        return combine(reduced, self._constant(initial, dt))

    # --------------------------------------------------------------------------------------- primitives
    @abc.abstractmethod
    def bitwise_and(self, x, y):
        """``x & y`` of integer or bool tensors (promoted by the table; bools give the logical and)."""

    @abc.abstractmethod
    def bitwise_or(self, x, y):
        """``x | y`` of integer or bool tensors (promoted by the table; bools give the logical or)."""

    @abc.abstractmethod
    def bitwise_xor(self, x, y):
        """``x ^ y`` of integer or bool tensors (promoted by the table; bools give the logical xor)."""

    @abc.abstractmethod
    def bitwise_invert(self, x):
        """``~x`` of an integer tensor (every bit flipped) or a bool tensor (the logical not)."""

    @abc.abstractmethod
    def bitwise_left_shift(self, x, y):
        """``x << y`` of integer tensors (promoted by the table; a Python int ``y`` keeps ``x``'s dtype).

        A shift count outside ``[0, bits)`` gives 0 (numpy's and JAX's definition; the C operator leaves it
        undefined)."""

    @abc.abstractmethod
    def bitwise_right_shift(self, x, y):
        """``x >> y`` of integer tensors: arithmetic (the sign bit repeats) for signed dtypes, logical for unsigned.

        A shift count outside ``[0, bits)`` gives 0 for a non-negative ``x`` and -1 for a negative one."""

    @abc.abstractmethod
    def view(self, x, dtype):
        """The bits of ``x`` reinterpreted as ``dtype`` (a canonical name), as ``numpy.ndarray.view``.

        When the item sizes differ the last axis is rescaled (its byte count must divide by the new item size;
        the front door checks the shape). A bool tensor reads as its bytes (0 or 1); viewed as bool, a byte is
        True when it is not 0. Not differentiable."""

    @abc.abstractmethod
    def erfc(self, x):
        """The complementary error function ``1 - erf(x)``, accurate where it is tiny (large ``x``)."""

    @abc.abstractmethod
    def erfinv(self, x):
        """The inverse error function on ``[-1, 1]`` (``+-inf`` at ``+-1``, NaN outside)."""

    # ------------------------------------------------------------------------------ creation and conversion
    def empty(self, shape, dtype=None):
        """A tensor of ``shape`` (its values are zeros here; ``empty`` promises none)."""
        return self.zeros(shape, dtype if dtype is not None else dtypes.floatx())

    def empty_like(self, x, dtype=None):
        """A tensor of the shape of ``x`` in ``dtype`` (default: the dtype of ``x``); zeros here."""
        return self.zeros_like(x, dtype=dtype)

    def identity(self, n, dtype=None):
        """The ``n x n`` identity matrix (floatx by default)."""
        return self.eye(n, dtype=dtype if dtype is not None else dtypes.floatx())

    def array(self, x, dtype=None):
        """``x`` as a tensor (of ``dtype`` when given)."""
        return self.convert_to_tensor(x, dtype=dtype)

    def saturate_cast(self, x, dtype):
        """``x`` cast to ``dtype`` with values beyond its range clamped to its lowest or highest value.

        Infinities clamp too (to the largest finite values of a float ``dtype``, as Keras does); NaN gives 0 in an
        integer or bool ``dtype``. Differentiable between float dtypes (1 inside the range, 0 outside).
        """
        x = self.convert_to_tensor(x)
        src = self.dtype(x)
        if src == "bool" or (src == dtype and src not in dtypes.FLOAT_DTYPES):
            return self.cast(x, dtype)
        src_lo, src_hi = _limits(src)
        dst_lo, dst_hi = _limits(dtype)
        # The bounds as values of the source dtype that do not leave the target's range (float32 cannot hold
        # 2**31 - 1: its bound is the float below 2**31).
        if src in dtypes.FLOAT_DTYPES:
            lo, hi = _toward_zero(max(src_lo, dst_lo), src), _toward_zero(min(src_hi, dst_hi), src)
        else:
            lo, hi = math.ceil(max(src_lo, dst_lo)), math.floor(min(src_hi, dst_hi))
        clipped = self.clip(x, self._constant(lo, src), self._constant(hi, src))
        if src not in dtypes.FLOAT_DTYPES or dtype in dtypes.FLOAT_DTYPES:
            return self.cast(clipped, dtype)
        out = self.cast(self.where(self.isnan(x), self._constant(0, src), clipped), dtype)
        # values beyond the rounded bounds are beyond the target's range: its exact extremes
        out = self.where(self.greater(x, hi), self._constant(dst_hi, dtype), out)
        return self.where(self.less(x, lo), self._constant(dst_lo, dtype), out)

    # ------------------------------------------------------------------------------------ comparisons
    def isclose(self, x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
        """Whether ``|x1 - x2| <= atol + rtol * |x2|`` elementwise (bool), as ``numpy.isclose``.

        Infinities are close only to themselves; NaN is close to NaN only with ``equal_nan``. Integer and bool
        inputs are compared with the same formula in float64 (numpy's rule; where float64 is not supported, in
        floatx).
        """
        (a, b), dt = self._common(x1, x2)
        if dt not in dtypes.FLOAT_DTYPES:
            dt = "float64" if self.capabilities.supports_float64 else dtypes.floatx()
            a, b = self.cast(a, dt), self.cast(b, dt)
        finite = self.logical_and(self.isfinite(a), self.isfinite(b))
        zero = self._constant(0, dt)
        a_f, b_f = self.where(finite, a, zero), self.where(finite, b, zero)  # no inf - inf computed
        bound = self.add(self.multiply(self.abs(b_f), rtol), atol)
        close = self.where(finite, self.less_equal(self.abs(self.subtract(a_f, b_f)), bound), self.equal(a, b))
        if equal_nan:
            close = self.logical_or(close, self.logical_and(self.isnan(a), self.isnan(b)))
        return close

    def allclose(self, x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
        """Whether every pair of entries is close by :meth:`isclose` (a 0-d bool tensor)."""
        return self.all(self.isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan))

    def isneginf(self, x):
        """Elementwise ``x == -inf`` (bool; False for integers)."""
        x = self.convert_to_tensor(x)
        if self.dtype(x) not in dtypes.FLOAT_DTYPES:
            return self.full(self.shape(x), False, "bool")
        return self.equal(x, float("-inf"))

    def isposinf(self, x):
        """Elementwise ``x == +inf`` (bool; False for integers)."""
        x = self.convert_to_tensor(x)
        if self.dtype(x) not in dtypes.FLOAT_DTYPES:
            return self.full(self.shape(x), False, "bool")
        return self.equal(x, float("inf"))

    def isreal(self, x):
        """Elementwise "has no imaginary part" (bool): True everywhere, as highlevel has no complex dtypes."""
        return self.full(self.shape(self.convert_to_tensor(x)), True, "bool")

    def signbit(self, x):
        """Whether the sign bit is set (bool): True for negative numbers, -0.0 and NaNs with the sign bit."""
        x = self.convert_to_tensor(x)
        dt = self.dtype(x)
        if dt in dtypes.FLOAT_DTYPES:
            return self.less(self.view(x, _SAME_WIDTH_INT[dt]), 0)
        if dt == "bool" or dt.startswith("uint"):
            return self.full(self.shape(x), False, "bool")
        return self.less(x, 0)

    # -------------------------------------------------------------------------------------- unary math
    def cbrt(self, x):
        """The real cube root (negative for negative ``x``); integer inputs compute in floatx."""
        x = self._float_tensor(x)
        dt = self.dtype(x)
        a = self.abs(x)
        special = self.logical_or(self.equal(a, 0), self.logical_not(self.isfinite(a)))
        safe = self.where(special, self._constant(1, dt), a)
        y = self.power(safe, 1.0 / 3.0)
        # one Newton step on y**3 = |x| removes pow's rounding of the exponent 1/3 (cbrt(27) is 3 exactly)
        y = self.subtract(
            y, self.divide(self.subtract(self.multiply(self.square(y), y), safe), self.multiply(self.square(y), 3.0))
        )
        return self.multiply(self.sign(x), self.where(special, a, y))

    def fabs(self, x):
        """``|x|`` as a float (integer and bool inputs give floatx)."""
        return self.abs(self._float_tensor(x))

    def trunc(self, x):
        """Rounds toward zero; integer and bool inputs are returned as they are (gradient 0)."""
        x = self.convert_to_tensor(x)
        if self.dtype(x) not in dtypes.FLOAT_DTYPES:
            return x
        return self.where(self.less(x, 0), self.ceil(x), self.floor(x))

    def sinc(self, x):
        """The normalized sinc ``sin(pi x) / (pi x)``, 1 at 0; integer inputs compute in floatx.

        Near 0 (``|pi x| < 0.5``) its Taylor series, whose derivatives are accurate too (those of
        ``sin(y) / y`` cancel there); ``sin(y) / y`` elsewhere.
        """
        x = self._float_tensor(x)
        dt = self.dtype(x)
        y = self.multiply(x, math.pi)
        near = self.less(self.abs(y), 0.5)
        # each branch is fed an input of its own range, so the one not taken stays finite (and so does its gradient)
        y_near = self.where(near, y, self._constant(0, dt))
        y_far = self.where(near, self._constant(1, dt), y)
        z = self.square(y_near)
        series = self._constant(_SINC_SERIES[-1], dt)
        for c in reversed(_SINC_SERIES[:-1]):
            series = self.add(self.multiply(series, z), c)
        return self.where(near, series, self.divide(self.sin(y_far), y_far))

    def i0(self, x):
        """The modified Bessel function of the first kind of order 0; integer inputs compute in floatx.

        A power series up to ``|x| = 20`` and the asymptotic expansion beyond, each accurate to float64 rounding
        on its side; differentiable to any order (its derivative is ``I1``).
        """
        x = self._float_tensor(x)
        dt = self.dtype(x)
        if dt in ("float16", "bfloat16"):  # the coefficients (up to 4e10) need float32's range
            return self.cast(self.i0(self.cast(x, "float32")), dt)
        ax = self.abs(x)
        # each branch is fed a clamped input, so the one not taken stays finite and so does its (zero) gradient
        near = self.clip(x, self._constant(-_I0_SWITCH, dt), self._constant(_I0_SWITCH, dt))
        y = self.square(self.multiply(near, 1.0 / _I0_SWITCH))
        series = self._constant(_I0_SERIES[-1], dt)
        for c in reversed(_I0_SERIES[:-1]):
            series = self.add(self.multiply(series, y), c)
        far = self.maximum(ax, _I0_SWITCH)
        z = self.reciprocal(far)
        tail = self._constant(_I0_ASYMPTOTIC[-1], dt)
        for c in reversed(_I0_ASYMPTOTIC[:-1]):
            tail = self.add(self.multiply(tail, z), c)
        scale = self.exp(self.subtract(far, self.multiply(self.log(self.multiply(far, 2.0 * math.pi)), 0.5)))
        out = self.where(self.less_equal(ax, _I0_SWITCH), series, self.multiply(scale, tail))
        return self.where(self.isinf(x), ax, out)

    # ------------------------------------------------------------------------------------- binary math
    def fmax(self, x1, x2):
        """Elementwise maximum ignoring NaN: a NaN loses to a number; NaN only where both are NaN."""
        (a, b), _ = self._common(x1, x2)
        return self.where(self.isnan(b), a, self.where(self.isnan(a), b, self.maximum(a, b)))

    def fmin(self, x1, x2):
        """Elementwise minimum ignoring NaN: a NaN loses to a number; NaN only where both are NaN."""
        (a, b), _ = self._common(x1, x2)
        return self.where(self.isnan(b), a, self.where(self.isnan(a), b, self.minimum(a, b)))

    def fmod(self, x1, x2):
        """The remainder of the division truncated toward zero: the sign of ``x1`` (C's ``fmod``).

        Bool pairs compute in int32. An integer divisor of 0 gives 0 (as numpy); a float one gives NaN.
        """
        (a, b), dt = self._common(x1, x2)
        if dt == "bool":
            a, b, dt = self.cast(a, "int32"), self.cast(b, "int32"), "int32"
        if dt in dtypes.FLOAT_DTYPES:
            # mod is exact, and |x1| mod |x2| is the truncated remainder's magnitude
            return self.multiply(self.sign(a), self.mod(self.abs(a), self.abs(b)))
        zero = self.equal(b, 0)
        safe = self.where(zero, self._constant(1, dt), b)
        out = self.multiply(self.sign(a), self.mod(self.abs(a), self.abs(safe)))
        return self.where(zero, self._constant(0, dt), out)

    def hypot(self, x1, x2):
        """``sqrt(x1**2 + x2**2)`` without overflow or underflow in the squares; integer inputs compute in floatx.

        An infinite leg gives inf even when the other is NaN (IEEE's rule).
        """
        (a, b), dt = self._common(x1, x2, floating=True)
        a, b = self.abs(a), self.abs(b)
        big, small = self.maximum(a, b), self.minimum(a, b)
        zero = self.equal(big, 0)
        ratio = self.divide(small, self.where(zero, self._constant(1, dt), big))
        out = self.multiply(big, self.sqrt(self.add(self.square(ratio), 1.0)))
        out = self.where(zero, self._constant(0, dt), out)
        return self.where(self.logical_or(self.isinf(a), self.isinf(b)), self._constant(float("inf"), dt), out)

    def heaviside(self, x1, x2):
        """The step function: 0 where ``x1 < 0``, 1 where ``x1 > 0``, ``x2`` where ``x1 == 0`` (NaN stays NaN);
        integer inputs compute in floatx."""
        (a, b), dt = self._common(x1, x2, floating=True)
        positive = self.where(self.greater(a, 0), self._constant(1, dt), b)
        out = self.where(self.less(a, 0), self._constant(0, dt), positive)
        return self.where(self.isnan(a), a, out)

    def logaddexp2(self, x1, x2):
        """``log2(2**x1 + 2**x2)`` without overflow; integer inputs compute in floatx."""
        (a, b), _ = self._common(x1, x2, floating=True)
        ln2 = math.log(2.0)
        return self.multiply(self.logaddexp(self.multiply(a, ln2), self.multiply(b, ln2)), 1.0 / ln2)

    def ldexp(self, x1, x2):
        """``x1 * 2**x2`` for an integer ``x2``, exactly (no rounding but the result's own).

        The power of two is built from its bits (``view``), in three factors so that every exponent whose result
        is neither 0 nor inf is reached. Differentiable in ``x1``.
        """
        dt = dtypes.result_type(self._node(x1), self._node(x2), float)
        x1 = self.convert_to_tensor(x1, dt) if _is_py_scalar(x1) else self.cast(self.convert_to_tensor(x1), dt)
        _, mantissa, bias = _FLOAT_LAYOUT[dt]
        idt = _SAME_WIDTH_INT[dt]
        # beyond three times the largest normal exponent the result is 0 or inf whatever x1 is
        reach = 3 * (bias - 1)
        e = self.cast(self.clip(self.cast(self.convert_to_tensor(x2), "int64"), -reach, reach), idt)
        # three parts, each within the normal exponents [1 - bias, bias]
        first = self.floor_divide(e, 3)
        second = self.floor_divide(self.subtract(e, first), 2)
        third = self.subtract(self.subtract(e, first), second)
        out = x1
        for part in (first, second, third):
            out = self.multiply(out, self.view(self.bitwise_left_shift(self.add(part, bias), mantissa), dt))
        return out

    def nextafter(self, x1, x2):
        """The next float after ``x1`` in the direction of ``x2``, in the dtype of the result (integer inputs
        compute in floatx); ``x2`` where they are equal, NaN where either is NaN. Not differentiable."""
        (a, b), dt = self._common(x1, x2, floating=True)
        idt = _SAME_WIDTH_INT[dt]
        bits = self.view(a, idt)
        # the integer image of a float grows with its magnitude, for either sign
        away = self.equal(self.greater(b, a), self.greater(a, 0))
        step = self.view(self.where(away, self.add(bits, 1), self.subtract(bits, 1)), dt)
        # from +-0 the first step is the smallest subnormal, of the sign of the direction (built from its bits:
        # arithmetic on subnormals may be flushed to 0)
        info = np.iinfo(idt)
        tiny = self.view(self.full((), 1, idt), dt)
        negative_tiny = self.view(self.full((), int(info.min) + 1, idt), dt)
        out = self.where(self.equal(a, 0), self.where(self.greater(b, a), tiny, negative_tiny), step)
        out = self.where(self.equal(a, b), b, out)
        out = self.where(self.logical_or(self.isnan(a), self.isnan(b)), self.add(a, b), out)
        return self.stop_gradient(out)

    def gcd(self, x1, x2):
        """The greatest common divisor of integer tensors (non-negative; ``gcd(0, 0) == 0``).

        Euclid's algorithm run for the number of steps the dtype's largest values need (Lame's bound), the pairs
        that finish early carried unchanged: a fixed graph, so it also runs compiled.
        """
        (a, b), dt = self._common(x1, x2)
        a, b = self.abs(a), self.abs(b)
        one = self._constant(1, dt)
        for _ in range(_euclid_steps(_INT_BITS[dt])):
            zero = self.equal(b, 0)
            a, b = self.where(zero, a, b), self.where(zero, b, self.mod(a, self.where(zero, one, b)))
        return a

    def lcm(self, x1, x2):
        """The least common multiple of integer tensors (non-negative; 0 when either is 0)."""
        (a, b), dt = self._common(x1, x2)
        a, b = self.abs(a), self.abs(b)
        g = self.gcd(a, b)
        zero = self.equal(g, 0)
        out = self.multiply(self.floor_divide(a, self.where(zero, self._constant(1, dt), g)), b)
        return self.where(zero, self._constant(0, dt), out)
