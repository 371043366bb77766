"""The L1 and L2 weight penalties: ``l1 * sum(|x|)``, ``l2 * sum(x**2)`` and their sum.

>>> import highlevel as hl
>>> x = hl.ops.convert_to_tensor([1.0, -2.0])
>>> float(hl.ops.convert_to_numpy(L1(0.5)(x))), float(hl.ops.convert_to_numpy(L2(0.5)(x)))
(1.5, 2.5)
"""

from highlevel import ops

from .regularizer import Regularizer, validate_factor


class L1(Regularizer):
    """``l1 * sum(abs(x))``.

    Args:
        l1: the factor (non-negative; None means 0.01).

    >>> import highlevel as hl
    >>> round(float(hl.regularizers.L1(0.1)(hl.ops.convert_to_tensor([[1.0, -2.0], [3.0, 0.0]]))), 4)
    0.6
    """

    def __init__(self, l1=0.01):
        self.l1 = validate_factor(0.01 if l1 is None else l1, "l1", "L1")

    def __call__(self, x):
        x = ops.convert_to_tensor(x)
        return ops.multiply(ops.cast(self.l1, ops.dtype(x)), ops.sum(ops.abs(x)))

    def get_config(self):
        return {"l1": self.l1}


class L2(Regularizer):
    """``l2 * sum(square(x))``.

    Args:
        l2: the factor (non-negative; None means 0.01).

    >>> import highlevel as hl
    >>> round(float(hl.regularizers.L2(0.1)(hl.ops.convert_to_tensor([[1.0, -2.0], [3.0, 0.0]]))), 4)
    1.4
    """

    def __init__(self, l2=0.01):
        self.l2 = validate_factor(0.01 if l2 is None else l2, "l2", "L2")

    def __call__(self, x):
        x = ops.convert_to_tensor(x)
        return ops.multiply(ops.cast(self.l2, ops.dtype(x)), ops.sum(ops.square(x)))

    def get_config(self):
        return {"l2": self.l2}


class L1L2(Regularizer):
    """``l1 * sum(abs(x)) + l2 * sum(square(x))``; both factors default to 0 (Keras 3's defaults).

    Args:
        l1: the L1 factor (non-negative; None means 0).
        l2: the L2 factor (non-negative; None means 0).

    >>> import highlevel as hl
    >>> penalty = hl.regularizers.L1L2(l1=0.1, l2=0.1)
    >>> round(float(penalty(hl.ops.convert_to_tensor([[1.0, -2.0], [3.0, 0.0]]))), 4)
    2.0
    """

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = validate_factor(0.0 if l1 is None else l1, "l1", "L1L2")
        self.l2 = validate_factor(0.0 if l2 is None else l2, "l2", "L1L2")

    def __call__(self, x):
        x = ops.convert_to_tensor(x)
        dtype = ops.dtype(x)
        penalty = ops.convert_to_tensor(0.0, dtype=dtype)
        if self.l1 != 0.0:
            penalty = ops.add(penalty, ops.multiply(ops.cast(self.l1, dtype), ops.sum(ops.abs(x))))
        if self.l2 != 0.0:
            penalty = ops.add(penalty, ops.multiply(ops.cast(self.l2, dtype), ops.sum(ops.square(x))))
        return penalty

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}
