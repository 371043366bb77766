"""Thresholding and piecewise activations: soft_shrink, hard_shrink, tanh_shrink, threshold,
sparse_plus, sparse_sigmoid, squareplus.

>>> import highlevel as hl
>>> x = hl.ops.convert_to_tensor([-1.0, 0.25, 1.0])
>>> hl.ops.convert_to_numpy(soft_shrink(x)).tolist()
[-0.5, 0.0, 0.5]
"""

from highlevel import ops


def soft_shrink(x, threshold=0.5):
    """Applies the soft shrinkage function, elementwise: values move toward 0 by ``threshold``.

    ``x - threshold`` above ``threshold``, ``x + threshold`` below ``-threshold``, 0 in between.

    Args:
        x: the input tensor (or anything convertible to one).
        threshold: the amount of shrinkage (default 0.5).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.soft_shrink(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-1.5  0.   0.   0.   1.5]
    """
    return ops.soft_shrink(x, threshold=threshold)


def hard_shrink(x, threshold=0.5):
    """Applies the hard shrinkage function, elementwise: small values become 0.

    ``hard_shrink(x) = x`` where ``|x| > threshold``, else 0.

    Args:
        x: the input tensor (or anything convertible to one).
        threshold: the magnitude at or below which values become 0 (default 0.5).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.hard_shrink(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-2.  0.  0.  0.  2.]
    """
    return ops.hard_shrink(x, threshold=threshold)


def tanh_shrink(x):
    """Applies the tanh shrinkage function ``x - tanh(x)``, elementwise.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.tanh_shrink(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-1.036  -0.0379  0.      0.0379  1.036 ]
    """
    return ops.tanh_shrink(x)


def threshold(x, threshold, default_value):
    """Replaces the entries of ``x`` at or below a threshold with a default value, elementwise.

    ``threshold(x) = x`` where ``x > threshold``, else ``default_value``.

    Args:
        x: the input tensor (or anything convertible to one).
        threshold: the threshold value.
        default_value: the value of the entries at or below it.

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0])
    >>> y = hl.activations.threshold(x, threshold=0.0, default_value=-1.0)
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-1.  -1.  -1.   0.5  2. ]
    """
    return ops.threshold(x, threshold, default_value)


def sparse_plus(x):
    """Applies the sparse plus function, elementwise: a smooth ``relu`` with exact zeros.

    0 for ``x <= -1``, ``(x + 1)**2 / 4`` for ``-1 < x < 1``, and ``x`` for ``x >= 1``.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.sparse_plus(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.     0.0625 0.25   0.5625 2.    ]
    """
    return ops.sparse_plus(x)


def sparse_sigmoid(x):
    """Applies the sparse sigmoid, elementwise: a piecewise-linear sigmoid with exact 0 and 1.

    0 for ``x <= -1``, 1 for ``x >= 1`` and ``(x + 1) / 2`` in between.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.sparse_sigmoid(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.   0.25 0.5  0.75 1.  ]
    """
    return ops.sparse_sigmoid(x)


def squareplus(x, b=4):
    """Applies the squareplus function ``(x + sqrt(x**2 + b)) / 2``, elementwise.

    A smooth, softplus-like curve computed with a square root only.

    Args:
        x: the input tensor (or anything convertible to one).
        b: a non-negative constant that sets the curvature near 0 (default 4).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.squareplus(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.4142 0.7808 1.     1.2808 2.4142]
    """
    return ops.squareplus(x, b=b)
