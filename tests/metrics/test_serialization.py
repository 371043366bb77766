"""metrics.get / serialize / deserialize, get_config round trips and the Metric base-class contract."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import metrics
from highlevel.backends.contract import StatelessScope

CLASSES = sorted(
    {c for c in metrics.ALL_OBJECTS.values() if c not in (metrics.Metric, metrics.MeanMetricWrapper)},
    key=lambda c: c.__name__,
)


#: The constructor arguments without a default, for the metrics that have some.
_REQUIRED = {
    "IoU": {"num_classes": 3, "target_class_ids": [0, 2], "ignore_class": 1},
    "OneHotIoU": {"num_classes": 3, "target_class_ids": [1]},
    "MeanIoU": {"num_classes": 4, "sparse_y_pred": False},
    "OneHotMeanIoU": {"num_classes": 2},
    "PrecisionAtRecall": {"recall": 0.7, "num_thresholds": 50},
    "RecallAtPrecision": {"precision": 0.6, "class_id": 1},
    "SensitivityAtSpecificity": {"specificity": 0.5},
    "SpecificityAtSensitivity": {"sensitivity": 0.9, "num_thresholds": 1},
}


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_config_round_trip(cls):
    m = cls(name="custom", **_REQUIRED.get(cls.__name__, {}))
    again = metrics.deserialize(metrics.serialize(m))
    assert type(again) is cls and again.get_config() == m.get_config() and again.name == "custom"
    assert all(not v.trainable for v in m.variables)


@pytest.mark.parametrize(
    "name,cls",
    [
        ("accuracy", "Accuracy"),
        ("acc", "Accuracy"),
        ("binary_accuracy", "BinaryAccuracy"),
        ("categorical_accuracy", "CategoricalAccuracy"),
        ("sparse_categorical_accuracy", "SparseCategoricalAccuracy"),
        ("sparse_categorical_crossentropy", "SparseCategoricalCrossentropy"),
        ("mse", "MeanSquaredError"),
        ("MAE", "MeanAbsoluteError"),
        ("mape", "MeanAbsolutePercentageError"),
        ("msle", "MeanSquaredLogarithmicError"),
        ("auc", "AUC"),
        ("AUC", "AUC"),
        ("f1_score", "F1Score"),
        ("r2_score", "R2Score"),
        ("precision", "Precision"),
        ("top_k_categorical_accuracy", "TopKCategoricalAccuracy"),
        ("kl_divergence", "KLDivergence"),
        ("root_mean_squared_error", "RootMeanSquaredError"),
        ("bce", "BinaryCrossentropy"),
    ],
)
def test_get_names(name, cls):
    a, b = metrics.get(name), metrics.get(name)
    assert type(a) is getattr(metrics, cls) and a is not b  # a fresh instance each time


def test_get_forms():
    inst = metrics.Precision()
    assert metrics.get(inst) is inst and metrics.get(None) is None
    assert isinstance(metrics.get(metrics.Recall), metrics.Recall)
    got = metrics.get({"class_name": "BinaryAccuracy", "config": {"threshold": 0.7}})
    assert got.threshold == 0.7
    wrapped = metrics.get(hl.losses.mean_absolute_error)
    assert isinstance(wrapped, metrics.MeanMetricWrapper) and wrapped.name == "mean_absolute_error"
    again = metrics.deserialize(metrics.serialize(wrapped))
    assert again._fn is hl.losses.mean_absolute_error
    with pytest.raises(ValueError, match="Unknown metric 'nope'"):
        metrics.get("nope")


def test_settable_name_and_variables_and_reset(backend):
    m = metrics.AUC(num_thresholds=5)
    m.name = "val_auc"
    assert m.name == "val_auc" and len(m.variables) == 4
    m.update_state([0, 1, 1], [0.2, 0.8, 0.4])
    assert float(hl.ops.convert_to_numpy(m.result())) > 0
    m.reset_state()
    assert all(not np.any(hl.ops.convert_to_numpy(v.value)) for v in m.variables)


def test_sub_metrics_are_tracked():
    class Pair(metrics.Metric):
        def __init__(self):
            super().__init__(name="pair")
            self.a = metrics.Mean()
            self.b = metrics.Sum()

        def update_state(self, x):
            self.a.update_state(x)
            self.b.update_state(x)

        def result(self):
            return self.a.result() + self.b.result()

    p = Pair()
    assert len(p.variables) == 3
    p.update_state([1.0, 3.0])
    assert float(hl.ops.convert_to_numpy(p.result())) == 6.0
    p.reset_state()
    assert float(hl.ops.convert_to_numpy(p.result())) == 0.0


def test_update_is_pure_under_stateless_scope(backend):
    m = metrics.Mean()
    values = [hl.ops.zeros(()), hl.ops.zeros(())]
    with StatelessScope(dict(zip(m.variables, values))) as scope:
        m.update_state([2.0, 4.0])
        inside = float(hl.ops.convert_to_numpy(m.result()))
    assert inside == 3.0
    assert all(float(hl.ops.convert_to_numpy(v.value)) == 0.0 for v in m.variables)
    assert {id(v) for v in m.variables} == set(scope.assigned)
