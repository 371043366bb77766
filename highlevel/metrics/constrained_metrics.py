"""One rate read at the best threshold that keeps another rate at a required level: SensitivityAtSpecificity,
SpecificityAtSensitivity, PrecisionAtRecall and RecallAtPrecision (``keras.metrics``).

The four confusion-matrix counts are kept at ``num_thresholds`` evenly spaced thresholds ``0, 1/(n-1), ..., 1``
(a prediction is positive when ``y_pred > threshold``); the result is the largest value of the reported rate
among the thresholds where the constrained rate is at least the required one (0 when there is none).

>>> m = PrecisionAtRecall(recall=0.5, num_thresholds=5)
>>> round(float(m([0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9])), 4)
1.0
>>> round(float(SpecificityAtSensitivity(1.0, num_thresholds=5)([0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9])), 4)
0.5
"""

from highlevel import ops
from highlevel.losses.reduction import divide_no_nan

from .confusion_matrix import update_confusion_matrix_variables
from .metric import Metric


def _check_rate(name, value):
    if not 0 <= value <= 1:
        raise ValueError(
            f"Argument `{name}` must be in the range [0, 1]; received {name}={value!r}. Give the required "
            f"{name} as a fraction, e.g. {name}=0.8."
        )


class _RateAtRate(Metric):
    """The counts at evenly spaced thresholds and the search for the best one. Subclasses name the
    constraint (``_constraint``) and give the two rates (``_rates``: constrained, reported)."""

    _constraint = None
    _direction = "up"  # larger is better (for callbacks that monitor it)

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        _check_rate(self._constraint, value)
        if not isinstance(num_thresholds, int) or num_thresholds <= 0:
            raise ValueError(
                f"Argument `num_thresholds` must be an integer > 0; received num_thresholds={num_thresholds!r}."
            )
        super().__init__(name=name, dtype=dtype)
        setattr(self, self._constraint, value)
        self.value = value
        self.num_thresholds = num_thresholds
        self.class_id = class_id
        if num_thresholds == 1:
            self.thresholds, self._evenly = [0.5], False
        else:
            inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self.thresholds, self._evenly = [0.0, *inner, 1.0], True
        n = len(self.thresholds)
        self.true_positives = self.add_variable((n,), "zeros", name="true_positives")
        self.false_positives = self.add_variable((n,), "zeros", name="false_positives")
        self.true_negatives = self.add_variable((n,), "zeros", name="true_negatives")
        self.false_negatives = self.add_variable((n,), "zeros", name="false_negatives")

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_confusion_matrix_variables(
            {
                "tp": self.true_positives,
                "fp": self.false_positives,
                "tn": self.true_negatives,
                "fn": self.false_negatives,
            },
            y_true,
            y_pred,
            thresholds=self.thresholds,
            thresholds_distributed_evenly=self._evenly,
            class_id=self.class_id,
            sample_weight=sample_weight,
        )

    def _sensitivity(self):
        tp = self.true_positives.value
        return divide_no_nan(tp, tp + self.false_negatives.value)

    def _specificity(self):
        tn = self.true_negatives.value
        return divide_no_nan(tn, tn + self.false_positives.value)

    def _precision(self):
        tp = self.true_positives.value
        return divide_no_nan(tp, tp + self.false_positives.value)

    def result(self):
        constrained, reported = self._rates()
        feasible = ops.greater_equal(constrained, self.value)
        return ops.max(ops.where(feasible, reported, ops.zeros_like(reported)), initial=0.0)

    def get_config(self):
        return {
            **super().get_config(),
            "class_id": self.class_id,
            "num_thresholds": self.num_thresholds,
            self._constraint: self.value,
        }


class SensitivityAtSpecificity(_RateAtRate):
    """The best sensitivity (recall) among the thresholds whose specificity is at least ``specificity``.

    Args:
        specificity: the required specificity, in [0, 1].
        num_thresholds: how many evenly spaced thresholds are tried (default 200; 1 means just 0.5).
        class_id: only this class (column) is counted.
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> round(float(SensitivityAtSpecificity(0.5, num_thresholds=5)([0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9])), 4)
    1.0
    """

    _constraint = "specificity"

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(specificity, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def _rates(self):
        return self._specificity(), self._sensitivity()


class SpecificityAtSensitivity(_RateAtRate):
    """The best specificity among the thresholds whose sensitivity (recall) is at least ``sensitivity``.

    Args:
        sensitivity: the required sensitivity, in [0, 1].
        num_thresholds: how many evenly spaced thresholds are tried (default 200; 1 means just 0.5).
        class_id: only this class (column) is counted.
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> SpecificityAtSensitivity(0.9).get_config()["sensitivity"]
    0.9
    """

    _constraint = "sensitivity"

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(sensitivity, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def _rates(self):
        return self._sensitivity(), self._specificity()


class PrecisionAtRecall(_RateAtRate):
    """The best precision among the thresholds whose recall is at least ``recall``.

    Args:
        recall: the required recall, in [0, 1].
        num_thresholds: how many evenly spaced thresholds are tried (default 200; 1 means just 0.5).
        class_id: only this class (column) is counted.
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> PrecisionAtRecall(0.7).get_config()["recall"]
    0.7
    """

    _constraint = "recall"

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(recall, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def _rates(self):
        return self._sensitivity(), self._precision()


class RecallAtPrecision(_RateAtRate):
    """The best recall among the thresholds whose precision is at least ``precision``.

    Args:
        precision: the required precision, in [0, 1].
        num_thresholds: how many evenly spaced thresholds are tried (default 200; 1 means just 0.5).
        class_id: only this class (column) is counted.
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> round(float(RecallAtPrecision(1.0, num_thresholds=5)([0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9])), 4)
    0.5
    """

    _constraint = "precision"

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(precision, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def _rates(self):
        return self._precision(), self._sensitivity()
