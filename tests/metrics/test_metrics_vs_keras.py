"""Every metric against real Keras 3 (TensorFlow backend) on every backend: the same batches give the same
results after each update, with and without sample weights, and again after ``reset_state``."""

import numpy as np
import pytest

import highlevel as hl
import highlevel.losses  # noqa: F401  (hl.losses, used below)
from highlevel import metrics

keras = pytest.importorskip("keras")

RTOL, ATOL = 1e-6, 1e-6


def _probs(r, shape):
    x = r.uniform(0.01, 1.0, size=shape).astype("float32")
    return (x / x.sum(-1, keepdims=True)).astype("float32")


def _batch(kind, r, n=6):
    if kind == "regression":
        return r.normal(size=(n, 3)).astype("float32"), r.normal(size=(n, 3)).astype("float32")
    if kind == "positive":
        return r.uniform(0.1, 3, size=(n, 3)).astype("float32"), r.uniform(0.1, 3, size=(n, 3)).astype("float32")
    if kind == "binary":
        return r.integers(0, 2, size=(n, 3)).astype("float32"), r.uniform(0, 1, size=(n, 3)).astype("float32")
    if kind == "binary_col":
        return r.integers(0, 2, size=(n, 1)).astype("float32"), r.uniform(0, 1, size=(n, 1)).astype("float32")
    if kind == "binary_logits":
        logits = r.normal(scale=3, size=(n, 3)).astype("float32")
        logits[0, 0] = 1e4
        return r.integers(0, 2, size=(n, 3)).astype("float32"), logits
    if kind == "categorical":
        return np.eye(5, dtype="float32")[r.integers(0, 5, size=n)], _probs(r, (n, 5))
    if kind == "categorical_logits":
        return np.eye(5, dtype="float32")[r.integers(0, 5, size=n)], r.normal(scale=3, size=(n, 5)).astype("float32")
    if kind == "sparse":
        return r.integers(0, 5, size=(n,)).astype("int32"), _probs(r, (n, 5))
    if kind == "sparse_col":
        return r.integers(0, 5, size=(n, 1)).astype("int32"), _probs(r, (n, 5))
    if kind == "exact":
        y = r.integers(0, 3, size=(n, 2)).astype("float32")
        return y, np.where(r.uniform(size=(n, 2)) < 0.5, y, r.integers(0, 3, size=(n, 2))).astype("float32")
    if kind == "multilabel":
        return r.integers(0, 2, size=(n, 4)).astype("float32"), r.uniform(0, 1, size=(n, 4)).astype("float32")
    if kind == "hinge":
        return r.integers(0, 2, size=(n, 3)).astype("float32"), r.normal(size=(n, 3)).astype("float32")
    raise KeyError(kind)


