"""Regression metrics: the means of the regression losses, root mean squared error, cosine similarity and
the coefficient of determination R².

>>> float(MeanSquaredError()([[0, 1], [0, 0]], [[1, 1], [0, 0]]))
0.25
>>> float(RootMeanSquaredError()([[0, 1], [0, 0]], [[1, 1], [0, 0]]))
0.5
>>> round(float(R2Score()([[1.0], [2.0], [3.0]], [[1.1], [1.9], [3.2]])), 4)
0.97
"""

import warnings

from highlevel import losses, ops
from highlevel.losses.host_values import concrete_value
from highlevel.losses.reduction import squeeze_or_expand_to_same_rank

from .metric import Metric
from .reduction_metrics import Mean, MeanMetricWrapper


def cosine_similarity(y_true, y_pred, axis=-1):
    """``sum(l2_normalize(y_true) * l2_normalize(y_pred), axis)`` (1 for aligned vectors).

    Args:
        y_true: the target vectors, shape ``(batch, ..., d)``.
        y_pred: the predicted vectors, the same shape.
        axis: the axis holding the vectors (default -1).

    Returns:
        A float tensor of the inputs' shape without ``axis``: 1 for vectors pointing the same way, -1 for opposite ones,
        0 for orthogonal ones.

    >>> import highlevel as hl
    >>> values = hl.metrics.cosine_similarity([[0.0, 1.0], [1.0, 1.0]], [[1.0, 0.0], [1.0, 1.0]])
    >>> [round(v, 4) for v in hl.ops.convert_to_numpy(values).tolist()]
    [0.0, 1.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=ops.dtype(y_pred))
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return ops.sum(
        losses.regression_losses.l2_normalize(y_true, axis) * losses.regression_losses.l2_normalize(y_pred, axis),
        axis=axis,
    )


class _SimpleWrapper(MeanMetricWrapper):
    """A MeanMetricWrapper whose only arguments are ``name`` and ``dtype``."""

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


class MeanSquaredError(_SimpleWrapper):
    """Mean of :func:`highlevel.losses.mean_squared_error` over all samples.

    Args:
        name: the metric's name (default ``"mean_squared_error"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.MeanSquaredError()([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]]))
    0.5
    """

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(losses.mean_squared_error, name=name, dtype=dtype)


class MeanAbsoluteError(_SimpleWrapper):
    """Mean of :func:`highlevel.losses.mean_absolute_error` over all samples.

    Args:
        name: the metric's name (default ``"mean_absolute_error"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.MeanAbsoluteError()([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]]))
    0.5
    """

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(losses.mean_absolute_error, name=name, dtype=dtype)


class MeanAbsolutePercentageError(_SimpleWrapper):
    """Mean of :func:`highlevel.losses.mean_absolute_percentage_error` over all samples.

    Args:
        name: the metric's name (default ``"mean_absolute_percentage_error"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.MeanAbsolutePercentageError()([[2.0, 4.0]], [[1.0, 5.0]]))
    37.5
    """

    def __init__(self, name="mean_absolute_percentage_error", dtype=None):
        super().__init__(losses.mean_absolute_percentage_error, name=name, dtype=dtype)


class MeanSquaredLogarithmicError(_SimpleWrapper):
    """Mean of :func:`highlevel.losses.mean_squared_logarithmic_error` over all samples.

    Args:
        name: the metric's name (default ``"mean_squared_logarithmic_error"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> round(float(hl.metrics.MeanSquaredLogarithmicError()([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]])), 4)
    0.2402
    """

    def __init__(self, name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(losses.mean_squared_logarithmic_error, name=name, dtype=dtype)


class LogCoshError(_SimpleWrapper):
    """Mean of :func:`highlevel.losses.log_cosh` over all samples (Keras' default name ``"logcosh"``).

    Args:
        name: the metric's name (default ``"logcosh"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> round(float(hl.metrics.LogCoshError()([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]])), 4)
    0.2169
    """

    def __init__(self, name="logcosh", dtype=None):
        super().__init__(losses.log_cosh, name=name, dtype=dtype)


class CosineSimilarity(MeanMetricWrapper):
    """Mean cosine similarity between labels and predictions along ``axis`` (1 = aligned).

    Args:
        axis: the axis of the vectors (default -1).
        name: the metric's name (default ``"cosine_similarity"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> round(float(hl.metrics.CosineSimilarity()([[0.0, 1.0], [1.0, 1.0]], [[1.0, 0.0], [1.0, 1.0]])), 4)
    0.5
    """

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(cosine_similarity, name=name, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "axis": self.axis}


class RootMeanSquaredError(Mean):
    """``sqrt`` of the mean squared error over all elements seen.

    Args:
        name: the metric's name (default ``"root_mean_squared_error"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> round(float(hl.metrics.RootMeanSquaredError()([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]])), 4)
    0.7071
    """

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = ops.convert_to_tensor(y_true, dtype=self.dtype)
        y_pred = ops.convert_to_tensor(y_pred, dtype=self.dtype)
        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        super().update_state(ops.square(y_pred - y_true), sample_weight=sample_weight)

    def result(self):
        return ops.sqrt(super().result())


class R2Score(Metric):
    """The coefficient of determination, per output column, then aggregated.

    Inputs are 2-D ``(batch, outputs)``; the state variables are created on the first update (when the
    number of outputs is known) or by :meth:`build`.

    Args:
        class_aggregation: ``"uniform_average"`` (default), ``"variance_weighted_average"`` or ``None``
            (one score per output).
        num_regressors: the number of independent variables, for the adjusted R² (0: plain R²).
        name: default ``"r2_score"``.
        dtype: the state dtype.

    Raises:
        ValueError: if ``class_aggregation`` is not one of its values or ``num_regressors`` is negative.

    >>> import highlevel as hl
    >>> round(float(hl.metrics.R2Score()([[1.0], [2.0], [3.0]], [[1.0], [2.0], [2.0]])), 4)
    0.5
    """

    def __init__(self, class_aggregation="uniform_average", num_regressors=0, name="r2_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        valid = (None, "uniform_average", "variance_weighted_average")
        if class_aggregation not in valid:
            raise ValueError(
                f"Invalid value for argument `class_aggregation`: received {class_aggregation!r}, "
                f"expected one of {valid}."
            )
        if num_regressors < 0:
            raise ValueError(
                f"Invalid value for argument `num_regressors`: received {num_regressors}, expected a value >= 0."
            )
        self.class_aggregation = class_aggregation
        self.num_regressors = num_regressors
        self.num_samples = self.add_variable((), "zeros", name="num_samples")
        self.built = False

    def build(self, y_true_shape, y_pred_shape):
        """Creates the per-output state for inputs of these shapes (2-D, last axis known)."""
        if len(y_pred_shape) != 2 or len(y_true_shape) != 2:
            raise ValueError(
                "R2Score expects 2D inputs with shape (batch_size, output_dim). Received input shapes: "
                f"y_pred.shape={tuple(y_pred_shape)} and y_true.shape={tuple(y_true_shape)}."
            )
        if y_pred_shape[-1] is None or y_true_shape[-1] is None:
            raise ValueError(
                f"R2Score expects the output dimension to be known; received y_pred.shape={tuple(y_pred_shape)}."
            )
        n = y_pred_shape[-1]
        self.squared_sum = self.add_variable((n,), "zeros", name="squared_sum")
        self.sum = self.add_variable((n,), "zeros", name="sum")
        self.total_mse = self.add_variable((n,), "zeros", name="residual")
        self.count = self.add_variable((n,), "zeros", name="count")
        self.built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = ops.convert_to_tensor(y_true, dtype=self.dtype)
        y_pred = ops.convert_to_tensor(y_pred, dtype=self.dtype)
        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        if not self.built:
            self.build(ops.shape(y_true), ops.shape(y_pred))
        sample_weight = ops.convert_to_tensor(1.0 if sample_weight is None else sample_weight, dtype=self.dtype)
        if len(ops.shape(sample_weight)) == 1:
            sample_weight = ops.expand_dims(sample_weight, axis=1)
        sample_weight = ops.broadcast_to(sample_weight, ops.shape(y_true))
        weighted_y_true = y_true * sample_weight
        self.sum.assign_add(ops.sum(weighted_y_true, axis=0))
        self.squared_sum.assign_add(ops.sum(y_true * weighted_y_true, axis=0))
        self.total_mse.assign_add(ops.sum(ops.square(y_true - y_pred) * sample_weight, axis=0))
        self.count.assign_add(ops.sum(sample_weight, axis=0))
        self.num_samples.assign_add(float(ops.size(y_true)))

    def result(self):
        if not self.built:
            return ops.convert_to_tensor(0.0, dtype=self.dtype)
        mean = self.sum.value / self.count.value
        total = self.squared_sum.value - self.sum.value * mean
        raw_scores = 1.0 - self.total_mse.value / total
        raw_scores = ops.where(ops.isinf(raw_scores), ops.zeros_like(raw_scores), raw_scores)
        if self.class_aggregation == "uniform_average":
            r2 = ops.mean(raw_scores)
        elif self.class_aggregation == "variance_weighted_average":
            r2 = ops.sum(total * raw_scores) / ops.sum(total)
        else:
            r2 = raw_scores
        if self.num_regressors == 0:
            return r2
        # Adjusted R²; Keras falls back to the plain score when there are too few samples. Chosen with
        # `where` so that it also holds under tracing; the warning is given only when the count is known.
        n = self.num_samples.value
        p = float(self.num_regressors)
        known = concrete_value(n)
        if known is not None and p >= float(known) - 1.0:
            warnings.warn(
                "More independent predictors than datapoints in adjusted R2 score. Falling back to standard R2 score.",
                stacklevel=2,
            )
        ok = ops.less(p, n - 1.0)
        safe_den = ops.where(ok, n - p - 1.0, ops.ones_like(n))
        adjusted = 1.0 - (1.0 - r2) * (n - 1.0) / safe_den
        return ops.where(ok, adjusted, r2)

    def get_config(self):
        return {
            **super().get_config(),
            "class_aggregation": self.class_aggregation,
            "num_regressors": self.num_regressors,
        }
