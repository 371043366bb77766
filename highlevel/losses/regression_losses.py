"""Regression losses: squared, absolute, percentage, logarithmic, Huber, log-cosh and cosine similarity —
each as a function ``fn(y_true, y_pred) -> per-sample values`` and as a :class:`Loss` class.

>>> import highlevel as hl
>>> y_true, y_pred = [[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]]
>>> hl.ops.convert_to_numpy(mean_squared_error(y_true, y_pred)).tolist()
[0.5, 0.5]
>>> float(MeanAbsoluteError()(y_true, y_pred, sample_weight=[0.7, 0.3]))
0.25
"""

import math

from highlevel import ops

from .loss import LossFunctionWrapper
from .reduction import squeeze_or_expand_to_same_rank

#: The fuzz factor Keras uses against division by zero and log(0) (``keras.backend.epsilon()``).
EPSILON = 1e-7


def _prepare(y_true, y_pred):
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=ops.dtype(y_pred))
    return squeeze_or_expand_to_same_rank(y_true, y_pred)


def l2_normalize(x, axis=-1):
    """``x / max(||x||_2, epsilon)`` along ``axis`` (``keras.ops.normalize``)."""
    inv_norm = ops.rsqrt(ops.sum(ops.square(x), axis=axis, keepdims=True))
    return ops.multiply(x, ops.minimum(inv_norm, 1.0 / EPSILON))


def mean_squared_error(y_true, y_pred):
    """Mean squared error of each sample: ``mean(square(y_true - y_pred), axis=-1)``.

    Args:
        y_true: the targets, shape ``(batch, ..., d)``.
        y_pred: the predictions, same shape as ``y_true``.

    Returns:
        A float tensor of shape ``(batch, ...)``: one value per sample (the last axis reduced).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.losses.mean_squared_error([[1.0, 2.0]], [[2.0, 4.0]])).tolist()
    [2.5]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    return ops.mean(ops.square(y_true - y_pred), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """Mean absolute error of each sample: ``mean(abs(y_true - y_pred), axis=-1)``.

    Args:
        y_true: the targets, shape ``(batch, ..., d)``.
        y_pred: the predictions, same shape as ``y_true``.

    Returns:
        A float tensor of shape ``(batch, ...)``: one value per sample (the last axis reduced).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.losses.mean_absolute_error([[1.0, 2.0]], [[2.0, 5.0]])).tolist()
    [2.0]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    return ops.mean(ops.abs(y_true - y_pred), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    """Mean absolute percentage error of each sample.

    ``100 * mean(abs((y_true - y_pred) / max(abs(y_true), 1e-7)), axis=-1)``: the error relative to the target, in
    percent (a zero target is replaced by ``1e-7`` so that the result stays finite).

    Args:
        y_true: the targets, shape ``(batch, ..., d)``.
        y_pred: the predictions, same shape as ``y_true``.

    Returns:
        A float tensor of shape ``(batch, ...)``: one value per sample (the last axis reduced).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.losses.mean_absolute_percentage_error([[2.0, 4.0]], [[1.0, 5.0]])).tolist()
    [37.5]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    diff = ops.abs((y_true - y_pred) / ops.maximum(ops.abs(y_true), EPSILON))
    return 100.0 * ops.mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    """Mean squared logarithmic error of each sample.

    ``mean(square(log(1 + max(y_pred, 1e-7)) - log(1 + max(y_true, 1e-7))), axis=-1)``: a squared error of the
    logarithms, which weighs relative rather than absolute differences (negative values count as 0).

    Args:
        y_true: the targets, shape ``(batch, ..., d)``.
        y_pred: the predictions, same shape as ``y_true``.

    Returns:
        A float tensor of shape ``(batch, ...)``: one value per sample (the last axis reduced).

    >>> import highlevel as hl
    >>> import numpy as np
    >>> np.round(hl.ops.convert_to_numpy(hl.losses.mean_squared_logarithmic_error([[0.0, 1.0]], [[1.0, 3.0]])), 4)
    array([0.4805], dtype=float32)
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    first = ops.log(ops.maximum(y_pred, EPSILON) + 1.0)
    second = ops.log(ops.maximum(y_true, EPSILON) + 1.0)
    return ops.mean(ops.square(first - second), axis=-1)


def cosine_similarity(y_true, y_pred, axis=-1):
    """Negative cosine similarity of each sample: ``-sum(l2_normalize(y_true) * l2_normalize(y_pred), axis)``.

    The value is -1 for vectors pointing the same way, 1 for opposite ones and 0 for orthogonal ones or when either
    vector is zero, so that minimizing it aligns the predictions with the targets.

    Args:
        y_true: the targets, shape ``(batch, ..., d)``.
        y_pred: the predictions, same shape as ``y_true``.
        axis: int, the axis holding the vectors (default -1).

    Returns:
        A float tensor of the inputs' shape without ``axis``.

    >>> import highlevel as hl
    >>> y_true, y_pred = [[0.0, 2.0], [1.0, 0.0]], [[0.0, 3.0], [0.0, 1.0]]
    >>> hl.ops.convert_to_numpy(hl.losses.cosine_similarity(y_true, y_pred)).tolist()
    [-1.0, -0.0]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    return -ops.sum(l2_normalize(y_true, axis) * l2_normalize(y_pred, axis), axis=axis)


def huber(y_true, y_pred, delta=1.0):
    """Huber loss of each sample: quadratic for small errors, linear for large ones.

    With ``e = y_pred - y_true``, each entry is ``0.5 * e**2`` where ``|e| <= delta`` and
    ``delta * |e| - 0.5 * delta**2`` elsewhere; the result is their mean over the last axis. It is less sensitive
    to outliers than the squared error.

    Args:
        y_true: the targets, shape ``(batch, ..., d)``.
        y_pred: the predictions, same shape as ``y_true``.
        delta: positive float, where the loss turns from quadratic to linear (default 1.0).

    Returns:
        A float tensor of shape ``(batch, ...)``: one value per sample (the last axis reduced).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.losses.huber([[0.0, 0.0]], [[0.5, 3.0]])).tolist()
    [1.3125]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    delta = ops.convert_to_tensor(delta, dtype=ops.dtype(y_pred))
    error = y_pred - y_true
    abs_error = ops.abs(error)
    quadratic = 0.5 * ops.square(error)
    linear = ops.multiply(delta, abs_error) - 0.5 * ops.square(delta)  # delta, a tensor, first: ops decides
    return ops.mean(ops.where(abs_error <= delta, quadratic, linear), axis=-1)


