"""Rectifiers: relu (with Keras' slope, cap and threshold options), relu6, leaky_relu, elu, selu, celu.

>>> import highlevel as hl
>>> x = hl.ops.convert_to_tensor([-10.0, -1.0, 0.5, 10.0])
>>> hl.ops.convert_to_numpy(relu(x)).tolist()
[0.0, 0.0, 0.5, 10.0]
>>> hl.ops.convert_to_numpy(relu(x, negative_slope=0.5, max_value=5.0)).tolist()
[-5.0, -0.5, 0.5, 5.0]
"""

from highlevel import ops


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """Applies the rectified linear unit, with Keras's options, elementwise.

    With the defaults, ``max(x, 0)``. Otherwise: ``x`` where ``x > threshold`` (else 0), capped at ``max_value``,
    minus ``negative_slope * relu(threshold - x)`` (so below the threshold the slope is ``negative_slope``).

    Args:
        x: the input tensor (or anything convertible to one).
        negative_slope: the slope below the threshold (default 0.0).
        max_value: the saturation value (default None: no cap).
        threshold: values at or below it are rectified (default 0.0).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([-2.0, 0.5, 3.0, 10.0])
    >>> print(hl.ops.convert_to_numpy(hl.activations.relu(x)))
    [ 0.   0.5  3.  10. ]
    >>> print(hl.ops.convert_to_numpy(hl.activations.relu(x, negative_slope=0.5, max_value=6.0)))
    [-1.   0.5  3.   6. ]
    """
    x = ops.convert_to_tensor(x)
    if negative_slope != 0.0:
        if max_value is None and threshold == 0:
            return ops.leaky_relu(x, negative_slope=negative_slope)
        # Computed before x is rectified: the part of the input below the threshold.
        negative_part = ops.relu(ops.add(ops.negative(x), threshold) if threshold != 0 else ops.negative(x))
    clip_max = max_value is not None
    if threshold != 0:
        x = ops.where(ops.greater(x, threshold), x, 0)
    elif max_value == 6:
        x = ops.relu6(x)
        clip_max = False
    else:
        x = ops.relu(x)
    if clip_max:
        x = ops.clip(x, 0.0, max_value)
    if negative_slope != 0.0:
        x = ops.subtract(x, ops.multiply(negative_slope, negative_part))
    return x


def relu6(x):
    """Applies the rectified linear unit capped at 6: ``min(max(x, 0), 6)``, elementwise.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.relu6(hl.ops.convert_to_tensor([-1.0, 3.0, 8.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [0. 3. 6.]
    """
    return ops.relu6(x)


def leaky_relu(x, negative_slope=0.2):
    """Applies the leaky rectified linear unit, elementwise.

    ``leaky_relu(x) = x`` for ``x >= 0`` and ``negative_slope * x`` otherwise.

    Args:
        x: the input tensor (or anything convertible to one).
        negative_slope: the slope for negative inputs (default 0.2).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.leaky_relu(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]), negative_slope=0.1)
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.2  -0.05  0.    0.5   2.  ]
    """
    return ops.leaky_relu(x, negative_slope=negative_slope)


def elu(x, alpha=1.0):
    """Applies the exponential linear unit, elementwise.

    ``elu(x) = x`` for ``x > 0`` and ``alpha * (exp(x) - 1)`` otherwise.

    Args:
        x: the input tensor (or anything convertible to one).
        alpha: the scale of the negative part (default 1.0).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.elu(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.8647 -0.3935  0.      0.5     2.    ]
    """
    return ops.elu(x, alpha=alpha)


def selu(x):
    """Applies the scaled exponential linear unit, elementwise.

    ``selu(x) = scale * elu(x, alpha)`` with ``alpha = 1.67326...`` and ``scale = 1.05070...``, the constants that keep
    activations normalized through a stack of ``lecun_normal``-initialized layers.

    Args:
        x: the input tensor (or anything convertible to one).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.selu(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-1.5202 -0.6918  0.      0.5254  2.1014]
    """
    return ops.selu(x)


def celu(x, alpha=1.0):
    """Applies the continuously differentiable exponential linear unit, elementwise.

    ``celu(x) = max(x, 0) + alpha * (exp(min(x, 0) / alpha) - 1)``: like :func:`elu`, with a derivative that is
    continuous at 0 for every ``alpha``.

    Args:
        x: the input tensor (or anything convertible to one).
        alpha: the scale of the negative part (default 1.0).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype.

    >>> import highlevel as hl
    >>> y = hl.activations.celu(hl.ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.8647 -0.3935  0.      0.5     2.    ]
    """
    return ops.celu(x, alpha=alpha)
