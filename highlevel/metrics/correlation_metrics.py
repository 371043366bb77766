"""Correlation metrics for regression: Pearson's correlation and Lin's concordance correlation of targets and
predictions along an axis, averaged over the samples (``keras.metrics.PearsonCorrelation``,
``ConcordanceCorrelation`` and their functions).

>>> import highlevel as hl
>>> y_true, y_pred = [[0.0, 1.0, 0.5], [1.0, 1.0, 0.2]], [[0.1, 0.9, 0.5], [1.0, 0.9, 0.2]]
>>> [round(v, 4) for v in hl.ops.convert_to_numpy(pearson_correlation(y_true, y_pred)).tolist()]
[1.0, 0.9934]
>>> round(float(ConcordanceCorrelation()(y_true, y_pred)), 4)
0.9816
"""

from highlevel import ops
from highlevel.losses.reduction import squeeze_or_expand_to_same_rank
from highlevel.losses.regression_losses import EPSILON

from .reduction_metrics import MeanMetricWrapper


def _prepare(y_true, y_pred):
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=ops.dtype(y_pred))
    return squeeze_or_expand_to_same_rank(y_true, y_pred)


def pearson_correlation(y_true, y_pred, axis=-1):
    """Pearson's correlation coefficient of ``y_true`` and ``y_pred`` along ``axis``: the mean product of the
    standardized values, in [-1, 1].

    Args:
        y_true: the targets.
        y_pred: the predictions, of the same shape.
        axis: the axis (or axes) the correlation runs along (default -1).

    Returns:
        The coefficients, with ``axis`` removed. A constant row has no correlation: NaN, as in Keras.

    >>> import highlevel as hl
    >>> round(float(hl.ops.convert_to_numpy(pearson_correlation([[1.0, 2.0, 3.0]], [[3.0, 2.0, 1.0]]))[0]), 4)
    -1.0
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    t = y_true - ops.mean(y_true, axis=axis, keepdims=True)
    p = y_pred - ops.mean(y_pred, axis=axis, keepdims=True)
    t = t / ops.std(t, axis=axis, keepdims=True)
    p = p / ops.std(p, axis=axis, keepdims=True)
    return ops.mean(t * p, axis=axis)


def concordance_correlation(y_true, y_pred, axis=-1):
    """Lin's concordance correlation coefficient along ``axis``:
    ``2 cov(t, p) / (var(t) + var(p) + (mean(t) - mean(p))**2)``, which is 1 only when predictions equal targets.

    Args:
        y_true: the targets.
        y_pred: the predictions, of the same shape.
        axis: the axis (or axes) the coefficient runs along (default -1).

    Returns:
        The coefficients, with ``axis`` removed.

    >>> import highlevel as hl
    >>> round(float(hl.ops.convert_to_numpy(concordance_correlation([[1.0, 2.0]], [[2.0, 3.0]]))[0]), 4)
    0.3333
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    mean_t = ops.mean(y_true, axis=axis, keepdims=True)
    mean_p = ops.mean(y_pred, axis=axis, keepdims=True)
    var_t = ops.var(y_true, axis=axis, keepdims=True)
    var_p = ops.var(y_pred, axis=axis, keepdims=True)
    spread = var_t + var_p + ops.square(mean_t - mean_p)
    return ops.mean(2.0 * (y_true - mean_t) * (y_pred - mean_p) / (spread + EPSILON), axis=axis)


def _axis_config(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def _axis_arg(axis):
    return tuple(axis) if isinstance(axis, list) else axis


class PearsonCorrelation(MeanMetricWrapper):
    """The mean over samples of :func:`pearson_correlation`.

    Args:
        name: default ``"pearson_correlation"``.
        dtype: as :class:`Metric`.
        axis: the axis (or axes) the correlation runs along (default -1).

    >>> round(float(PearsonCorrelation()([[0.0, 1.0, 2.0]], [[0.0, 1.0, 3.0]])), 4)
    0.982
    """

    _direction = "up"  # larger is better (for callbacks that monitor it)

    def __init__(self, name="pearson_correlation", dtype=None, axis=-1):
        super().__init__(pearson_correlation, name=name, dtype=dtype, axis=_axis_arg(axis))
        self.axis = _axis_arg(axis)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "axis": _axis_config(self.axis)}


class ConcordanceCorrelation(MeanMetricWrapper):
    """The mean over samples of :func:`concordance_correlation`.

    Args:
        name: default ``"concordance_correlation"``.
        dtype: as :class:`Metric`.
        axis: the axis (or axes) the coefficient runs along (default -1).

    >>> round(float(ConcordanceCorrelation()([[0.0, 1.0, 2.0]], [[0.0, 1.0, 2.0]])), 4)
    1.0
    """

    _direction = "up"  # larger is better (for callbacks that monitor it)

    def __init__(self, name="concordance_correlation", dtype=None, axis=-1):
        super().__init__(concordance_correlation, name=name, dtype=dtype, axis=_axis_arg(axis))
        self.axis = _axis_arg(axis)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "axis": _axis_config(self.axis)}