def log_cosh(y_true, y_pred):
    """Log-cosh loss of each sample: ``mean(log(cosh(y_pred - y_true)), axis=-1)``.

    About ``e**2 / 2`` for small errors and ``|e| - log(2)`` for large ones; computed as
    ``e + softplus(-2e) - log(2)`` so that large errors do not overflow.

    Args:
        y_true: the targets, shape ``(batch, ..., d)``.
        y_pred: the predictions, same shape as ``y_true``.

    Returns:
        A float tensor of shape ``(batch, ...)``: one value per sample (the last axis reduced).

    >>> import highlevel as hl
    >>> import numpy as np
    >>> np.round(hl.ops.convert_to_numpy(hl.losses.log_cosh([[0.0, 0.0]], [[1.0, 0.0]])), 4)
    array([0.2169], dtype=float32)
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    x = y_pred - y_true
    return ops.mean(x + ops.softplus(-2.0 * x) - math.log(2.0), axis=-1)


class MeanSquaredError(LossFunctionWrapper):
    """Mean of the squared errors, ``mean(square(y_true - y_pred))`` over the last axis and the batch.

    Calling the loss computes :func:`mean_squared_error` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"mean_squared_error"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> loss = hl.losses.MeanSquaredError()
    >>> float(loss([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]]))
    0.5
    >>> float(loss([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]], sample_weight=[1.0, 0.0]))
    0.25
    """

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name=name, reduction=reduction, dtype=dtype)


class MeanAbsoluteError(LossFunctionWrapper):
    """Mean of the absolute errors, ``mean(abs(y_true - y_pred))`` over the last axis and the batch.

    Calling the loss computes :func:`mean_absolute_error` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"mean_absolute_error"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> float(hl.losses.MeanAbsoluteError()([[0.0, 1.0], [2.0, 2.0]], [[1.0, 1.0], [0.0, 2.0]]))
    0.75
    """

    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, name=name, reduction=reduction, dtype=dtype)


class MeanAbsolutePercentageError(LossFunctionWrapper):
    """Mean absolute percentage error over the last axis and the batch.

    Calling the loss computes :func:`mean_absolute_percentage_error` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"mean_absolute_percentage_error"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> float(hl.losses.MeanAbsolutePercentageError()([[2.0, 4.0]], [[1.0, 5.0]]))
    37.5
    """

    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_percentage_error", dtype=None):
        super().__init__(mean_absolute_percentage_error, name=name, reduction=reduction, dtype=dtype)


class MeanSquaredLogarithmicError(LossFunctionWrapper):
    """Mean squared error of ``log(1 + y)``, over the last axis and the batch.

    Calling the loss computes :func:`mean_squared_logarithmic_error` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"mean_squared_logarithmic_error"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> round(float(hl.losses.MeanSquaredLogarithmicError()([[0.0, 1.0]], [[1.0, 3.0]])), 4)
    0.4805
    """

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(mean_squared_logarithmic_error, name=name, reduction=reduction, dtype=dtype)


class CosineSimilarity(LossFunctionWrapper):
    """Negative cosine similarity between targets and predictions, averaged over the batch.

    Calling the loss computes :func:`cosine_similarity` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        axis: int, the axis holding the vectors (default -1).
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"cosine_similarity"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> float(hl.losses.CosineSimilarity()([[0.0, 2.0], [1.0, 0.0]], [[0.0, 3.0], [0.0, 1.0]]))
    -0.5
    """

    def __init__(self, axis=-1, reduction="sum_over_batch_size", name="cosine_similarity", dtype=None):
        super().__init__(cosine_similarity, name=name, reduction=reduction, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class Huber(LossFunctionWrapper):
    """Huber loss: quadratic for errors up to ``delta``, linear beyond, averaged over the batch.

    Calling the loss computes :func:`huber` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        delta: positive float, where the loss turns from quadratic to linear (default 1.0).
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"huber_loss"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> float(hl.losses.Huber()([[0.0, 0.0]], [[0.5, 3.0]]))
    1.3125
    """

    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss", dtype=None):
        super().__init__(huber, name=name, reduction=reduction, dtype=dtype, delta=delta)
        self.delta = delta

    def get_config(self):
        return {**super().get_config(), "delta": self.delta}


class LogCosh(LossFunctionWrapper):
    """Logarithm of the hyperbolic cosine of the errors, averaged over the last axis and the batch.

    Calling the loss computes :func:`log_cosh` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"log_cosh"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> round(float(hl.losses.LogCosh()([[0.0, 0.0]], [[1.0, 0.0]])), 4)
    0.2169
    """

    def __init__(self, reduction="sum_over_batch_size", name="log_cosh", dtype=None):
        super().__init__(log_cosh, name=name, reduction=reduction, dtype=dtype)
