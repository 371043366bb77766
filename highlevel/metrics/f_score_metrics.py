"""F-scores: the weighted harmonic mean of precision and recall, per class and averaged
(``keras.metrics.FBetaScore`` and ``F1Score``).

Inputs are 2-D ``(batch, classes)`` (one-hot or multi-hot labels). Without ``threshold`` the highest
prediction of each row is the positive one; with it, every prediction above it is positive. The state
variables are created on the first update (when the number of classes is known) or by ``build``.

>>> import numpy as np
>>> m = F1Score(threshold=0.5)
>>> y_true = np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0]], "float32")
>>> y_pred = np.array([[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]], "float32")
>>> import highlevel as hl
>>> [round(v, 4) for v in hl.ops.convert_to_numpy(m(y_true, y_pred)).tolist()]
[0.5, 0.8, 0.6667]
"""

from highlevel import ops

from .metric import Metric

_EPSILON = 1e-7


class FBetaScore(Metric):
    """``(1 + beta**2) * precision * recall / (beta**2 * precision + recall)`` per class, then averaged.

    Args:
        average: ``None`` (one score per class), ``"micro"`` (counts pooled over classes), ``"macro"`` (the
            mean of the class scores) or ``"weighted"`` (the mean weighted by each class's true count).
        beta: the weight of recall relative to precision (a positive float; default 1.0).
        threshold: a float in (0, 1], or ``None`` for "the row's maximum is positive".
        name: default ``"fbeta_score"``.
        dtype: the state dtype.

    Raises:
        ValueError: if ``average`` is not None, ``"micro"``, ``"macro"`` or ``"weighted"``; ``beta`` is not a float > 0;
            or ``threshold`` is not a float in ``(0, 1]``.

    >>> import highlevel as hl
    >>> import numpy as np
    >>> metric = hl.metrics.FBetaScore(beta=2.0, threshold=0.5)
    >>> y_true, y_pred = [[0, 1, 1], [1, 0, 0]], [[0.2, 0.6, 0.7], [0.2, 0.6, 0.6]]
    >>> np.round(hl.ops.convert_to_numpy(metric(y_true, y_pred)), 4)
    array([0.    , 0.8333, 0.8333], dtype=float32)
    """

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError(
                "Invalid `average` argument value. Expected one of: {None, 'micro', 'macro', "
                f"'weighted'}}. Received: average={average!r}"
            )
        if not isinstance(beta, float):
            raise ValueError(
                f"Invalid `beta` argument value. It should be a Python float. Received: beta={beta!r} "
                f"of type {type(beta).__name__}"
            )
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError(
                    "Invalid `threshold` argument value. It should be a Python float. Received: "
                    f"threshold={threshold!r} of type {type(threshold).__name__}"
                )
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError(
                    "Invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                    f"Received: threshold={threshold}"
                )
        self.average = average
        self.beta = beta
        self.threshold = threshold
        self.axis = None if average == "micro" else 0
        self.built = False

    def build(self, y_true_shape, y_pred_shape):
        """Creates the state for 2-D inputs of these shapes."""
        if len(y_pred_shape) != 2 or len(y_true_shape) != 2:
            raise ValueError(
                "FBetaScore expects 2D inputs with shape (batch_size, output_dim). Received input "
                f"shapes: y_pred.shape={tuple(y_pred_shape)} and y_true.shape={tuple(y_true_shape)}."
            )
        if y_pred_shape[-1] is None or y_true_shape[-1] is None:
            raise ValueError(
                f"FBetaScore expects the output dimension to be known; received y_pred.shape={tuple(y_pred_shape)}."
            )
        shape = () if self.average == "micro" else (y_pred_shape[-1],)
        self.true_positives = self.add_variable(shape, "zeros", dtype=self.dtype, name="true_positives")
        self.false_positives = self.add_variable(shape, "zeros", dtype=self.dtype, name="false_positives")
        self.false_negatives = self.add_variable(shape, "zeros", dtype=self.dtype, name="false_negatives")
        self.intermediate_weights = self.add_variable(shape, "zeros", dtype=self.dtype, name="intermediate_weights")
        self.built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = ops.convert_to_tensor(y_true, dtype=self.dtype)
        y_pred = ops.convert_to_tensor(y_pred, dtype=self.dtype)
        if not self.built:
            self.build(ops.shape(y_true), ops.shape(y_pred))
        if self.threshold is None:
            row_max = ops.max(y_pred, axis=-1, keepdims=True)
            # The row maximum is positive, unless it is (numerically) zero.
            y_pred = ops.logical_and(ops.greater_equal(y_pred, row_max), ops.greater(ops.abs(y_pred), 1e-9))
        else:
            y_pred = ops.greater(y_pred, self.threshold)
        y_pred = ops.cast(y_pred, self.dtype)
        if sample_weight is not None:
            sample_weight = ops.convert_to_tensor(sample_weight, dtype=self.dtype)

        def weighted_sum(val):
            if sample_weight is not None:
                val = val * ops.expand_dims(sample_weight, 1)
            return ops.sum(val, axis=self.axis)

        self.true_positives.assign_add(weighted_sum(y_pred * y_true))
        self.false_positives.assign_add(weighted_sum(y_pred * (1.0 - y_true)))
        self.false_negatives.assign_add(weighted_sum((1.0 - y_pred) * y_true))
        self.intermediate_weights.assign_add(weighted_sum(y_true))

    def result(self):
        if not self.built:
            return ops.convert_to_tensor(0.0, dtype=self.dtype)
        tp = self.true_positives.value
        precision = tp / (tp + self.false_positives.value + _EPSILON)
        recall = tp / (tp + self.false_negatives.value + _EPSILON)
        beta2 = self.beta**2
        score = precision * recall / (beta2 * precision + recall + _EPSILON) * (1.0 + beta2)
        if self.average == "weighted":
            w = self.intermediate_weights.value
            return ops.sum(score * (w / (ops.sum(w) + _EPSILON)))
        if self.average is not None:
            return ops.mean(score)
        return score

    def get_config(self):
        return {**super().get_config(), "average": self.average, "beta": self.beta, "threshold": self.threshold}


class F1Score(FBetaScore):
    """The F-score with ``beta = 1``: the harmonic mean of precision and recall.

    Args:
        average: ``None``, ``"micro"``, ``"macro"`` or ``"weighted"`` (see :class:`FBetaScore`).
        threshold: a float in (0, 1], or ``None`` for "the row's maximum is positive".
        name: default ``"f1_score"``.
        dtype: the state dtype.

    >>> import highlevel as hl
    >>> import numpy as np
    >>> metric = hl.metrics.F1Score(threshold=0.5)
    >>> y_true, y_pred = [[0, 1, 1], [1, 0, 0]], [[0.2, 0.6, 0.7], [0.2, 0.6, 0.6]]
    >>> np.round(hl.ops.convert_to_numpy(metric(y_true, y_pred)), 4)
    array([0.    , 0.6667, 0.6667], dtype=float32)
    """

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config
