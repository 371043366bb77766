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
    return ops.soft_shrink(x, threshold=threshold)


def hard_shrink(x, threshold=0.5):
    """``x`` where ``|x| > threshold``, else 0."""
    return ops.hard_shrink(x, threshold=threshold)


def tanh_shrink(x):
    """``x - tanh(x)``."""
    return ops.tanh_shrink(x)


def threshold(x, threshold, default_value):
    """``x`` where ``x > threshold``, else ``default_value``."""
    return ops.threshold(x, threshold, default_value)


def sparse_plus(x):
    """0 for ``x <= -1``, ``(x + 1)**2 / 4`` for ``-1 < x < 1``, ``x`` for ``x >= 1``."""
    return ops.sparse_plus(x)


def sparse_sigmoid(x):
    """0 for ``x <= -1``, 1 for ``x >= 1``, ``(x + 1) / 2`` in between."""
    return ops.sparse_sigmoid(x)


def squareplus(x, b=4):
    """``(x + sqrt(x**2 + b)) / 2``, a smooth softplus-like curve."""
    return ops.squareplus(x, b=b)
