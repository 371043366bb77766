"""``MonitorCallback``: the base of callbacks that watch one logged quantity and decide what counts as better.

>>> cb = MonitorCallback(monitor="val_loss")
>>> cb.set_model(None); cb._set_monitor_op()
>>> cb._is_improvement(0.5, 0.7), cb._is_improvement(0.9, 0.7), cb._is_improvement(0.9, None)
(True, False, True)
"""

import operator
import warnings

from .callback import Callback

# Keras metrics carry a ``_direction`` ("up" or "down"); highlevel's metrics may not, so the direction of a
# metric class is also looked up here by name (walking its MRO, so subclasses inherit it).
_UP_METRICS = frozenset(
    {
        "Accuracy",
        "BinaryAccuracy",
        "CategoricalAccuracy",
        "SparseCategoricalAccuracy",
        "TopKCategoricalAccuracy",
        "SparseTopKCategoricalAccuracy",
        "AUC",
        "Precision",
        "Recall",
        "PrecisionAtRecall",
        "RecallAtPrecision",
        "SensitivityAtSpecificity",
        "SpecificityAtSensitivity",
        "FBetaScore",
        "F1Score",
        "R2Score",
        "CosineSimilarity",
        "IoU",
        "BinaryIoU",
        "MeanIoU",
        "OneHotIoU",
        "OneHotMeanIoU",
        "PearsonCorrelation",
        "ConcordanceCorrelation",
    }
)
_DOWN_METRICS = frozenset(
    {
        "MeanSquaredError",
        "MeanAbsoluteError",
        "MeanAbsolutePercentageError",
        "MeanSquaredLogarithmicError",
        "RootMeanSquaredError",
        "LogCoshError",
        "BinaryCrossentropy",
        "CategoricalCrossentropy",
        "SparseCategoricalCrossentropy",
        "KLDivergence",
        "Poisson",
        "Hinge",
        "SquaredHinge",
        "CategoricalHinge",
        "MeanMetricWrapper",
    }
)


def metric_direction(metric):
    """``"up"``, ``"down"`` or None: whether larger or smaller values of ``metric`` are better."""
    direction = getattr(metric, "_direction", None)
    if direction in ("up", "down"):
        return direction
    for cls in type(metric).__mro__:
        if cls.__name__ in _UP_METRICS:
            return "up"
        if cls.__name__ in _DOWN_METRICS:
            return "down"
    return None


class MonitorCallback(Callback):
    """Base class of callbacks that monitor a quantity in the epoch logs (``keras.callbacks.MonitorCallback``).

    Args:
        monitor: the name of the quantity in the logs, e.g. ``"val_loss"`` or ``"accuracy"``.
        mode: ``"min"`` (smaller is better), ``"max"`` or ``"auto"``: inferred from the name (losses are
            minimised) or from the model's compiled metric of that name (accuracies are maximised). An unknown
            mode warns and falls back to ``"auto"``, as in Keras.
        baseline: the initial best value; None starts from the first monitored value.
        min_delta: a change smaller than this (in absolute value) is not an improvement.

    >>> import highlevel as hl
    >>> class CountImprovements(hl.callbacks.MonitorCallback):
    ...     def on_train_begin(self, logs=None):
    ...         self._set_monitor_op()  # "loss" is minimized
    ...         self.count = 0
    ...     def on_epoch_end(self, epoch, logs=None):
    ...         value = logs[self.monitor]
    ...         if self._is_improvement(value, self.best):
    ...             self.best, self.count = value, self.count + 1
    >>> callback = CountImprovements(monitor="loss", min_delta=0.05)
    >>> callback.set_model(hl.Sequential([hl.layers.Dense(1)]))
    >>> callback.on_train_begin()
    >>> for epoch, loss in enumerate([1.0, 0.9, 0.88, 0.5]):
    ...     callback.on_epoch_end(epoch, {"loss": loss})
    >>> callback.count, callback.best
    (3, 0.5)
    """

    def __init__(self, monitor="val_loss", mode="auto", baseline=None, min_delta=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{type(self).__name__} mode '{mode}' is unknown, fallback to auto mode.", stacklevel=2)
            mode = "auto"
        self.monitor = monitor
        self.mode = mode
        self.best = baseline
        self.min_delta = abs(min_delta)
        self.monitor_op = None

    def _set_monitor_op(self):
        """Chooses ``monitor_op`` (``operator.lt`` or ``operator.gt``); called once the model's metrics exist."""
        if self.mode == "min":
            self.monitor_op = operator.lt
            return
        if self.mode == "max":
            self.monitor_op = operator.gt
            return
        name = self.monitor[len("val_") :] if self.monitor.startswith("val_") else self.monitor
        op = operator.lt if name == "loss" else None
        for m in getattr(self.model, "metrics", None) or []:
            if getattr(m, "name", None) == name:
                direction = metric_direction(m)
                if direction is not None:
                    op = operator.gt if direction == "up" else operator.lt
        if op is None:
            raise ValueError(
                f"{type(self).__name__} callback received monitor={self.monitor}, but cannot determine whether "
                "that metric should be maximized or minimized. Pass `mode='max'` in order to monitor based on "
                "the highest metric value, or pass `mode='min'` in order to use the lowest value."
            )
        self.monitor_op = op

    def _is_improvement(self, monitor_value, reference_value):
        """Whether ``monitor_value`` beats ``reference_value`` by more than ``min_delta`` (None is always beaten)."""
        if reference_value is None:
            return True
        if self.monitor_op is operator.lt:
            return bool(monitor_value + self.min_delta < reference_value)
        return bool(monitor_value - self.min_delta > reference_value)
