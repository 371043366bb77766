"""Thresholding and piecewise activations: soft_shrink, hard_shrink, tanh_shrink, threshold,
sparse_plus, sparse_sigmoid, squareplus.

>>> import highlevel as hl
>>> x = hl.ops.convert_to_tensor([-1.0, 0.25, 1.0])
>>> hl.ops.convert_to_numpy(soft_shrink(x)).tolist()
[-0.5, 0.0, 0.5]
"""

from highlevel import ops


def soft_shrink(x, threshold=0.5):
    """``x - threshold`` above ``threshold``, ``x + threshold`` below ``-threshold``, else 0."""
    x = ops.convert_to_tensor(x)
    return ops.where(ops.greater(x, threshold), ops.subtract(x, threshold),
                     ops.where(ops.less(x, -threshold), ops.add(x, threshold), ops.zeros_like(x)))


def hard_shrink(x, threshold=0.5):
    """``x`` where ``|x| > threshold``, else 0."""
    x = ops.convert_to_tensor(x)
    return ops.where(ops.greater(ops.abs(x), threshold), x, ops.zeros_like(x))


def tanh_shrink(x):
    """``x - tanh(x)``."""
    x = ops.convert_to_tensor(x)
    return ops.subtract(x, ops.tanh(x))


def threshold(x, threshold, default_value):
    """``x`` where ``x > threshold``, else ``default_value``."""
    x = ops.convert_to_tensor(x)
    return ops.where(ops.greater(x, threshold), x, ops.full_like(x, default_value))


def sparse_plus(x):
    """0 for ``x <= -1``, ``(x + 1)**2 / 4`` for ``-1 < x < 1``, ``x`` for ``x >= 1``."""
    x = ops.convert_to_tensor(x)
    middle = ops.multiply(0.25, ops.square(ops.add(x, 1.0)))
    return ops.where(ops.less_equal(x, -1.0), ops.zeros_like(middle),
                     ops.where(ops.less(x, 1.0), middle, ops.cast(x, ops.dtype(middle))))


def sparse_sigmoid(x):
    """0 for ``x <= -1``, 1 for ``x >= 1``, ``(x + 1) / 2`` in between."""
    x = ops.convert_to_tensor(x)
    middle = ops.multiply(0.5, ops.add(x, 1.0))
    return ops.where(ops.less_equal(x, -1.0), ops.zeros_like(middle),
                     ops.where(ops.greater_equal(x, 1.0), ops.ones_like(middle), middle))


def squareplus(x, b=4):
    """``(x + sqrt(x**2 + b)) / 2``, a smooth softplus-like curve."""
    x = ops.convert_to_tensor(x)
    return ops.divide(ops.add(x, ops.sqrt(ops.add(ops.square(x), b))), 2.0)
