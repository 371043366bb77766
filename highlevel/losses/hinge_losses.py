"""Hinge losses for maximum-margin classifiers — hinge, squared hinge and categorical hinge — each as a
function ``fn(y_true, y_pred) -> per-sample values`` and as a :class:`Loss` class.

Labels are expected in {-1, 1}; 0/1 labels are converted to -1/1 when *every* label of the batch is 0 or
1 (as Keras does; decided with ``where`` on tensors, so it also works under tracing).

>>> import highlevel as hl
>>> round(float(Hinge()([[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]])), 2)
1.3
>>> round(float(CategoricalHinge()([[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]])), 2)
1.4
"""

from highlevel import ops

from .loss import LossFunctionWrapper


def convert_binary_labels_to_hinge(y_true):
    """``2 * y_true - 1`` when all labels are 0 or 1, else ``y_true`` unchanged."""
    is_binary = ops.all(ops.logical_or(ops.equal(y_true, 0), ops.equal(y_true, 1)))
    return ops.where(is_binary, 2.0 * y_true - 1.0, y_true)


def _prepare(y_true, y_pred):
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, ops.dtype(y_pred))
    return y_true, y_pred


def hinge(y_true, y_pred):
    """Hinge loss of each sample: ``mean(maximum(1 - y_true * y_pred, 0), axis=-1)``.

    The loss of a maximum-margin classifier: zero once a score has the label's sign with a margin of at least 1.

    Args:
        y_true: the labels, -1 or 1 (0/1 labels are turned into -1/1), shape ``(batch, ..., d)``.
        y_pred: the predicted scores (any real numbers), same shape.

    Returns:
        A float tensor of shape ``(batch, ...)``: one value per sample (the last axis reduced).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.losses.hinge([[1.0, -1.0]], [[0.5, 0.5]])).tolist()
    [1.0]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    y_true = convert_binary_labels_to_hinge(y_true)
    return ops.mean(ops.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def squared_hinge(y_true, y_pred):
    """Squared hinge loss of each sample: ``mean(square(maximum(1 - y_true * y_pred, 0)), axis=-1)``.

    Args:
        y_true: the labels, -1 or 1 (0/1 labels are turned into -1/1), shape ``(batch, ..., d)``.
        y_pred: the predicted scores (any real numbers), same shape.

    Returns:
        A float tensor of shape ``(batch, ...)``: one value per sample (the last axis reduced).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.losses.squared_hinge([[1.0, -1.0]], [[0.5, 0.5]])).tolist()
    [1.25]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    y_true = convert_binary_labels_to_hinge(y_true)
    return ops.mean(ops.square(ops.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


def categorical_hinge(y_true, y_pred):
    """Categorical hinge loss of each sample: ``maximum(neg - pos + 1, 0)``.

    ``pos = sum(y_true * y_pred)`` is the score of the true class and ``neg = max((1 - y_true) * y_pred)`` the best
    score of another class, both over the last axis: the loss is zero once the true class leads by a margin of 1.

    Args:
        y_true: one-hot labels, shape ``(batch, ..., classes)``.
        y_pred: the predicted scores, same shape.

    Returns:
        A float tensor of shape ``(batch, ...)``.

    >>> import highlevel as hl
    >>> round(float(hl.losses.categorical_hinge([[0.0, 1.0, 0.0]], [[0.2, 0.7, 0.5]])[0]), 4)
    0.8
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    pos = ops.sum(y_true * y_pred, axis=-1)
    neg = ops.max((1.0 - y_true) * y_pred, axis=-1)
    return ops.maximum(neg - pos + 1.0, 0.0)


class Hinge(LossFunctionWrapper):
    """Hinge loss for -1/1 labels, averaged over the last axis and the batch.

    Calling the loss computes :func:`hinge` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"hinge"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> float(hl.losses.Hinge()([[1.0, -1.0]], [[0.5, 0.5]]))
    1.0
    """

    def __init__(self, reduction="sum_over_batch_size", name="hinge", dtype=None):
        super().__init__(hinge, name=name, reduction=reduction, dtype=dtype)


class SquaredHinge(LossFunctionWrapper):
    """Squared hinge loss for -1/1 labels, averaged over the last axis and the batch.

    Calling the loss computes :func:`squared_hinge` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"squared_hinge"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> float(hl.losses.SquaredHinge()([[1.0, -1.0]], [[0.5, 0.5]]))
    1.25
    """

    def __init__(self, reduction="sum_over_batch_size", name="squared_hinge", dtype=None):
        super().__init__(squared_hinge, name=name, reduction=reduction, dtype=dtype)


class CategoricalHinge(LossFunctionWrapper):
    """Categorical hinge loss for one-hot labels, averaged over the batch.

    Calling the loss computes :func:`categorical_hinge` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"categorical_hinge"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> round(float(hl.losses.CategoricalHinge()([[0.0, 1.0, 0.0]], [[0.2, 0.7, 0.5]])), 4)
    0.8
    """

    def __init__(self, reduction="sum_over_batch_size", name="categorical_hinge", dtype=None):
        super().__init__(categorical_hinge, name=name, reduction=reduction, dtype=dtype)
