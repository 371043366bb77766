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
    >>> hl.ops.convert_to_numpy(sparsemax(hl.ops.convert_to_tensor([1.0, 1.5]))).tolist()
    [0.25, 0.75]
    """
    return ops.sparsemax(x, axis=axis)
