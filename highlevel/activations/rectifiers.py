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
    """Rectified linear unit, with Keras' options.

    With the defaults, ``max(x, 0)``. Otherwise: ``x`` where ``x > threshold`` (else 0), capped at
    ``max_value``, minus ``negative_slope * relu(threshold - x)`` (so below the threshold the slope is
    ``negative_slope``).

    Args:
        x: the input.
        negative_slope: the slope below the threshold.
        max_value: the saturation value (None: no cap).
        threshold: values at or below it are rectified.
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
    """``min(max(x, 0), 6)``."""
    return ops.relu6(x)


def leaky_relu(x, negative_slope=0.2):
    """``x`` where ``x >= 0``, else ``negative_slope * x``."""
    return ops.leaky_relu(x, negative_slope=negative_slope)


def elu(x, alpha=1.0):
    """Exponential linear unit: ``x`` where ``x > 0``, else ``alpha * (exp(x) - 1)``."""
    return ops.elu(x, alpha=alpha)


def selu(x):
    """Scaled ELU: ``1.0507... * elu(x, 1.6732...)`` (the self-normalizing constants)."""
    return ops.selu(x)


def celu(x, alpha=1.0):
    """Continuously differentiable ELU: ``max(x, 0) + alpha * expm1(min(x, 0) / alpha)``."""
    return ops.celu(x, alpha=alpha)
