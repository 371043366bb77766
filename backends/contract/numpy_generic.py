"""The backend contract, part 2b: numpy ops with a generic definition (``keras.ops.numpy`` names).

Every method here is written on the contract's own methods, with the canonical arguments the front door
hands over (see ``highlevel/ops/_args.py``), so an engine needs nothing to support it. An engine overrides one
only where its own kernel is faster or more exact; the conformance suite holds the override to the same
numbers as this definition.

>>> import highlevel as hl
>>> b = hl.config.current_backend()
>>> b.to_numpy(b.rad2deg(b.convert_to_tensor([3.141592653589793]))).round(3).tolist()
[180.0]
"""

import math


class NumpyGenericContract:
    """Numpy ops defined from the primitives of :class:`~highlevel.backends.contract.NumpyContract`."""

    def _float(self, x):
        """``x`` as a tensor, in floatx when it is an integer or bool tensor (float math on ints)."""
        from . import dtypes

        x = self.convert_to_tensor(x)
        return x if self.dtype(x) in dtypes.FLOAT_DTYPES else self.cast(x, dtypes.floatx())

    def exp2(self, x):
        """``2 ** x``; integer inputs compute in floatx."""
        x = self._float(x)
        return self.exp(self.multiply(x, math.log(2.0)))

    def deg2rad(self, x):
        """Degrees to radians; integer inputs compute in floatx."""
        return self.multiply(self._float(x), math.pi / 180.0)

    def rad2deg(self, x):
        """Radians to degrees; integer inputs compute in floatx."""
        return self.multiply(self._float(x), 180.0 / math.pi)

    def ravel(self, x):
        """``x`` flattened to one axis."""
        return self.reshape(x, (-1,))

    def ptp(self, x, axis=None, keepdims=False):
        """The range ``max - min`` over ``axis`` (canonical: None or a tuple of axes)."""
        return self.subtract(self.max(x, axis=axis, keepdims=keepdims), self.min(x, axis=axis, keepdims=keepdims))

    def _triangle_mask(self, x, k, lower):
        rows, cols = self.shape(x)[-2:]
        i = self.expand_dims(self.arange(rows, dtype="int32"), 1)
        j = self.expand_dims(self.arange(cols, dtype="int32"), 0)
        offset = self.subtract(j, i)
        return self.less_equal(offset, k) if lower else self.greater_equal(offset, k)

    def tril(self, x, k=0):
        """The lower triangle of the last two axes of ``x`` (entries above the ``k``-th diagonal set to 0)."""
        x = self.convert_to_tensor(x)
        return self.where(self._triangle_mask(x, k, lower=True), x, self.zeros((), self.dtype(x)))

    def triu(self, x, k=0):
        """The upper triangle of the last two axes of ``x`` (entries below the ``k``-th diagonal set to 0)."""
        x = self.convert_to_tensor(x)
        return self.where(self._triangle_mask(x, k, lower=False), x, self.zeros((), self.dtype(x)))
