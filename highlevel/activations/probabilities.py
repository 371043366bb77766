"""Activations that turn scores into a distribution along an axis: softmax, log_softmax, sparsemax.

>>> import highlevel as hl
>>> p = softmax(hl.ops.convert_to_tensor([[1.0, 1.0]]))
>>> hl.ops.convert_to_numpy(p).tolist()
[[0.5, 0.5]]
"""

from highlevel import ops


def softmax(x, axis=-1):
    """``exp(x) / sum(exp(x))`` along ``axis``."""
    return ops.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    """``x - logsumexp(x)`` along ``axis``."""
    return ops.log_softmax(x, axis=axis)


def sparsemax(x, axis=-1):
    """The Euclidean projection of ``x`` onto the probability simplex along ``axis`` (Martins & Astudillo,
    2016): like softmax, but exact zeros for low scores.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(sparsemax(hl.ops.convert_to_tensor([0.0, 3.0]))).tolist()
    [0.0, 1.0]
    """
    x = ops.convert_to_tensor(x)
    ndim = len(ops.shape(x))
    axis = axis % ndim
    n = ops.shape(x)[axis]
    x_sorted = ops.flip(ops.sort(x, axis=axis), axis=axis)  # descending
    cumsum = ops.cumsum(x_sorted, axis=axis)
    r_shape = [1] * ndim
    r_shape[axis] = n
    r = ops.reshape(ops.arange(1, n + 1, dtype=ops.dtype(x)), r_shape)
    support = ops.greater(x_sorted, ops.divide(ops.subtract(cumsum, 1.0), r))
    k = ops.sum(ops.cast(support, ops.dtype(x)), axis=axis, keepdims=True)
    tau = ops.divide(ops.subtract(ops.sum(ops.where(support, cumsum, 0.0), axis=axis, keepdims=True), 1.0), k)
    return ops.maximum(ops.subtract(x, tau), 0.0)
