"""Self-gated activations, ``x`` times a gate computed from ``x``: silu (swish), gelu, hard_silu
(hard_swish), mish and glu.

>>> import highlevel as hl
>>> x = hl.ops.convert_to_tensor([-4.0, 0.0, 4.0])
>>> hl.ops.convert_to_numpy(hard_silu(x)).tolist()
[-0.0, 0.0, 4.0]
"""

from highlevel import ops


def silu(x):
    """Applies the sigmoid linear unit ``x * sigmoid(x)`` (also called swish), elementwise.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.silu(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.2384 -0.1888  0.      0.3112  1.7616]
    """
    return ops.silu(x)


swish = silu


def gelu(x, approximate=False):
    """Applies the Gaussian error linear unit, elementwise.

    ``gelu(x) = x * Phi(x)``, with ``Phi`` the standard normal distribution function: exact (with erf) by default, or
    the tanh approximation when ``approximate=True``.

    Args:
        x: the input tensor (or anything convertible to one).
        approximate: whether to use the tanh approximation (default False).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.gelu(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.0455 -0.1543  0.      0.3457  1.9545]
    """
    return ops.gelu(x, approximate=approximate)


def hard_silu(x):
    """Applies the hard SiLU (hard swish), elementwise.

    ``hard_silu(x) = x * hard_sigmoid(x)``, a cheap piecewise approximation of ``silu``.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.hard_silu(hl.ops.convert_to_tensor([-4.0, -1.5, 0.0, 1.5, 4.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.    -0.375  0.     1.125  4.   ]
    """
    return ops.hard_silu(x)


hard_swish = hard_silu


def mish(x):
    """Applies the mish activation ``x * tanh(softplus(x))``, elementwise.

    A smooth, non-monotonic function close to ``silu``.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.mish(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.2525 -0.2207  0.      0.3752  1.944 ]
    """
    x = ops.convert_to_tensor(x)
    return ops.multiply(x, ops.tanh(ops.softplus(x)))


def glu(x, axis=-1):
    """Applies the gated linear unit: one half of ``x`` gated by the sigmoid of the other.

    ``x`` is split in two halves ``a`` and ``b`` along ``axis``; the result is ``a * sigmoid(b)``.

    Args:
        x: the input tensor (or anything convertible to one).
        axis: the axis to split, whose size must be even (default -1).

    Returns:
        A tensor of the shape of ``x`` with ``axis`` halved.

    >>> import highlevel as hl
    >>> y = hl.activations.glu(hl.ops.convert_to_tensor([[1.0, 2.0, 0.0, 100.0]]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [[0.5 2. ]]
    """
    return ops.glu(x, axis=axis)
