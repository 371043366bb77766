"""Elementwise ops of the native engine: unary math, binary arithmetic, comparisons, logic, where.

Each differentiable op computes its result with ``xp`` and records one VJP rule. Float math on integer
inputs computes in floatx; binary ops promote both operands by the contract's table first. Constants in
the rules are Python floats, which numpy treats as weak, so float32 stays float32.

>>> from highlevel.backends.native.tensor import Tensor
>>> exp(Tensor([0.0])).numpy().tolist()
[1.0]
>>> add(Tensor([1, 2]), 0.5).dtype
'float32'
"""

import math
import types

from . import autograd as _ag
from . import special
from .autograd import record, unbroadcast
from .convert import binary, float_binary, like, promote, std_dtype, to_float, to_tensor
from .tensor import COMPLEX_DTYPES, DTYPE_NAMES, FLOAT_DTYPES, XP_DTYPES, Tensor, xp_dtype
from .xp import on_gpu, xp

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)


# -------------------------------------------------------------------------- unary
def _unary(name, fwd, dfn=None, floats=True, doc=""):
    """Makes an elementwise op. ``dfn(F, g, x, y)`` is its VJP (None: gradient zero, nothing recorded).

    The VJP is written once for both modes of the backward pass: with ``F`` the array module and xp arrays
    (array mode), or with ``F`` this module's ops and Tensors (graph mode, where it records).
    ``floats``: integer inputs are computed in floatx (True) or keep their dtype (False).
    """
    if dfn is None:

        def op(x):
            x = to_float(x) if floats else to_tensor(x)
            return Tensor(like(fwd(x.data), x.data.dtype))
    else:

        def op(x):
            x = to_float(x) if floats else to_tensor(x)
            xd = x.data
            yd = fwd(xd)
            if yd.dtype != xd.dtype:  # constants such as 1.0 / x promote bfloat16 arrays
                yd = yd.astype(xd.dtype)
            if not (_ag._state.grad_enabled and x.requires_grad):
                return Tensor(yd)

            def backward(g, out=None):
                if out is None:
                    return (dfn(xp, g, xd, yd),)
                return (dfn(_T, g, x, out),)

            return record(yd, (x,), backward, (x,), name)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc or f"Elementwise {name}."
    return op


negative = _unary("negative", xp.negative, lambda F, g, x, y: -g, floats=False, doc="-x.")
_real_abs = _unary("abs", xp.abs, lambda F, g, x, y: g * F.sign(x), floats=False, doc="|x|; gradient sign(x) (0 at 0).")


def abs(x):  # noqa: A001 - the contract's name
    """|x|; gradient sign(x) (0 at 0). The modulus of a complex ``x`` is real (float32 for complex64)."""
    x = to_tensor(x)
    if x.data.dtype not in COMPLEX_DTYPES:
        return _real_abs(x)
    xd = x.data
    yd = xp.abs(xd)

    def backward(g, out=None):
        # JAX's convention for complex cotangents: d|z| gives g * conj(z) / |z| (0 at 0)
        if out is None:
            safe = xp.where(yd == 0, xp.ones((), yd.dtype), yd)
            return (g * xp.conj(xd) / safe,)
        from .spectral import conj

        safe = where(out == 0, 1.0, out)
        return (multiply(g, conj(x)) / safe,)

    return record(yd, (x,), backward, (x,), "abs")


sign = _unary("sign", xp.sign, floats=False, doc="-1, 0 or 1; gradient 0.")
_square = _unary("square", xp.square, lambda F, g, x, y: g * (x + x), floats=False)


def square(x):
    """x * x (bool gives int32)."""
    x = to_tensor(x)
    return _square(to_tensor(x, "int32") if x.dtype == "bool" else x)


