"""Activations that turn scores into a distribution along an axis: softmax, log_softmax, sparsemax.

>>> import highlevel as hl
>>> p = softmax(hl.ops.convert_to_tensor([[1.0, 1.0]]))
>>> hl.ops.convert_to_numpy(p).tolist()
[[0.5, 0.5]]
"""

from highlevel import ops


def softmax(x, axis=-1):
    """Turns the entries of ``x`` along an axis into probabilities.

    ``softmax(x)_i = exp(x_i) / sum_j exp(x_j)``: positive values that sum to 1 along ``axis``.

    Args:
        x: the input tensor (or anything convertible to one).
        axis: the axis to normalize along (default -1, the last).

    Returns:
        A tensor of the shape of ``x`` whose entries sum to 1 along ``axis``.

    >>> import highlevel as hl
    >>> y = hl.activations.softmax(hl.ops.convert_to_tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [[0.09   0.2447 0.6652]
     [0.3333 0.3333 0.3333]]
    """
    return ops.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    """Computes the logarithm of the softmax of ``x`` along an axis.

    ``log_softmax(x) = x - logsumexp(x)``, more accurate than ``log(softmax(x))``.

    Args:
        x: the input tensor (or anything convertible to one).
        axis: the axis to normalize along (default -1, the last).

    Returns:
        A tensor of the shape of ``x`` with non-positive entries.

    >>> import highlevel as hl
    >>> y = hl.activations.log_softmax(hl.ops.convert_to_tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]))
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [[-2.4076 -1.4076 -0.4076]
     [-1.0986 -1.0986 -1.0986]]
    """
    return ops.log_softmax(x, axis=axis)


def sparsemax(x, axis=-1):
    """Projects ``x`` onto the probability simplex along an axis: a softmax with exact zeros.

    The Euclidean projection (Martins & Astudillo, 2016): the result sums to 1 along ``axis`` like a softmax, but
    low scores get exactly 0.

    Args:
        x: the input tensor (or anything convertible to one).
        axis: the axis to normalize along (default -1, the last).

    Returns:
        A tensor of the shape of ``x`` whose non-negative entries sum to 1 along ``axis``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.activations.sparsemax(hl.ops.convert_to_tensor([0.0, 3.0]))).tolist()
    [0.0, 1.0]
    >>> hl.ops.convert_to_numpy(hl.activations.sparsemax(hl.ops.convert_to_tensor([1.0, 1.5]))).tolist()
    [0.25, 0.75]
    """
    return ops.sparsemax(x, axis=axis)
