"""Activations, softmax and moments of the native engine (convolution and pooling live in spatial.py).

Activations get a fused VJP (one node each, computed from saved forward values) because they sit in
every layer and a chain of primitives would cost several nodes per call. Everything is written to stay
finite for inputs of +-1e4: sigmoid from ``exp(-|x|)``, softplus as ``max(x, 0) + log1p(exp(-|x|))``,
softmax and log_softmax shifted by the maximum.

>>> from highlevel.backends.native.tensor import Tensor
>>> softmax(Tensor([1e4, 0.0])).numpy().tolist()
[1.0, 0.0]
"""

import math

from highlevel.backends.contract.axes import canonical_axes

from . import ops_math as _math
from .autograd import record
from .convert import like, to_float, to_tensor
from .ops_reduce import mean, var
from .tensor import Tensor
from .xp import on_gpu, xp

if on_gpu:
    from . import gpu_kernels

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_INV_SQRT_2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _sigmoid(xd):
    e = xp.exp(-xp.abs(xd))
    return xp.where(xd >= 0, 1.0 / (1.0 + e), e / (1.0 + e)).astype(xd.dtype, copy=False)


def _mask(m):
    """A bool mask as a constant Tensor: the derivative of a piecewise-linear activation in graph mode."""
    return Tensor(m)


def relu(x):
    """max(x, 0) (NaN propagates); gradient 0 at 0. Integers keep their dtype (bool gives int32)."""
    x = to_tensor(x)
    if x.dtype == "bool":
        x = to_tensor(x, "int32")
    xd = x.data
    fused = on_gpu and xd.dtype in gpu_kernels.FUSED_DTYPES

    def backward(g, out=None):
        if out is not None:
            return (g * _mask(xd > 0),)  # piecewise linear: the second derivative is 0 off the kink
        return (gpu_kernels.relu_grad(g, xd) if fused else g * (xd > 0),)

    # a Python 0 is weak for numpy: the result keeps xd's dtype without allocating a typed zero
    return record(like(xp.maximum(xd, 0), xd.dtype), (x,), backward, (x,), "relu")


def relu6(x):
    """min(max(x, 0), 6); gradient 1 strictly between 0 and 6."""
    x = to_float(x)
    xd = x.data

    def backward(g, out=None):
        inside = (xd > 0) & (xd < 6)
        return (g * (inside if out is None else _mask(inside)),)

    # one pass (clip) rather than two (maximum, then minimum): 3x faster on MobileNet's activations
    return record(like(xp.clip(xd, 0.0, 6.0), xd.dtype), (x,), backward, (x,), "relu6")


def sigmoid(x):
    """1 / (1 + exp(-x)), stable for large |x|."""
    x = to_float(x)
    yd = _sigmoid(x.data)

    def backward(g, out=None):
        y = yd if out is None else out
        return (g * y * (1.0 - y),)

    return record(yd, (x,), backward, (x,), "sigmoid")


def softplus(x):
    """log(1 + exp(x)), stable for large |x|."""
    x = to_float(x)
    xd = x.data
    yd = xp.maximum(xd, 0.0) + xp.log1p(xp.exp(-xp.abs(xd)))

    def backward(g, out=None):
        return (g * (_sigmoid(xd) if out is None else sigmoid(x)),)

    return record(like(yd, xd.dtype), (x,), backward, (x,), "softplus")


def softsign(x):
    """x / (1 + |x|)."""
    x = to_float(x)
    xd = x.data
    d = 1.0 + xp.abs(xd)

    def backward(g, out=None):
        dd = d if out is None else 1.0 + _math.abs(x)
        return (g / (dd * dd),)

    return record(like(xd / d, xd.dtype), (x,), backward, (x,), "softsign")


def silu(x):
    """x * sigmoid(x) (swish)."""
    x = to_float(x)
    xd = x.data
    s = _sigmoid(xd)

    def backward(g, out=None):
        vx, vs = (xd, s) if out is None else (x, sigmoid(x))
        return (g * (vs * (1.0 + vx * (1.0 - vs))),)

    return record(like(xd * s, xd.dtype), (x,), backward, (x,), "silu")


