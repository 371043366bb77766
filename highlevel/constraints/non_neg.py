"""The non-negativity constraint.

>>> import highlevel as hl
>>> hl.ops.convert_to_numpy(NonNeg()(hl.ops.convert_to_tensor([-1.0, 2.0]))).tolist()
[0.0, 2.0]
"""

from highlevel import ops

from .constraint import Constraint


class NonNeg(Constraint):
    """Sets negative weights to zero: ``maximum(w, 0)``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.constraints.NonNeg()(hl.ops.convert_to_tensor([-1.0, 2.0]))).tolist()
    [0.0, 2.0]
    """

    def __call__(self, w):
        return ops.maximum(ops.convert_to_tensor(w), 0)
