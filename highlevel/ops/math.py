"""The ``keras.ops`` math ops that live at the top level of ``hl.ops`` (``logsumexp``, ``top_k``, ``erf``, ...).

>>> import highlevel as hl
>>> round(float(hl.ops.convert_to_numpy(hl.ops.logsumexp(hl.ops.convert_to_tensor([0.0, 0.0])))), 4)
0.6931
"""

from . import _args, _door


def rsqrt(x):
    """1 / sqrt(x)."""
    return _door.call('rsqrt', x)


def erf(x):
    """The error function."""
    return _door.call('erf', x)


def logsumexp(x, axis=None, keepdims=False):
    """The log(sum(exp(x))) computed stably (finite for inputs of +-1e4) over ``axis`` (int, tuple or None for all)."""
    return _door.call("logsumexp", x, axis=_args.axes(axis, _args.ndim_of(x), "logsumexp"), keepdims=bool(keepdims))


def top_k(x, k, sorted=True):
    """``(values, indices)`` of the ``k`` largest entries along the last axis; indices int32."""
    return _door.call("top_k", x, _args.positive_int(k, "k", "top_k", minimum=0), sorted=bool(sorted))


__all__ = ['rsqrt', 'erf', 'logsumexp', 'top_k']
