"""A penalty that pushes the rows (or columns) of a 2-D weight towards being orthogonal.

>>> import highlevel as hl
>>> reg = OrthogonalRegularizer(factor=1.0)
>>> float(hl.ops.convert_to_numpy(reg([[1.0, 0.0], [0.0, 1.0]])))
0.0
>>> round(float(hl.ops.convert_to_numpy(reg([[1.0, 0.0], [1.0, 0.0]]))), 4)
1.0
"""

from highlevel import ops

from .regularizer import Regularizer, validate_factor

# The fuzz factor of Keras' L2 normalization: a zero row is divided by at most 1 / epsilon.
_EPSILON = 1e-7


def _l2_normalize(x, axis):
    """``x`` scaled to unit L2 norm along ``axis`` (``x * min(rsqrt(sum(x**2)), 1 / epsilon)``, as Keras)."""
    inv_norm = ops.rsqrt(ops.sum(ops.square(x), axis=axis, keepdims=True))
    return ops.multiply(x, ops.minimum(inv_norm, 1.0 / _EPSILON))


class OrthogonalRegularizer(Regularizer):
    """``factor * 0.5 * sum(|P - diag(P)|) / (n * (n - 1) / 2)`` with ``P`` the Gram matrix of the
    L2-normalized rows (``mode="rows"``) or columns (``mode="columns"``) of a 2-D weight and ``n`` their
    count: the mean absolute cosine similarity between distinct rows (columns), times ``factor``.

    Args:
        factor: the weight of the penalty (non-negative).
        mode: ``"rows"`` or ``"columns"``; for a Dense kernel ``(in, units)``, ``"columns"`` regularizes
            the units' weight vectors.

    Raises:
        ValueError: if ``mode`` is not ``"rows"`` or ``"columns"``.

    >>> import highlevel as hl
    >>> penalty = hl.regularizers.OrthogonalRegularizer(factor=1.0)
    >>> float(penalty(hl.ops.eye(2))), float(penalty(hl.ops.convert_to_tensor([[1.0, 0.0], [1.0, 0.0]])))
    (0.0, 1.0)
    """

    def __init__(self, factor=0.01, mode="rows"):
        self.factor = validate_factor(factor, "factor", "OrthogonalRegularizer")
        if mode not in ("rows", "columns"):
            raise ValueError(f"OrthogonalRegularizer: mode must be 'rows' or 'columns'; received mode={mode!r}.")
        self.mode = mode

    def __call__(self, inputs):
        x = ops.convert_to_tensor(inputs)
        shape = ops.shape(x)
        if len(shape) != 2:
            raise ValueError(f"OrthogonalRegularizer needs a rank-2 weight; received shape={shape}.")
        if self.mode == "rows":
            x = _l2_normalize(x, axis=1)
            product = ops.matmul(x, ops.transpose(x))
            size = shape[0]
        else:
            x = _l2_normalize(x, axis=0)
            product = ops.matmul(ops.transpose(x), x)
            size = shape[1]
        if size < 2:
            raise ValueError(
                f"OrthogonalRegularizer(mode={self.mode!r}) needs at least 2 {self.mode} to compare; the weight "
                f"of shape {shape} has {size}. Use the other mode or no orthogonal regularizer for it."
            )
        off_diagonal = ops.multiply(product, ops.subtract(1.0, ops.eye(size, dtype=ops.dtype(x))))
        num_pairs = size * (size - 1.0) / 2.0
        return ops.divide(ops.multiply(self.factor * 0.5, ops.sum(ops.abs(off_diagonal))), num_pairs)

    def get_config(self):
        return {"factor": self.factor, "mode": self.mode}