sqrt = _unary("sqrt", xp.sqrt, lambda F, g, x, y: g * 0.5 / y, doc="Square root (gradient inf at 0).")
rsqrt = _unary("rsqrt", lambda x: 1.0 / xp.sqrt(x), lambda F, g, x, y: g * -0.5 * y / x, doc="1 / sqrt(x).")
exp = _unary("exp", xp.exp, lambda F, g, x, y: g * y, doc="e**x.")
expm1 = _unary("expm1", xp.expm1, lambda F, g, x, y: g * (y + 1.0), doc="e**x - 1.")
log = _unary("log", xp.log, lambda F, g, x, y: g / x, doc="Natural logarithm.")
log1p = _unary("log1p", xp.log1p, lambda F, g, x, y: g / (x + 1.0), doc="log(1 + x).")
log2 = _unary("log2", xp.log2, lambda F, g, x, y: g / (x * _LN2), doc="Base-2 logarithm.")
log10 = _unary("log10", xp.log10, lambda F, g, x, y: g / (x * _LN10), doc="Base-10 logarithm.")
sin = _unary("sin", xp.sin, lambda F, g, x, y: g * F.cos(x), doc="Sine.")
cos = _unary("cos", xp.cos, lambda F, g, x, y: -g * F.sin(x), doc="Cosine.")
tan = _unary("tan", xp.tan, lambda F, g, x, y: g * (1.0 + y * y), doc="Tangent.")
arcsin = _unary("arcsin", xp.arcsin, lambda F, g, x, y: g / F.sqrt(1.0 - x * x), doc="Inverse sine.")
arccos = _unary("arccos", xp.arccos, lambda F, g, x, y: -g / F.sqrt(1.0 - x * x), doc="Inverse cosine.")
arctan = _unary("arctan", xp.arctan, lambda F, g, x, y: g / (1.0 + x * x), doc="Inverse tangent.")
sinh = _unary("sinh", xp.sinh, lambda F, g, x, y: g * F.cosh(x), doc="Hyperbolic sine.")
cosh = _unary("cosh", xp.cosh, lambda F, g, x, y: g * F.sinh(x), doc="Hyperbolic cosine.")
tanh = _unary("tanh", xp.tanh, lambda F, g, x, y: g * (1.0 - y * y), doc="Hyperbolic tangent.")
arcsinh = _unary("arcsinh", xp.arcsinh, lambda F, g, x, y: g / F.sqrt(x * x + 1.0), doc="Inverse sinh.")
arccosh = _unary("arccosh", xp.arccosh, lambda F, g, x, y: g / F.sqrt(x * x - 1.0), doc="Inverse cosh.")
arctanh = _unary("arctanh", xp.arctanh, lambda F, g, x, y: g / (1.0 - x * x), doc="Inverse tanh.")
reciprocal = _unary("reciprocal", lambda x: 1.0 / x, lambda F, g, x, y: -g * y * y, doc="1 / x.")
erf = _unary(
    "erf", special.erf, lambda F, g, x, y: g * (special.TWO_OVER_SQRT_PI * F.exp(-x * x)), doc="The error function."
)
floor = _unary("floor", xp.floor, doc="Round down; gradient 0.")
ceil = _unary("ceil", xp.ceil, doc="Round up; gradient 0.")

#: the functions the derivatives above call, as ops on Tensors (the ``F`` of graph mode)
_T = types.SimpleNamespace(sign=sign, sqrt=sqrt, exp=exp, sin=sin, cos=cos, sinh=sinh, cosh=cosh)


def _bool_unary(name, fwd, doc):
    def op(x):
        return Tensor(fwd(to_tensor(x).data))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


isnan = _bool_unary("isnan", xp.isnan, "Elementwise NaN test (bool).")
isinf = _bool_unary("isinf", xp.isinf, "Elementwise +-inf test (bool).")
isfinite = _bool_unary("isfinite", xp.isfinite, "Elementwise finiteness test (bool).")
logical_not = _bool_unary("logical_not", xp.logical_not, "Elementwise not (bool).")


def invert(x):
    """~x: logical not for bool tensors, bitwise not for integers."""
    x = to_tensor(x)
    if x.data.dtype in FLOAT_DTYPES:
        raise TypeError(f"~ (invert) needs a bool or integer tensor; received {x.dtype}.")
    return Tensor(xp.invert(x.data))


def round(x, decimals=0):  # noqa: A001 - the contract's name
    """Round half to even, as numpy; integer inputs keep their dtype; gradient 0."""
    x = to_tensor(x)
    if x.data.dtype not in FLOAT_DTYPES and decimals >= 0:
        return x
    return Tensor(xp.round(x.data, decimals))


def clip(x, x_min, x_max):
    """``x`` limited to ``[x_min, x_max]``; the result keeps ``x``'s dtype (bool -> int32).

    The gradient is 1 where ``x_min <= x <= x_max`` (bounds included), else 0, as in JAX.
    """
    x = to_tensor(x)
    if x.dtype == "bool":
        x = to_tensor(x, "int32")
    xd = x.data
    lo = _bound(x_min, xd.dtype)
    hi = _bound(x_max, xd.dtype)
    yd = xp.clip(xd, lo, hi)
    if yd.dtype != xd.dtype:
        yd = yd.astype(xd.dtype)

    def backward(g, out=None):
        inside = xp.ones(xd.shape, xp.bool_) if lo is None else xd >= lo
        if hi is not None:
            inside &= xd <= hi
        # the mask is piecewise constant in x: in graph mode a constant factor, exact almost everywhere
        return (g * (inside if out is None else Tensor(inside)),)

    return record(yd, (x,), backward, (x,), "clip")


