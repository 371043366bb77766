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


def erfc(x):
    """Returns the complementary error function ``1 - erf(x)``, elementwise.

    Accurate where it is tiny: for large ``x`` it keeps the digits that ``1 - erf(x)`` would lose.

    Args:
        x: a tensor; integer and bool inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``; differentiable (``-2/sqrt(pi) exp(-x**2)``).

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.erfc(hl.ops.convert_to_tensor(5.0, dtype='float64')))):.6e}")
    1.537460e-12
    """
    return _door.call("erfc", x)


def erfinv(x):
    """Returns the inverse error function, elementwise: ``y`` such that ``erf(y) == x``.

    Args:
        x: a tensor of values in ``[-1, 1]`` (``+-1`` give ``+-inf``, values outside give NaN); integer and bool
            inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``; differentiable (``sqrt(pi)/2 exp(erfinv(x)**2)``).

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.erfinv(0.5))):.5f}")
    0.47694
    """
    return _door.call("erfinv", x)


__all__ += ["erfc", "erfinv"]