CASES = [
    ("Accuracy", {}, "exact"),
    ("BinaryAccuracy", {}, "binary"),
    ("BinaryAccuracy", {"threshold": 0.3}, "binary_col"),
    ("CategoricalAccuracy", {}, "categorical"),
    ("SparseCategoricalAccuracy", {}, "sparse"),
    ("SparseCategoricalAccuracy", {}, "sparse_col"),
    ("TopKCategoricalAccuracy", {}, "categorical"),
    ("TopKCategoricalAccuracy", {"k": 2}, "categorical"),
    ("SparseTopKCategoricalAccuracy", {"k": 2}, "sparse"),
    ("SparseTopKCategoricalAccuracy", {"k": 3}, "sparse_col"),
    ("MeanSquaredError", {}, "regression"),
    ("RootMeanSquaredError", {}, "regression"),
    ("MeanAbsoluteError", {}, "regression"),
    ("MeanAbsolutePercentageError", {}, "regression"),
    ("MeanSquaredLogarithmicError", {}, "positive"),
    ("LogCoshError", {}, "regression"),
    ("CosineSimilarity", {}, "regression"),
    ("CosineSimilarity", {"axis": 0}, "regression"),
    ("R2Score", {}, "regression"),
    ("R2Score", {"class_aggregation": "variance_weighted_average"}, "regression"),
    ("R2Score", {"class_aggregation": None}, "regression"),
    ("R2Score", {"num_regressors": 2}, "regression"),
    ("BinaryCrossentropy", {}, "binary"),
    ("BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.1}, "binary_logits"),
    ("CategoricalCrossentropy", {}, "categorical"),
    ("CategoricalCrossentropy", {"from_logits": True, "label_smoothing": 0.2}, "categorical_logits"),
    ("SparseCategoricalCrossentropy", {}, "sparse"),
    ("SparseCategoricalCrossentropy", {"ignore_class": 1}, "sparse"),
    ("KLDivergence", {}, "categorical"),
    ("Poisson", {}, "positive"),
    ("Hinge", {}, "hinge"),
    ("SquaredHinge", {}, "hinge"),
    ("CategoricalHinge", {}, "categorical"),
    ("TruePositives", {}, "binary"),
    ("TrueNegatives", {"thresholds": [0.2, 0.6]}, "binary"),
    ("FalsePositives", {"thresholds": [0.0, 0.5, 1.0]}, "binary"),
    ("FalseNegatives", {"thresholds": 0.7}, "binary_col"),
    ("Precision", {}, "binary"),
    ("Precision", {"thresholds": [0.1, 0.4, 0.8]}, "binary"),
    ("Precision", {"thresholds": [0.0, 0.25, 0.5, 0.75, 1.0]}, "binary"),
    ("Precision", {"top_k": 2}, "multilabel"),
    ("Precision", {"class_id": 1}, "multilabel"),
    ("Precision", {"top_k": 2, "class_id": 0, "thresholds": 0.3}, "multilabel"),
    ("Recall", {}, "binary"),
    ("Recall", {"thresholds": [0.3, 0.6]}, "binary"),
    ("Recall", {"top_k": 1}, "multilabel"),
    ("Recall", {"class_id": 2}, "multilabel"),
    ("AUC", {}, "binary"),
    ("AUC", {"curve": "PR"}, "binary"),
    ("AUC", {"curve": "PR", "summation_method": "minoring"}, "binary"),
    ("AUC", {"summation_method": "majoring", "num_thresholds": 7}, "binary"),
    ("AUC", {"curve": "PRGAIN"}, "binary"),
    ("AUC", {"thresholds": [0.1, 0.35, 0.7]}, "binary"),
    ("AUC", {"multi_label": True}, "multilabel"),
    ("AUC", {"multi_label": True, "num_labels": 4, "curve": "PR"}, "multilabel"),
    ("AUC", {"multi_label": True, "label_weights": [0.1, 0.2, 0.3, 0.4]}, "multilabel"),
    ("AUC", {"label_weights": [0.5, 1.0, 2.0, 0.0]}, "multilabel"),
    ("AUC", {"from_logits": True}, "binary_logits"),
    ("F1Score", {}, "multilabel"),
    ("F1Score", {"average": "micro", "threshold": 0.5}, "multilabel"),
    ("F1Score", {"average": "macro"}, "multilabel"),
    ("F1Score", {"average": "weighted", "threshold": 0.4}, "multilabel"),
    ("FBetaScore", {"beta": 2.0}, "multilabel"),
    ("FBetaScore", {"beta": 0.5, "average": "macro", "threshold": 0.6}, "multilabel"),
]


def _ids(case):
    name, kwargs, kind = case
    return f"{name}-{kind}-" + "-".join(f"{k}={v}" for k, v in kwargs.items())


def _np(x):
    return np.asarray(hl.ops.convert_to_numpy(x))


def _check(got, want):
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_metric_matches_keras(backend, case, weighted):
    name, kwargs, kind = case
    ours, theirs = getattr(metrics, name)(**kwargs), getattr(keras.metrics, name)(**kwargs)
    r = np.random.default_rng(0)
    skip_weights = weighted and kwargs.get("axis") == 0
    batches = []
    for _ in range(3):
        y_true, y_pred = _batch(kind, r)
        sw = r.uniform(0, 2, size=(y_pred.shape[0],)).astype("float32") if weighted else None
        batches.append((y_true, y_pred, None if skip_weights else sw))
    for y_true, y_pred, sw in batches:
        ours.update_state(y_true, y_pred, sample_weight=sw)
        theirs.update_state(y_true, y_pred, sample_weight=sw)
        _check(_np(ours.result()), np.asarray(theirs.result()))
    ours.reset_state()
    theirs.reset_state()
    for v in ours.variables:
        assert not np.any(_np(v.value)), "reset_state must bring every variable back to zeros"
    y_true, y_pred, sw = batches[-1]
    ours.update_state(y_true, y_pred, sample_weight=sw)
    theirs.update_state(y_true, y_pred, sample_weight=sw)
    _check(_np(ours.result()), np.asarray(theirs.result()))


@pytest.mark.parametrize("weighted", [False, True])
def test_mean_and_sum_match_keras(backend, weighted):
    r = np.random.default_rng(1)
    for name in ("Mean", "Sum"):
        ours, theirs = getattr(metrics, name)(), getattr(keras.metrics, name)()
        for shape in [(5,), (5, 3), (5, 2, 2), ()]:
            values = r.normal(size=shape).astype("float32")
            sw = None
            if weighted and shape:
                sw = r.uniform(0, 1, size=shape[:1]).astype("float32")
            elif weighted:
                sw = 3.0
            ours.update_state(values, sample_weight=sw)
            theirs.update_state(values, sample_weight=sw)
            _check(_np(ours.result()), np.asarray(theirs.result()))


def test_loss_tracker_pattern(backend):
    """The trainer's use: one scalar per batch, weighted by the batch size."""
    tracker = metrics.Mean(name="loss")
    tracker.update_state(hl.ops.convert_to_tensor(2.0), sample_weight=32)
    tracker.update_state(hl.ops.convert_to_tensor(5.0), sample_weight=16)
    assert abs(float(_np(tracker.result())) - 3.0) < 1e-6
    tracker.name = "val_loss"
    assert tracker.name == "val_loss"
    assert all(not v.trainable for v in tracker.variables) and len(tracker.variables) == 2


def test_segmentation_sparse_metric_with_ignore_class(backend):
    r = np.random.default_rng(2)
    y_true = r.integers(0, 3, size=(2, 3, 4)).astype("int32")
    y_true[0, 0, :2] = 255
    y_pred = r.normal(size=(2, 3, 4, 3)).astype("float32")
    sw = r.uniform(0, 1, size=(2,)).astype("float32")
    kwargs = {"from_logits": True, "ignore_class": 255}
    # Keras 3 cannot combine per-sample weights with the per-pixel mask (a shape error); we broadcast them
    # per sample, which is what Keras gives for the explicitly broadcast weights.
    full = np.broadcast_to(sw[:, None, None], y_true.shape).copy()
    for s, ks in ((None, None), (sw, full), (full, full)):
        ours = metrics.SparseCategoricalCrossentropy(**kwargs)
        theirs = keras.metrics.SparseCategoricalCrossentropy(**kwargs)
        _check(_np(ours(y_true, y_pred, sample_weight=s)), np.asarray(theirs(y_true, y_pred, sample_weight=ks)))
        loss = hl.losses.SparseCategoricalCrossentropy(**kwargs)
        _check(
            _np(loss(y_true, y_pred, sample_weight=s)),
            np.asarray(keras.losses.SparseCategoricalCrossentropy(**kwargs)(y_true, y_pred, sample_weight=ks)),
        )