def _bound(b, dt):
    if b is None:
        return None
    if isinstance(b, (int, float)) and not isinstance(b, bool):
        return xp.asarray(b).astype(dt)
    return to_tensor(b).data.astype(dt, copy=False)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """NaN and infinities replaced by finite numbers (the dtype's extremes by default); gradient 1
    where ``x`` is finite, 0 elsewhere."""
    x = to_tensor(x)
    xd = x.data
    if xd.dtype not in FLOAT_DTYPES:
        return x
    yd = xp.nan_to_num(xd, nan=nan, posinf=posinf, neginf=neginf)

    def backward(g, out=None):
        finite = xp.isfinite(xd)
        return (g * (finite if out is None else Tensor(finite)),)

    return record(yd, (x,), backward, (x,), "nan_to_num")


def cast(x, dtype):
    """``x`` converted to ``dtype``; differentiable between float dtypes."""
    dt = XP_DTYPES.get(dtype) if dtype.__class__ is str else None  # canonical names skip standardize
    if dt is None:
        dt = xp_dtype(std_dtype(dtype))
    c = x.__class__
    if (c is float or c is int) and dt in FLOAT_DTYPES:  # a Python number straight to a float dtype
        return Tensor(xp.asarray(x, dt))
    x = to_tensor(x)
    xd = x.data
    if xd.dtype == dt:
        return x
    src = xd.dtype

    def backward(g, out=None):
        if out is not None:
            return (cast(g, DTYPE_NAMES[src]),)
        return ((g.real if g.dtype.kind == "c" and src.kind != "c" else g).astype(src),)

    # complex to real keeps the real part (as numpy does, without its warning)
    return record((xd.real if xd.dtype.kind == "c" and dt.kind != "c" else xd).astype(dt), (x,), backward, (), "cast")


# ------------------------------------------------------------------------- binary
def add(x1, x2):
    """x1 + x2."""
    a, b = binary(x1, x2)
    if not (_ag._state.grad_enabled and (a.requires_grad or b.requires_grad)):
        return Tensor(a.data + b.data)  # nothing to record: skip the closure and the node
    sa, sb = a.data.shape, b.data.shape

    def backward(g, out=None):  # the same expressions on arrays and on Tensors
        return (unbroadcast(g, sa) if a.requires_grad else None, unbroadcast(g, sb) if b.requires_grad else None)

    return record(a.data + b.data, (a, b), backward, (), "add")


def subtract(x1, x2):
    """x1 - x2."""
    a, b = binary(x1, x2)
    if not (_ag._state.grad_enabled and (a.requires_grad or b.requires_grad)):
        return Tensor(a.data - b.data)
    sa, sb = a.data.shape, b.data.shape

    def backward(g, out=None):
        return (unbroadcast(g, sa) if a.requires_grad else None, unbroadcast(-g, sb) if b.requires_grad else None)

    return record(a.data - b.data, (a, b), backward, (), "subtract")


def multiply(x1, x2):
    """x1 * x2."""
    a, b = binary(x1, x2)
    ad, bd = a.data, b.data
    if not (_ag._state.grad_enabled and (a.requires_grad or b.requires_grad)):
        return Tensor(ad * bd)

    def backward(g, out=None):
        va, vb = (ad, bd) if out is None else (a, b)
        return (
            unbroadcast(g * vb, ad.shape) if a.requires_grad else None,
            unbroadcast(g * va, bd.shape) if b.requires_grad else None,
        )

    return record(ad * bd, (a, b), backward, (a, b), "multiply")


def divide(x1, x2):
    """x1 / x2 (true division; integers give floatx)."""
    a, b = float_binary(x1, x2)
    ad, bd = a.data, b.data
    yd = ad / bd
    if not (_ag._state.grad_enabled and (a.requires_grad or b.requires_grad)):
        return Tensor(yd)

    def backward(g, out=None):
        vb, vy = (bd, yd) if out is None else (b, out)
        ga = g / vb
        return (
            unbroadcast(ga, ad.shape) if a.requires_grad else None,
            unbroadcast(-ga * vy, bd.shape) if b.requires_grad else None,
        )

    return record(yd, (a, b), backward, (b,), "divide")