def gelu(x, approximate=True):
    """Gaussian error linear unit; the tanh approximation when ``approximate``."""
    x = to_float(x)
    xd = x.data
    if approximate:
        inner = _SQRT_2_OVER_PI * (xd + 0.044715 * xd * xd * xd)
        t = xp.tanh(inner)
        yd = 0.5 * xd * (1.0 + t)

        def backward(g, out=None):
            vx = xd if out is None else x
            vt = t if out is None else _math.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x * x * x))
            dinner = _SQRT_2_OVER_PI * (1.0 + 3.0 * 0.044715 * vx * vx)
            return (g * (0.5 * (1.0 + vt) + 0.5 * vx * (1.0 - vt * vt) * dinner),)
    else:
        from .special import erf

        cdf = 0.5 * (1.0 + erf(xd * _INV_SQRT_2))
        yd = xd * cdf

        def backward(g, out=None):
            if out is None:
                return (g * (cdf + xd * _INV_SQRT_2PI * xp.exp(-0.5 * xd * xd)),)
            vcdf = 0.5 * (1.0 + _math.erf(x * _INV_SQRT_2))
            return (g * (vcdf + x * _INV_SQRT_2PI * _math.exp(-0.5 * x * x)),)

    return record(like(yd, xd.dtype), (x,), backward, (x,), "gelu")


def elu(x, alpha=1.0):
    """x if x > 0 else alpha * (exp(x) - 1)."""
    x = to_float(x)
    xd = x.data
    alpha = float(alpha)
    pos = xd > 0
    yd = xp.where(pos, xd, alpha * xp.expm1(xp.minimum(xd, 0.0)))

    def backward(g, out=None):
        if out is None:
            return (xp.where(pos, g, g * (alpha * xp.exp(xp.minimum(xd, 0.0)))),)
        return (_math.where(pos, g, g * (alpha * _math.exp(_math.minimum(x, 0.0)))),)

    return record(like(yd, xd.dtype), (x,), backward, (x,), "elu")


def selu(x):
    """scale * elu(x, alpha) with the self-normalising constants."""
    from .ops_math import multiply

    return multiply(elu(x, _SELU_ALPHA), _SELU_SCALE)


def leaky_relu(x, negative_slope=0.2):
    """x if x >= 0 else negative_slope * x."""
    x = to_float(x)
    xd = x.data
    slope = float(negative_slope)
    pos = xd >= 0

    def backward(g, out=None):
        return ((xp.where if out is None else _math.where)(pos, g, g * slope),)

    return record(like(xp.where(pos, xd, xd * slope), xd.dtype), (x,), backward, (x,), "leaky_relu")


def hard_sigmoid(x):
    """clip(x / 6 + 0.5, 0, 1) (Keras 3); gradient 1/6 strictly between -3 and 3, as JAX and torch."""
    x = to_float(x)
    xd = x.data
    yd = xp.clip(xd * (1.0 / 6.0) + 0.5, 0.0, 1.0)

    def backward(g, out=None):
        inside = (xd > -3.0) & (xd < 3.0)
        return (g * (1.0 / 6.0) * (inside if out is None else _mask(inside)),)

    return record(like(yd, xd.dtype), (x,), backward, (x,), "hard_sigmoid")


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along ``axis`` (an int or a tuple), finite for inputs of +-1e4."""
    x = to_float(x)
    xd = x.data
    axes = canonical_axes(axis, xd.ndim) if xd.ndim else None
    m = xd.max(axis=axes, keepdims=True)
    e = xp.exp(xd - xp.where(xp.isfinite(m), m, 0.0).astype(xd.dtype, copy=False))
    yd = e / e.sum(axis=axes, keepdims=True)

    def backward(g, out=None):  # the same expression on arrays and on Tensors
        y = yd if out is None else out
        gy = g * y
        return (gy - y * gy.sum(axis=axes, keepdims=True),)

    return record(like(yd, xd.dtype), (x,), backward, (x,), "softmax")


def log_softmax(x, axis=-1):
    """x - logsumexp(x) along ``axis``, finite for inputs of +-1e4."""
    x = to_float(x)
    xd = x.data
    axes = canonical_axes(axis, xd.ndim) if xd.ndim else None
    m = xd.max(axis=axes, keepdims=True)
    shifted = xd - xp.where(xp.isfinite(m), m, 0.0).astype(xd.dtype, copy=False)
    yd = shifted - xp.log(xp.exp(shifted).sum(axis=axes, keepdims=True))

    def backward(g, out=None):
        e = xp.exp(yd) if out is None else _math.exp(out)
        return (g - e * g.sum(axis=axes, keepdims=True),)

    return record(like(yd, xd.dtype), (x,), backward, (x,), "log_softmax")


def moments(x, axes, keepdims=False):
    """``(mean, variance)`` over ``axes`` (float16/bfloat16 computed in float32, cast back)."""
    from .ops_math import cast

    x = to_float(x)
    dt = x.dtype
    if dt in ("float16", "bfloat16"):
        xc = cast(x, "float32")
        return cast(mean(xc, axes, keepdims), dt), cast(var(xc, axes, keepdims), dt)
    return mean(x, axes, keepdims), var(x, axes, keepdims)
