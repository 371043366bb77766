"""Special functions numpy lacks, written once on ``xp``: the error function, its complement and its inverse.

numpy has no ``erf`` and highlevel depends on numpy alone (no scipy), so this is Cephes' rational
approximation (S. L. Moshier, public domain; the one scipy compiles), evaluated in float64 and cast back.

>>> import numpy as np
>>> round(float(erf(np.array(0.5))), 12)
0.520499877813
"""

import math

from .xp import xp

_T = (
    9.60497373987051638749e0,
    9.00260197203842689217e1,
    2.23200534594684319226e3,
    7.00332514112805075473e3,
    5.55923013010394962768e4,
)
_U = (
    1.0,
    3.35617141647503099647e1,
    5.21357949780152679795e2,
    4.59432382970980127987e3,
    2.26290000613890934246e4,
    4.92673942608635921086e4,
)
_P = (
    2.46196981473530512524e-10,
    5.64189564831068821977e-1,
    7.46321056442269912687e0,
    4.86371970985681366614e1,
    1.96520832956077098242e2,
    5.26445194995477358631e2,
    9.34528527171957607540e2,
    1.02755188689515710272e3,
    5.57535335369399327526e2,
)
_Q = (
    1.0,
    1.32281951154744992508e1,
    8.67072140885989742329e1,
    3.54937778887819891062e2,
    9.75708501743205489753e2,
    1.82390916687909736289e3,
    2.24633760818710981792e3,
    1.65666309194161350182e3,
    5.57535340817727675546e2,
)
_R = (
    5.64189583547755073984e-1,
    1.27536670759978104416e0,
    5.01905042251180477414e0,
    6.16021097993053585195e0,
    7.40974269950448939160e0,
    2.97886665372100240670e0,
)
_S = (
    1.0,
    2.26052863220117276590e0,
    9.39603524938001434673e0,
    1.20489539808096656605e1,
    1.70814450747565897222e1,
    9.60896809063285878198e0,
    3.36907645100081516050e0,
)

#: 2 / sqrt(pi), the derivative of erf at 0
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _polyval(coefs, x):
    out = xp.full_like(x, coefs[0])
    for c in coefs[1:]:
        out = out * x + c
    return out


def erf(x):
    """The error function of the float array ``x``, accurate to float64 rounding; keeps ``x``'s dtype."""
    dt = x.dtype
    x64 = x.astype(xp.float64)
    ax = xp.abs(x64)
    small = ax <= 1.0
    z = x64 * x64
    inner = x64 * _polyval(_T, z) / _polyval(_U, z)
    # |x| > 1: erf = 1 - erfc(|x|), with erfc = exp(-x^2) P(|x|)/Q(|x|) (R/S beyond 8)
    axc = xp.minimum(ax, 30.0)  # erfc underflows to 0 long before 30; keeps exp finite
    mid = ax < 8.0
    ratio = xp.where(mid, _polyval(_P, axc) / _polyval(_Q, axc), _polyval(_R, axc) / _polyval(_S, axc))
    erfc = xp.exp(-axc * axc) * ratio
    outer = xp.copysign(1.0 - erfc, x64)
    out = xp.where(small, inner, outer)
    out = xp.where(xp.isnan(x64), x64, out)
    return out.astype(dt, copy=False)


def _erfc64(x64):
    """erfc of a float64 array (the complement of :func:`erf`'s pieces, without its cancellation)."""
    ax = xp.abs(x64)
    xi = xp.clip(x64, -1.0, 1.0)  # the inner piece's range (keeps the other entries finite)
    z = xi * xi
    inner = 1.0 - xi * _polyval(_T, z) / _polyval(_U, z)
    axc = xp.minimum(ax, 30.0)
    ratio = xp.where(axc < 8.0, _polyval(_P, axc) / _polyval(_Q, axc), _polyval(_R, axc) / _polyval(_S, axc))
    tail = xp.exp(-axc * axc) * ratio
    outer = xp.where(x64 < 0, 2.0 - tail, tail)
    out = xp.where(ax <= 1.0, inner, outer)
    return xp.where(xp.isnan(x64), x64, out)


def erfc(x):
    """The complementary error function ``1 - erf(x)`` of the float array ``x``, accurate to float64 rounding
    where it is tiny (``erfc(10)`` is 2e-45, not 0); keeps ``x``'s dtype.

    >>> import numpy as np
    >>> float(erfc(np.array(5.0)))
    1.537459794428035e-12
    """
    return _erfc64(x.astype(xp.float64)).astype(x.dtype, copy=False)


#: sqrt(pi) / 2, the derivative of erfinv at 0
SQRT_PI_OVER_2 = math.sqrt(math.pi) / 2.0


def erfinv(y):
    """The inverse error function of the float array ``y`` (+-inf at +-1, NaN outside [-1, 1]); keeps its dtype.

    Winitzki's closed-form approximation (relative error below 2e-3) refined by three Halley steps on
    ``erf(x) = |y|``, in float64: the residual of ``|y| > 0.5`` is taken as ``erfc(x) - (1 - |y|)``, whose
    ``1 - |y|`` is exact, so the tails keep full precision.

    >>> import numpy as np
    >>> round(float(erfinv(np.array(0.5))), 12)
    0.476936276204
    """
    y64 = y.astype(xp.float64)
    t = xp.abs(y64)
    inside = t < 1.0
    tc = xp.where(inside, t, 0.5)
    w = -xp.log((1.0 - tc) * (1.0 + tc))
    a = 0.147
    b = 2.0 / (math.pi * a) - 0.5 * w
    x = xp.sqrt(xp.sqrt(b * b + w / a) - b)
    upper = tc > 0.5
    rest = 1.0 - tc  # exact for tc in [0.5, 1]
    for _ in range(3):
        f = xp.where(upper, rest - _erfc64(x), erf(x) - tc)
        slope = TWO_OVER_SQRT_PI * xp.exp(-x * x)
        x = x - f / (slope + x * f)
    out = xp.where(inside, x, xp.where(t == 1.0, xp.inf, xp.nan))
    out = xp.where(xp.isnan(y64), y64, xp.copysign(out, y64))
    return out.astype(y.dtype, copy=False)
