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
    """``mean(maximum(1 - y_true * y_pred, 0), axis=-1)``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hinge([[1.0, -1.0]], [[0.5, 0.5]])).tolist()
    [1.0]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    y_true = convert_binary_labels_to_hinge(y_true)
    return ops.mean(ops.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def squared_hinge(y_true, y_pred):
    """``mean(square(maximum(1 - y_true * y_pred, 0)), axis=-1)``."""
    y_true, y_pred = _prepare(y_true, y_pred)
    y_true = convert_binary_labels_to_hinge(y_true)
    return ops.mean(ops.square(ops.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


def categorical_hinge(y_true, y_pred):
    """``maximum(neg - pos + 1, 0)`` with ``pos = sum(y_true * y_pred)`` and ``neg = max((1 - y_true) *
    y_pred)`` over the last axis."""
    y_true, y_pred = _prepare(y_true, y_pred)
    pos = ops.sum(y_true * y_pred, axis=-1)
    neg = ops.max((1.0 - y_true) * y_pred, axis=-1)
    return ops.maximum(neg - pos + 1.0, 0.0)


class Hinge(LossFunctionWrapper):
    """Hinge loss (:func:`hinge`)."""

    def __init__(self, reduction="sum_over_batch_size", name="hinge", dtype=None):
        super().__init__(hinge, name=name, reduction=reduction, dtype=dtype)


class SquaredHinge(LossFunctionWrapper):
    """Squared hinge loss (:func:`squared_hinge`)."""

    def __init__(self, reduction="sum_over_batch_size", name="squared_hinge", dtype=None):
        super().__init__(squared_hinge, name=name, reduction=reduction, dtype=dtype)


class CategoricalHinge(LossFunctionWrapper):
    """Categorical hinge loss (:func:`categorical_hinge`)."""

    def __init__(self, reduction="sum_over_batch_size", name="categorical_hinge", dtype=None):
        super().__init__(categorical_hinge, name=name, reduction=reduction, dtype=dtype)
