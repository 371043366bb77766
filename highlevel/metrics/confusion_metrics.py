"""Counts and ratios of the confusion matrix at given thresholds: TruePositives, TrueNegatives,
FalsePositives, FalseNegatives, Precision and Recall.

A prediction is positive when ``y_pred > threshold``. With one threshold the result is a scalar; with a
list, one value per threshold.

>>> float(TruePositives()([0, 1, 1, 1], [1, 0, 1, 1]))
2.0
>>> round(float(Precision()([0, 1, 1, 1], [1, 0, 1, 1])), 4)
0.6667
>>> import highlevel as hl
>>> r = Recall(thresholds=[0.3, 0.7])([0, 1, 1, 1], [0.2, 0.4, 0.6, 0.9])
>>> [round(v, 4) for v in hl.ops.convert_to_numpy(r).tolist()]
[1.0, 0.3333]
"""

from highlevel import ops
from highlevel.losses.reduction import divide_no_nan

from .confusion_matrix import (
    NEG_INF,
    is_evenly_distributed_thresholds,
    parse_init_thresholds,
    update_confusion_matrix_variables,
)
from .metric import Metric


def _first_or_all(values, thresholds):
    return ops.getitem(values, 0) if len(thresholds) == 1 else values


class _ConfusionMatrixConditionCount(Metric):
    """One confusion-matrix count (``"tp"``, ``"fp"``, ``"tn"`` or ``"fn"``) at each threshold."""

    _condition = None

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.thresholds = parse_init_thresholds(thresholds, default_threshold=0.5)
        self._thresholds_distributed_evenly = is_evenly_distributed_thresholds(self.thresholds)
        self.accumulator = self.add_variable((len(self.thresholds),), "zeros", name="accumulator")

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_confusion_matrix_variables(
            {self._condition: self.accumulator},
            y_true,
            y_pred,
            thresholds=self.thresholds,
            sample_weight=sample_weight,
            thresholds_distributed_evenly=self._thresholds_distributed_evenly,
        )

    def result(self):
        return _first_or_all(self.accumulator.value, self.thresholds)

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds}


class TruePositives(_ConfusionMatrixConditionCount):
    """The (weighted) number of true positives.

    Args:
        thresholds: a float or a list of floats in [0, 1] (default 0.5).
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.TruePositives()([0, 1, 1, 1], [1, 0, 1, 1]))
    2.0
    """

    _condition = "tp"


class TrueNegatives(_ConfusionMatrixConditionCount):
    """The (weighted) number of true negatives.

    Args:
        thresholds: a float or a list of floats in [0, 1] (default 0.5).
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.TrueNegatives()([0, 0, 1, 1], [0, 1, 1, 1]))
    1.0
    """

    _condition = "tn"


class FalsePositives(_ConfusionMatrixConditionCount):
    """The (weighted) number of false positives.

    Args:
        thresholds: a float or a list of floats in [0, 1] (default 0.5).
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.FalsePositives()([0, 1, 1, 1], [1, 0, 1, 1]))
    1.0
    """

    _condition = "fp"


class FalseNegatives(_ConfusionMatrixConditionCount):
    """The (weighted) number of false negatives.

    Args:
        thresholds: a float or a list of floats in [0, 1] (default 0.5).
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.FalseNegatives()([0, 1, 1, 1], [1, 0, 1, 1]))
    1.0
    """

    _condition = "fn"


class _PrecisionRecall(Metric):
    _other = None  # the count besides true positives: "fp" for precision, "fn" for recall
    _other_name = None

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.top_k = top_k
        self.class_id = class_id
        # With top_k and no thresholds, every top-k prediction counts as positive.
        default = 0.5 if top_k is None else NEG_INF
        self.thresholds = parse_init_thresholds(thresholds, default_threshold=default)
        self._thresholds_distributed_evenly = is_evenly_distributed_thresholds(self.thresholds)
        self.true_positives = self.add_variable((len(self.thresholds),), "zeros", name="true_positives")
        setattr(self, self._other_name, self.add_variable((len(self.thresholds),), "zeros", name=self._other_name))

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_confusion_matrix_variables(
            {"tp": self.true_positives, self._other: getattr(self, self._other_name)},
            y_true,
            y_pred,
            thresholds=self.thresholds,
            thresholds_distributed_evenly=self._thresholds_distributed_evenly,
            top_k=self.top_k,
            class_id=self.class_id,
            sample_weight=sample_weight,
        )

    def result(self):
        tp = self.true_positives.value
        values = divide_no_nan(tp, tp + getattr(self, self._other_name).value)
        return _first_or_all(values, self.thresholds)

    def get_config(self):
        return {
            **super().get_config(),
            "thresholds": self.init_thresholds,
            "top_k": self.top_k,
            "class_id": self.class_id,
        }


class Precision(_PrecisionRecall):
    """``true_positives / (true_positives + false_positives)`` (0 when nothing is predicted positive).

    Args:
        thresholds: a float or a list of floats in [0, 1] (default 0.5; with ``top_k`` and no thresholds,
            every top-k prediction is positive).
        top_k: only the ``top_k`` highest predictions of each row may be positive.
        class_id: only this class (column) is counted.
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> round(float(hl.metrics.Precision()([0, 1, 1, 1], [1, 0, 1, 1])), 4)
    0.6667
    """

    _other, _other_name = "fp", "false_positives"


class Recall(_PrecisionRecall):
    """``true_positives / (true_positives + false_negatives)`` (0 when there are no positive labels).

    Args:
        thresholds: a float or a list of floats in [0, 1] (default 0.5; with ``top_k`` and no thresholds,
            every top-k prediction is positive).
        top_k: only the ``top_k`` highest predictions of each row may be positive.
        class_id: only this class (column) is counted.
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> round(float(hl.metrics.Recall()([0, 1, 1, 0], [1, 0, 1, 1])), 4)
    0.5
    """

    _other, _other_name = "fn", "false_negatives"