def divide_no_nan(x1, x2):
    """x1 / x2 with 0 where x2 == 0 (and a 0 gradient there), as one op instead of the contract's four."""
    a, b = float_binary(x1, x2)
    ad, bd = a.data, b.data
    zero = bd == 0
    safe = xp.where(zero, xp.ones((), bd.dtype), bd)
    yd = xp.where(zero, xp.zeros((), bd.dtype), ad / safe)
    if not (_ag._state.grad_enabled and (a.requires_grad or b.requires_grad)):
        return Tensor(yd)

    def backward(g, out=None):
        if out is None:
            ga = xp.where(zero, xp.zeros((), g.dtype), g) / safe
            vy = yd
        else:
            ga = where(zero, 0.0, g) / where(zero, 1.0, b)
            vy = out
        return (
            unbroadcast(ga, ad.shape) if a.requires_grad else None,
            unbroadcast(-ga * vy, bd.shape) if b.requires_grad else None,
        )

    return record(yd, (a, b), backward, (), "divide_no_nan")


def _arith_binary(x1, x2):
    """:func:`binary`, with bool pairs as int32 (numpy would compute floor_divide/mod/power in int8)."""
    a, b = binary(x1, x2)
    if a.data.dtype == xp.bool_:
        a, b = to_tensor(a, "int32"), to_tensor(b, "int32")
    return a, b


def floor_divide(x1, x2):
    """floor(x1 / x2) with Python's sign rules; integers stay integers; gradient 0."""
    a, b = _arith_binary(x1, x2)
    return Tensor(xp.floor_divide(a.data, b.data))


def mod(x1, x2):
    """x1 - floor(x1 / x2) * x2 (the sign of x2); gradients 1 and -floor(x1 / x2)."""
    a, b = _arith_binary(x1, x2)
    ad, bd = a.data, b.data

    def backward(g, out=None):
        q = xp.floor_divide(ad, bd)  # piecewise constant: a constant factor in graph mode too
        return (
            unbroadcast(g, ad.shape) if a.requires_grad else None,
            unbroadcast(-g * (q if out is None else Tensor(q)), bd.shape) if b.requires_grad else None,
        )

    return record(xp.mod(ad, bd), (a, b), backward, (a, b), "mod")


def power(x1, x2):
    """x1 ** x2."""
    a, b = _arith_binary(x1, x2)
    ad, bd = a.data, b.data
    if ad.dtype not in FLOAT_DTYPES:
        return Tensor(_int_power(ad, bd))
    yd = xp.power(ad, bd)

    def backward(g, out=None):
        ga = gb = None
        if out is None:
            if a.requires_grad:
                # JAX's rule: x2 * x1**(x2 - 1), and 0 where x2 == 0 (so 0**0 has gradient 0)
                ga = unbroadcast(g * xp.where(bd == 0, 0.0, bd * xp.power(ad, bd - 1.0)).astype(g.dtype), ad.shape)
            if b.requires_grad:
                safe = xp.where(ad == 0, 1.0, ad).astype(ad.dtype)
                gb = unbroadcast(g * yd * xp.log(safe), bd.shape)
            return ga, gb
        if a.requires_grad:
            ga = unbroadcast(g * where(bd == 0, 0.0, b * power(a, b - 1.0)), ad.shape)
        if b.requires_grad:
            gb = unbroadcast(g * out * log(where(ad == 0, 1.0, a)), bd.shape)
        return ga, gb

    return record(yd, (a, b), backward, (a, b), "power")


def _int_power(a, b):
    """Integer power where a negative exponent gives 0 (or +-1 for a base of +-1), as JAX does."""
    neg = b < 0
    if not on_gpu and not bool(neg.any()):  # on a GPU the general form: no host read of the exponents
        return xp.power(a, b)
    pos = xp.power(a, xp.where(neg, 0, b).astype(b.dtype))
    odd = (b % 2) != 0
    small = xp.where(a == 1, 1, xp.where(a == -1, xp.where(odd, -1, 1), 0)).astype(pos.dtype)
    return xp.where(neg, small, pos)


def arctan2(x1, x2):
    """The angle of the point (x2, x1), quadrant-aware."""
    a, b = float_binary(x1, x2)
    ad, bd = a.data, b.data

    def backward(g, out=None):
        va, vb = (ad, bd) if out is None else (a, b)
        d = g / (va * va + vb * vb)
        return (
            unbroadcast(d * vb, ad.shape) if a.requires_grad else None,
            unbroadcast(-d * va, bd.shape) if b.requires_grad else None,
        )

    return record(xp.arctan2(ad, bd), (a, b), backward, (a, b), "arctan2")


