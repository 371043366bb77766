"""Constraints on the L2 norm of weight slices: MaxNorm, MinMaxNorm and UnitNorm.

The norm is taken along ``axis`` (for a Dense kernel ``(in, units)``, ``axis=0`` constrains each unit's
incoming weight vector; for a Conv2D kernel ``(h, w, in, out)`` use ``axis=[0, 1, 2]``).

>>> import highlevel as hl
>>> w = hl.ops.convert_to_tensor([[3.0], [4.0]])
>>> [round(v, 4) for v in hl.ops.convert_to_numpy(MaxNorm(1.0)(w)).ravel().tolist()]
[0.6, 0.8]
"""

from highlevel import ops

from .constraint import Constraint

# Keras' fuzz factor: keeps a zero slice at zero instead of dividing by zero.
EPSILON = 1e-7


def _axis(axis):
    # A list from a JSON config means a tuple of axes.
    return tuple(axis) if isinstance(axis, list) else axis


def _norms(w, axis):
    return ops.sqrt(ops.sum(ops.square(w), axis=_axis(axis), keepdims=True))


class MaxNorm(Constraint):
    """Rescales each slice whose L2 norm exceeds ``max_value`` to norm ``max_value``.

    Args:
        max_value: the largest allowed norm.
        axis: the axis (int or list of ints) along which norms are taken.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> w = hl.ops.convert_to_tensor([[3.0, 0.1], [4.0, 0.0]])  # column norms 5 and 0.1
    >>> np.round(hl.ops.convert_to_numpy(hl.constraints.MaxNorm(2.0)(w)), 4)
    array([[1.2, 0.1],
           [1.6, 0. ]], dtype=float32)
    """

    def __init__(self, max_value=2, axis=0):
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = ops.clip(norms, 0, self.max_value)
        return ops.multiply(ops.cast(w, ops.dtype(norms)), ops.divide(desired, ops.add(norms, EPSILON)))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class MinMaxNorm(Constraint):
    """Moves each slice's L2 norm into ``[min_value, max_value]``, at speed ``rate``.

    The new norm is ``rate * clip(norm, min_value, max_value) + (1 - rate) * norm``.

    Args:
        min_value: the smallest allowed norm.
        max_value: the largest allowed norm.
        rate: 1.0 enforces the bounds at once; smaller values move towards them gradually.
        axis: the axis (int or list of ints) along which norms are taken.

    Raises:
        ValueError: if ``min_value`` is larger than ``max_value``.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> w = hl.ops.convert_to_tensor([[3.0, 0.1], [4.0, 0.0]])  # column norms 5 and 0.1
    >>> np.round(hl.ops.convert_to_numpy(hl.constraints.MinMaxNorm(1.0, 2.0)(w)), 4)
    array([[1.2, 1. ],
           [1.6, 0. ]], dtype=float32)
    """

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        if min_value > max_value:
            raise ValueError(
                f"MinMaxNorm: min_value must be <= max_value; received min_value={min_value!r}, "
                f"max_value={max_value!r}."
            )
        self.min_value = min_value
        self.max_value = max_value
        self.rate = rate
        self.axis = axis

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = ops.add(
            ops.multiply(self.rate, ops.clip(norms, self.min_value, self.max_value)), ops.multiply(1 - self.rate, norms)
        )
        return ops.multiply(ops.cast(w, ops.dtype(norms)), ops.divide(desired, ops.add(norms, EPSILON)))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate, "axis": self.axis}


class UnitNorm(Constraint):
    """Rescales each slice to unit L2 norm.

    Args:
        axis: the axis (int or list of ints) along which norms are taken.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> w = hl.ops.convert_to_tensor([[3.0, 0.1], [4.0, 0.0]])
    >>> np.round(hl.ops.convert_to_numpy(hl.constraints.UnitNorm()(w)), 4)
    array([[0.6, 1. ],
           [0.8, 0. ]], dtype=float32)
    """

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        return ops.divide(ops.cast(w, ops.dtype(norms)), ops.add(norms, EPSILON))

    def get_config(self):
        return {"axis": self.axis}
