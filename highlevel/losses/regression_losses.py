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
    """``mean(square(y_true - y_pred), axis=-1)``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(mean_squared_error([[1.0, 2.0]], [[2.0, 4.0]])).tolist()
    [2.5]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    return ops.mean(ops.square(y_true - y_pred), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """``mean(abs(y_true - y_pred), axis=-1)``."""
    y_true, y_pred = _prepare(y_true, y_pred)
    return ops.mean(ops.abs(y_true - y_pred), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    """``100 * mean(abs((y_true - y_pred) / max(abs(y_true), epsilon)), axis=-1)``."""
    y_true, y_pred = _prepare(y_true, y_pred)
    diff = ops.abs((y_true - y_pred) / ops.maximum(ops.abs(y_true), EPSILON))
    return 100.0 * ops.mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    """``mean(square(log(max(y_pred, eps) + 1) - log(max(y_true, eps) + 1)), axis=-1)``."""
    y_true, y_pred = _prepare(y_true, y_pred)
    first = ops.log(ops.maximum(y_pred, EPSILON) + 1.0)
    second = ops.log(ops.maximum(y_true, EPSILON) + 1.0)
    return ops.mean(ops.square(first - second), axis=-1)


def cosine_similarity(y_true, y_pred, axis=-1):
    """``-sum(l2_normalize(y_true) * l2_normalize(y_pred), axis)``: -1 for aligned vectors, 0 when either is
    zero.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(cosine_similarity([[0.0, 2.0]], [[0.0, 3.0]])).tolist()
    [-1.0]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    return -ops.sum(l2_normalize(y_true, axis) * l2_normalize(y_pred, axis), axis=axis)


def huber(y_true, y_pred, delta=1.0):
    """``mean(0.5 * e**2 if |e| <= delta else delta * |e| - 0.5 * delta**2, axis=-1)`` with
    ``e = y_pred - y_true``."""
    y_true, y_pred = _prepare(y_true, y_pred)
    delta = ops.convert_to_tensor(delta, dtype=ops.dtype(y_pred))
    error = y_pred - y_true
    abs_error = ops.abs(error)
    quadratic = 0.5 * ops.square(error)
    linear = ops.multiply(delta, abs_error) - 0.5 * ops.square(delta)  # delta, a tensor, first: ops decides
    return ops.mean(ops.where(abs_error <= delta, quadratic, linear), axis=-1)


def log_cosh(y_true, y_pred):
    """``mean(log(cosh(y_pred - y_true)), axis=-1)``, computed as ``x + softplus(-2x) - log(2)`` so that
    large errors do not overflow."""
    y_true, y_pred = _prepare(y_true, y_pred)
    x = y_pred - y_true
    return ops.mean(x + ops.softplus(-2.0 * x) - math.log(2.0), axis=-1)


class MeanSquaredError(LossFunctionWrapper):
    """Mean of squared errors (:func:`mean_squared_error`), then reduced over the batch.

    >>> float(MeanSquaredError()([[0.0, 1.0]], [[1.0, 1.0]]))
    0.5
    """

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name=name, reduction=reduction, dtype=dtype)


class MeanAbsoluteError(LossFunctionWrapper):
    """Mean of absolute errors (:func:`mean_absolute_error`)."""

    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, name=name, reduction=reduction, dtype=dtype)


class MeanAbsolutePercentageError(LossFunctionWrapper):
    """Mean absolute percentage error (:func:`mean_absolute_percentage_error`)."""

    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_percentage_error", dtype=None):
        super().__init__(mean_absolute_percentage_error, name=name, reduction=reduction, dtype=dtype)


class MeanSquaredLogarithmicError(LossFunctionWrapper):
    """Mean squared logarithmic error (:func:`mean_squared_logarithmic_error`)."""

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(mean_squared_logarithmic_error, name=name, reduction=reduction, dtype=dtype)


class CosineSimilarity(LossFunctionWrapper):
    """Negative cosine similarity along ``axis`` (:func:`cosine_similarity`).

    Args:
        axis: the axis of the vectors (default -1).
    """

    def __init__(self, axis=-1, reduction="sum_over_batch_size", name="cosine_similarity", dtype=None):
        super().__init__(cosine_similarity, name=name, reduction=reduction, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class Huber(LossFunctionWrapper):
    """Huber loss (:func:`huber`): quadratic for errors up to ``delta``, linear beyond.

    Args:
        delta: where the loss changes from quadratic to linear (default 1.0).
    """

    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss", dtype=None):
        super().__init__(huber, name=name, reduction=reduction, dtype=dtype, delta=delta)
        self.delta = delta

    def get_config(self):
        return {**super().get_config(), "delta": self.delta}


class LogCosh(LossFunctionWrapper):
    """Logarithm of the hyperbolic cosine of the error (:func:`log_cosh`)."""

    def __init__(self, reduction="sum_over_batch_size", name="log_cosh", dtype=None):
        super().__init__(log_cosh, name=name, reduction=reduction, dtype=dtype)