def _extremum(name, fwd, first_wins):
    def op(x1, x2):
        a, b = binary(x1, x2)
        ad, bd = a.data, b.data
        yd = fwd(ad, bd)

        def backward(g, out=None):
            # ties split the gradient 0.5/0.5 (JAX); NaN goes to the operand that is NaN. The weights are
            # piecewise constant: constant factors in graph mode too
            dt = g.dtype if out is None else g.data.dtype
            wa = first_wins(ad, bd).astype(dt) + (ad == bd) * 0.5
            wa = xp.where(xp.isnan(ad), 1.0, wa).astype(dt)
            if out is not None:
                wa = Tensor(wa)
            return (
                unbroadcast(g * wa, ad.shape) if a.requires_grad else None,
                unbroadcast(g * (1.0 - wa), bd.shape) if b.requires_grad else None,
            )

        return record(yd, (a, b), backward, (a, b), name)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Elementwise {name} (NaN propagates; ties split the gradient evenly)."
    return op


maximum = _extremum("maximum", xp.maximum, lambda a, b: a > b)
minimum = _extremum("minimum", xp.minimum, lambda a, b: a < b)


def logaddexp(x1, x2):
    """log(exp(x1) + exp(x2)) without overflow."""
    a, b = float_binary(x1, x2)
    ad, bd = a.data, b.data
    yd = xp.logaddexp(ad, bd)

    def backward(g, out=None):
        F, va, vb, vy = (xp, ad, bd, yd) if out is None else (_T, a, b, out)
        return (
            unbroadcast(g * F.exp(va - vy), ad.shape) if a.requires_grad else None,
            unbroadcast(g * F.exp(vb - vy), bd.shape) if b.requires_grad else None,
        )

    return record(yd, (a, b), backward, (a, b), "logaddexp")


def _compare(name, fwd, doc):
    def op(x1, x2):
        a, b = binary(x1, x2)
        return Tensor(fwd(a.data, b.data))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


equal = _compare("equal", xp.equal, "x1 == x2 (bool).")
not_equal = _compare("not_equal", xp.not_equal, "x1 != x2 (bool).")
less = _compare("less", xp.less, "x1 < x2 (bool).")
less_equal = _compare("less_equal", xp.less_equal, "x1 <= x2 (bool).")
greater = _compare("greater", xp.greater, "x1 > x2 (bool).")
greater_equal = _compare("greater_equal", xp.greater_equal, "x1 >= x2 (bool).")
bitwise_and = _compare("bitwise_and", xp.bitwise_and, "x1 & x2 (bool or integer).")
bitwise_or = _compare("bitwise_or", xp.bitwise_or, "x1 | x2 (bool or integer).")
bitwise_xor = _compare("bitwise_xor", xp.bitwise_xor, "x1 ^ x2 (bool or integer).")


def _logical(name, fwd, doc):
    def op(x1, x2):
        return Tensor(fwd(to_tensor(x1).data, to_tensor(x2).data))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


logical_and = _logical("logical_and", xp.logical_and, "Elementwise and (bool).")
logical_or = _logical("logical_or", xp.logical_or, "Elementwise or (bool).")
logical_xor = _logical("logical_xor", xp.logical_xor, "Elementwise xor (bool).")


def where(condition, x1=None, x2=None):
    """``x1`` where ``condition`` else ``x2`` (broadcast; the two promoted); differentiable in both.

    With only ``condition``, returns the indices of its true entries (a tuple of int32 tensors).
    """
    c = to_tensor(condition).data
    if c.dtype != xp.bool_:
        c = c.astype(xp.bool_)
    if x1 is None and x2 is None:
        return tuple(Tensor(i.astype(xp.int32)) for i in xp.nonzero(c))
    if x1 is None or x2 is None:
        raise ValueError("where needs both x1 and x2, or neither (to get the indices of true entries).")
    (a, b), _ = promote([x1, x2])
    ad, bd = a.data, b.data
    yd = xp.where(c, ad, bd)

    def backward(g, out=None):
        if out is None:
            zero = xp.zeros((), g.dtype)
            return (
                unbroadcast(xp.where(c, g, zero), ad.shape) if a.requires_grad else None,
                unbroadcast(xp.where(c, zero, g), bd.shape) if b.requires_grad else None,
            )
        return (
            unbroadcast(where(c, g, 0.0), ad.shape) if a.requires_grad else None,
            unbroadcast(where(c, 0.0, g), bd.shape) if b.requires_grad else None,
        )

    return record(yd, (a, b), backward, (), "where")
