"""Squashing and smooth activations: sigmoid, hard_sigmoid, log_sigmoid, tanh, hard_tanh, softplus,
softsign, exponential, linear.

>>> import highlevel as hl
>>> hl.ops.convert_to_numpy(hard_sigmoid(hl.ops.convert_to_tensor([-6.0, 0.0, 6.0]))).tolist()
[0.0, 0.5, 1.0]
"""

from highlevel import ops


def sigmoid(x):
    """Applies the logistic sigmoid ``1 / (1 + exp(-x))``, elementwise.

    The result lies in ``(0, 1)``.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.sigmoid(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.1192 0.3775 0.5    0.6225 0.8808]
    """
    return ops.sigmoid(x)


def hard_sigmoid(x):
    """Applies a piecewise-linear approximation of the sigmoid, elementwise.

    ``hard_sigmoid(x) = clip(x / 6 + 0.5, 0, 1)``.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.hard_sigmoid(hl.ops.convert_to_tensor([-4.0, -1.5, 0.0, 1.5, 4.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.   0.25 0.5  0.75 1.  ]
    """
    return ops.hard_sigmoid(x)


def log_sigmoid(x):
    """Applies the logarithm of the sigmoid, elementwise.

    ``log_sigmoid(x) = log(sigmoid(x)) = -softplus(-x)``, computed without overflow for large ``|x|``.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.log_sigmoid(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-2.1269 -0.9741 -0.6931 -0.4741 -0.1269]
    """
    return ops.log_sigmoid(x)


def tanh(x):
    """Applies the hyperbolic tangent, elementwise.

    The result lies in ``(-1, 1)``.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.tanh(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.964  -0.4621  0.      0.4621  0.964 ]
    """
    return ops.tanh(x)


def hard_tanh(x):
    """Applies the hard hyperbolic tangent ``clip(x, -1, 1)``, elementwise.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.hard_tanh(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-1.  -0.5  0.   0.5  1. ]
    """
    return ops.hard_tanh(x)


def softplus(x):
    """Applies the softplus function ``log(1 + exp(x))``, elementwise.

    A smooth approximation of ``relu`` with positive values.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.softplus(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.1269 0.4741 0.6931 0.9741 2.1269]
    """
    return ops.softplus(x)


def softsign(x):
    """Applies the softsign function ``x / (1 + |x|)``, elementwise.

    The result lies in ``(-1, 1)``.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.softsign(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.6667 -0.3333  0.      0.3333  0.6667]
    """
    return ops.softsign(x)


def exponential(x):
    """Applies the exponential function ``exp(x)``, elementwise.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.exponential(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0.1353 0.6065 1.     1.6487 7.3891]
    """
    return ops.exp(x)


def linear(x):
    """Returns ``x`` unchanged: the identity activation (what ``activation=None`` means).

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        ``x`` itself.

    >>> import highlevel as hl
    >>> y = hl.activations.linear(hl.ops.convert_to_tensor([-2.0, 0.0, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-2.  0.  2.]
    """
    return x
