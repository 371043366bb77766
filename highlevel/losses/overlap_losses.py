"""Overlap losses for segmentation: Dice and Tversky, which score how much of the predicted mask covers the
true one (``keras.losses.Dice``, ``keras.losses.Tversky``).

Both sum over ``axis`` (every axis by default, giving one number for the whole batch); pass the non-batch axes,
e.g. ``axis=(1, 2, 3)`` for ``(batch, height, width, channels)`` masks, to get one value per sample.

>>> import highlevel as hl
>>> y_true = [[1.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]]
>>> y_pred = [[1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]]
>>> [round(v, 4) for v in hl.ops.convert_to_numpy(dice(y_true, y_pred, axis=1)).tolist()]
[0.3333, 0.0]
>>> round(float(Tversky(alpha=0.2, beta=0.8)(y_true, y_pred)), 4)
0.0909
"""

from highlevel import ops

from .loss import LossFunctionWrapper
from .regression_losses import EPSILON


def _as_pair(y_true, y_pred):
    y_pred = ops.convert_to_tensor(y_pred)
    return ops.cast(y_true, ops.dtype(y_pred)), y_pred


def dice(y_true, y_pred, axis=None):
    """``1 - 2 * sum(y_true * y_pred) / (sum(y_true) + sum(y_pred) + epsilon)``, the sums taken over ``axis``.

    Args:
        y_true: the true masks (0 or 1, or soft values in [0, 1]).
        y_pred: the predicted masks, of the same shape.
        axis: the axes summed over; ``None`` (default) sums everything into one value.

    Returns:
        The loss, with the axes of ``axis`` removed.

    >>> import highlevel as hl
    >>> round(float(dice([[1.0, 0.0]], [[0.5, 0.5]])), 4)
    0.5
    """
    y_true, y_pred = _as_pair(y_true, y_pred)
    overlap = ops.sum(y_true * y_pred, axis=axis)
    total = ops.sum(y_true, axis=axis) + ops.sum(y_pred, axis=axis)
    return 1.0 - ops.divide(2.0 * overlap, total + EPSILON)


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """``1 - TP / (TP + alpha * FP + beta * FN + epsilon)`` with soft counts summed over ``axis``.

    ``alpha=beta=0.5`` gives the Dice loss.

    Args:
        y_true: the true masks.
        y_pred: the predicted masks, of the same shape.
        alpha: the weight of false positives (``y_true * (1 - y_pred)``, as Keras counts them).
        beta: the weight of false negatives (``(1 - y_true) * y_pred``, as Keras counts them).
        axis: the axes summed over; ``None`` (default) sums everything.

    Returns:
        The loss, with the axes of ``axis`` removed.

    >>> round(float(tversky([[1.0, 0.0]], [[0.5, 0.5]], alpha=0.5, beta=0.5)), 4)
    0.5
    """
    y_true, y_pred = _as_pair(y_true, y_pred)
    tp = ops.sum(y_true * y_pred, axis=axis)
    fp = ops.sum((1.0 - y_pred) * y_true, axis=axis)
    fn = ops.sum(y_pred * (1.0 - y_true), axis=axis)
    return 1.0 - ops.divide(tp, tp + alpha * fp + beta * fn + EPSILON)


def _axis_config(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def _axis_arg(axis):
    return tuple(axis) if isinstance(axis, list) else axis


class Dice(LossFunctionWrapper):
    """The Dice loss (:func:`dice`).

    Args:
        reduction: see :class:`~highlevel.losses.Loss`.
        name: default ``"dice"``.
        axis: the axes summed over (default ``None``: all of them).
        dtype: see :class:`~highlevel.losses.Loss`.

    >>> round(float(Dice(axis=1)([[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [1.0, 0.0]])), 4)
    0.5
    """

    def __init__(self, reduction="sum_over_batch_size", name="dice", axis=None, dtype=None):
        super().__init__(dice, name=name, reduction=reduction, dtype=dtype, axis=_axis_arg(axis))
        self.axis = _axis_arg(axis)

    def get_config(self):
        return {**super().get_config(), "axis": _axis_config(self.axis)}


class Tversky(LossFunctionWrapper):
    """The Tversky loss (:func:`tversky`): Dice with separate weights for false positives and negatives.

    Args:
        alpha: the weight of false positives (default 0.5).
        beta: the weight of false negatives (default 0.5).
        reduction: see :class:`~highlevel.losses.Loss`.
        name: default ``"tversky"``.
        axis: the axes summed over (default ``None``: all of them).
        dtype: see :class:`~highlevel.losses.Loss`.

    >>> round(float(Tversky()([[1.0, 0.0]], [[1.0, 0.0]])), 4)
    0.0
    """

    def __init__(self, alpha=0.5, beta=0.5, reduction="sum_over_batch_size", name="tversky", axis=None, dtype=None):
        super().__init__(
            tversky, name=name, reduction=reduction, dtype=dtype, alpha=alpha, beta=beta, axis=_axis_arg(axis)
        )
        self.alpha = alpha
        self.beta = beta
        self.axis = _axis_arg(axis)

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha, "beta": self.beta, "axis": _axis_config(self.axis)}
