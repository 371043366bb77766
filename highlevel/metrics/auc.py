"""The area under the ROC or precision-recall curve, approximated from confusion-matrix counts at
``num_thresholds`` thresholds (``keras.metrics.AUC``).

The thresholds are ``-epsilon, 1/(n-1), ..., (n-2)/(n-1), 1 + epsilon`` unless given. The area is a Riemann
sum over the curve's points; ``summation_method="interpolation"`` uses trapezoids (for PR, the
interpolation of Davis & Goadrich, 2006), ``"minoring"`` / ``"majoring"`` the lower / upper rectangles.

>>> m = AUC(num_thresholds=3)
>>> float(m([0, 0, 1, 1], [0, 0.5, 0.3, 0.9]))
0.75
>>> m = AUC(curve="PR", num_thresholds=3); round(float(m([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])), 4)
0.8207
"""

import numpy as np

from highlevel import ops
from highlevel.losses.reduction import divide_no_nan

from .confusion_matrix import is_evenly_distributed_thresholds, update_confusion_matrix_variables
from .metric import Metric

_EPSILON = 1e-7
_CURVES = {"roc": "ROC", "pr": "PR", "prgain": "PRGAIN"}
_SUMMATIONS = ("interpolation", "majoring", "minoring")


class AUC(Metric):
    """Area under the ROC curve (default) or the precision-recall curve.

    Args:
        num_thresholds: how many thresholds discretise the curve (default 200; > 1).
        curve: ``"ROC"`` (default), ``"PR"`` or ``"PRGAIN"``.
        summation_method: ``"interpolation"`` (default), ``"majoring"`` or ``"minoring"``.
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.
        thresholds: explicit thresholds in [0, 1] (then ``num_thresholds`` is their number + 2).
        multi_label: treat each column as its own binary problem and average their AUCs (otherwise all
            entries are flattened into one problem).
        num_labels: the number of labels with ``multi_label``; without it the state is created on the first
            update.
        label_weights: per-label weights of the average (multi-label) or of the counts.
        from_logits: predictions are logits (a sigmoid is applied first).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    Raises:
        ValueError: if ``curve`` or ``summation_method`` is not one of its values, ``num_thresholds`` is not above 1, or
            ``num_labels`` is given without ``multi_label=True``.

    >>> import highlevel as hl
    >>> round(float(hl.metrics.AUC()([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])), 4)
    0.75
    """

    def __init__(
        self,
        num_thresholds=200,
        curve="ROC",
        summation_method="interpolation",
        name=None,
        dtype=None,
        thresholds=None,
        multi_label=False,
        num_labels=None,
        label_weights=None,
        from_logits=False,
    ):
        curve_key = str(curve).lower()
        if curve_key not in _CURVES:
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are ["PR", "ROC", "PRGAIN"]')
        if str(summation_method).lower() not in _SUMMATIONS:
            raise ValueError(
                f'Invalid AUC summation method value: "{summation_method}". Expected values are '
                '["interpolation", "majoring", "minoring"]'
            )
        super().__init__(name=name, dtype=dtype)
        self.curve = _CURVES[curve_key]
        self.summation_method = str(summation_method).lower()
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            thresholds = sorted(float(t) for t in thresholds)
            self._thresholds_distributed_evenly = is_evenly_distributed_thresholds(np.array([0.0] + thresholds + [1.0]))
        else:
            if num_thresholds <= 1:
                raise ValueError(
                    f"Argument `num_thresholds` must be an integer > 1. Received: num_thresholds={num_thresholds}"
                )
            self.num_thresholds = num_thresholds
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self._thresholds_distributed_evenly = True
        self._thresholds = np.array([0.0 - _EPSILON] + thresholds + [1.0 + _EPSILON])
        self.multi_label = multi_label
        self.num_labels = num_labels
        self.label_weights = None if label_weights is None else [float(w) for w in np.ravel(label_weights)]
        self._from_logits = from_logits
        self.built = False
        if multi_label:
            if num_labels:
                self.build((None, num_labels))
        else:
            if num_labels:
                raise ValueError("`num_labels` is needed only when `multi_label` is True.")
            self.build(None)

    @property
    def thresholds(self):
        """The thresholds, including the two end points."""
        return list(self._thresholds)

    def build(self, y_pred_shape):
        """Creates the four count variables (``(num_thresholds,)``, or ``(num_thresholds, labels)`` when
        ``multi_label``, from ``y_pred_shape``)."""
        if self.multi_label:
            if y_pred_shape is None or len(y_pred_shape) != 2:
                raise ValueError(
                    "`y_pred` must have rank 2 when `multi_label=True`. Full shape received for "
                    f"`y_pred`: {y_pred_shape}"
                )
            self._num_labels = y_pred_shape[1]
            shape = (self.num_thresholds, self._num_labels)
        else:
            shape = (self.num_thresholds,)
        self.true_positives = self.add_variable(shape, "zeros", name="true_positives")
        self.false_positives = self.add_variable(shape, "zeros", name="false_positives")
        self.true_negatives = self.add_variable(shape, "zeros", name="true_negatives")
        self.false_negatives = self.add_variable(shape, "zeros", name="false_negatives")
        self.built = True

    def _label_weights(self):
        return None if self.label_weights is None else ops.convert_to_tensor(self.label_weights, dtype=self.dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = ops.convert_to_tensor(y_pred)
        if not self.built:
            self.build(ops.shape(y_pred))
        if self._from_logits:
            y_pred = ops.sigmoid(y_pred)
        update_confusion_matrix_variables(
            {
                "tp": self.true_positives,
                "tn": self.true_negatives,
                "fp": self.false_positives,
                "fn": self.false_negatives,
            },
            y_true,
            y_pred,
            list(self._thresholds),
            sample_weight=sample_weight,
            multi_label=self.multi_label,
            label_weights=None if self.multi_label else self._label_weights(),
            thresholds_distributed_evenly=self._thresholds_distributed_evenly,
        )

    def _by_label(self, terms):
        if not self.multi_label:
            return ops.sum(terms)
        by_label = ops.sum(terms, axis=0)
        if self.label_weights is None:
            return ops.mean(by_label)
        w = self._label_weights()
        return divide_no_nan(ops.sum(by_label * w), ops.sum(w))

    def interpolate_pr_auc(self):
        """The PR-AUC by Davis & Goadrich's interpolation between the threshold points."""
        n = self.num_thresholds
        head, tail = slice(None, n - 1), slice(1, None)
        tp = self.true_positives.value
        dtp = ops.getitem(tp, head) - ops.getitem(tp, tail)
        p = tp + self.false_positives.value
        p_head, p_tail = ops.getitem(p, head), ops.getitem(p, tail)
        dp = p_head - p_tail
        prec_slope = divide_no_nan(dtp, ops.maximum(dp, 0.0))
        intercept = ops.getitem(tp, tail) - prec_slope * p_tail
        both = ops.logical_and(ops.greater(p_head, 0.0), ops.greater(p_tail, 0.0))
        safe_p_ratio = ops.where(both, divide_no_nan(p_head, ops.maximum(p_tail, 0.0)), ops.ones_like(p_tail))
        positives_tail = ops.getitem(tp, tail) + ops.getitem(self.false_negatives.value, tail)
        increment = divide_no_nan(
            prec_slope * (dtp + intercept * ops.log(safe_p_ratio)), ops.maximum(positives_tail, 0.0)
        )
        return self._by_label(increment)

    def result(self):
        if not self.built:
            return ops.convert_to_tensor(0.0, dtype=self.dtype)
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self.interpolate_pr_auc()
        tp, fp = self.true_positives.value, self.false_positives.value
        tn, fn = self.true_negatives.value, self.false_negatives.value
        recall = divide_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = divide_no_nan(fp, fp + tn), recall
        elif self.curve == "PR":
            x, y = recall, divide_no_nan(tp, tp + fp)
        else:  # PRGAIN
            scaling = divide_no_nan(tp + fn, tn + fp)
            recall_gain = 1.0 - scaling * divide_no_nan(fn, tp)
            precision_gain = 1.0 - scaling * divide_no_nan(fp, tp)
            no_tp = ops.equal(tp, 0.0)
            recall_gain = ops.maximum(ops.where(no_tp, ops.zeros_like(recall_gain), recall_gain), 0.0)
            precision_gain = ops.where(no_tp, ops.ones_like(precision_gain), precision_gain)
            x, y = recall_gain, precision_gain
        n = self.num_thresholds
        y_head, y_tail = ops.getitem(y, slice(None, n - 1)), ops.getitem(y, slice(1, None))
        if self.summation_method == "interpolation":
            heights = (y_head + y_tail) / 2.0
        elif self.summation_method == "minoring":
            heights = ops.minimum(y_head, y_tail)
        else:
            heights = ops.maximum(y_head, y_tail)
        widths = ops.getitem(x, slice(None, n - 1)) - ops.getitem(x, slice(1, None))
        return self._by_label(widths * heights)

    def reset_state(self):
        if self.built:
            super().reset_state()

    def get_config(self):
        config = {
            **super().get_config(),
            "num_thresholds": self.num_thresholds,
            "curve": self.curve,
            "summation_method": self.summation_method,
            "multi_label": self.multi_label,
            "num_labels": self.num_labels,
            "label_weights": self.label_weights,
            "from_logits": self._from_logits,
        }
        if self._init_from_thresholds:
            config["thresholds"] = [float(t) for t in self._thresholds[1:-1]]
        return config
