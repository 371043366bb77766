"""Every metric on every backend against the float64 numpy reference of reference_metrics.py: three
batches (with and without sample weights) accumulated, then compared."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import metrics

from . import reference_losses as L
from . import reference_metrics as R
from .tolerances import tolerance

#: Tolerances of this file beyond tolerances.py, each with its reason.
LOCAL_TOLERANCES = {
    "accumulating": (
        (2e-5, 2e-6),
        "metrics accumulate float32 sums over batches (and AUC/R2 divide "
        "differences of such sums), while the reference sums in float64",
    ),
    "bucket": (
        (2e-5, 1e-5),
        "with evenly spaced thresholds the counts come from the bucket method: "
        "tn = total_negatives - fp and fn = total_positives - tp, a float32 cancellation "
        "of the order of one ulp of the total weight (~30 here), as in Keras",
    ),
}
_BUCKET = ("TrueNegatives", "FalseNegatives", "AUC")


def _batches(kind, weighted, seed=0):
    r = np.random.default_rng(seed)
    out = []
    for _ in range(3):
        if kind == "regression":
            t, p = r.normal(size=(8, 3)), r.normal(size=(8, 3))
        elif kind == "positive":
            t, p = r.uniform(0.1, 3, size=(8, 3)), r.uniform(0.1, 3, size=(8, 3))
        elif kind == "binary":
            t, p = r.integers(0, 2, size=(8, 3)).astype(float), r.uniform(0, 1, size=(8, 3))
        elif kind == "categorical":
            p = r.uniform(0.01, 1, size=(8, 5))
            t, p = np.eye(5)[r.integers(0, 5, size=8)], p / p.sum(-1, keepdims=True)
        elif kind == "sparse":
            p = r.uniform(0.01, 1, size=(8, 5))
            t, p = r.integers(0, 5, size=8), p / p.sum(-1, keepdims=True)
        elif kind == "logits":
            p = r.normal(scale=3, size=(8, 5))
            p[0, 0] = 1e4
            t = r.integers(0, 5, size=8)
        t = t.astype("int32") if t.dtype.kind == "i" else t.astype("float32")
        out.append((t, p.astype("float32"), r.uniform(0, 2, size=8).astype("float32") if weighted else None))
    return out


CASES = [
    ("Accuracy", {}, "categorical", R.mean_of(lambda t, p: (t == p).astype(float))),
    ("BinaryAccuracy", {"threshold": 0.4}, "binary", R.mean_of(lambda t, p: R.binary_accuracy(t, p, 0.4))),
    ("CategoricalAccuracy", {}, "categorical", R.mean_of(R.categorical_accuracy)),
    ("SparseCategoricalAccuracy", {}, "sparse", R.mean_of(R.sparse_accuracy)),
    ("TopKCategoricalAccuracy", {"k": 2}, "categorical", R.mean_of(lambda t, p: R.top_k(np.argmax(t, -1), p, 2))),
    ("SparseTopKCategoricalAccuracy", {"k": 3}, "sparse", R.mean_of(lambda t, p: R.top_k(t, p, 3))),
    ("MeanSquaredError", {}, "regression", R.loss_mean(L.mse)),
    ("RootMeanSquaredError", {}, "regression", R.rmse),
    ("MeanAbsoluteError", {}, "regression", R.loss_mean(L.mae)),
    ("MeanAbsolutePercentageError", {}, "regression", R.loss_mean(L.mape)),
    ("MeanSquaredLogarithmicError", {}, "positive", R.loss_mean(L.msle)),
    ("LogCoshError", {}, "regression", R.loss_mean(L.log_cosh)),
    ("CosineSimilarity", {}, "regression", R.mean_of(lambda t, p: -L.cosine_similarity(t, p))),
    ("R2Score", {}, "regression", R.r2),
    ("BinaryCrossentropy", {}, "binary", R.loss_mean(L.binary_crossentropy)),
    (
        "CategoricalCrossentropy",
        {"label_smoothing": 0.1},
        "categorical",
        R.loss_mean(L.categorical_crossentropy, label_smoothing=0.1),
    ),
    ("SparseCategoricalCrossentropy", {}, "sparse", R.sparse_ce()),
    ("SparseCategoricalCrossentropy", {"from_logits": True}, "logits", R.sparse_ce(from_logits=True)),
    ("KLDivergence", {}, "categorical", R.loss_mean(L.kl_divergence)),
    ("Poisson", {}, "positive", R.loss_mean(L.poisson)),
    ("Hinge", {}, "binary", R.loss_mean(L.hinge)),
    ("SquaredHinge", {}, "binary", R.loss_mean(L.squared_hinge)),
    ("CategoricalHinge", {}, "categorical", R.loss_mean(L.categorical_hinge)),
    ("TruePositives", {"thresholds": [0.3, 0.6]}, "binary", lambda b: R.counts(b, [0.3, 0.6])[0]),
    ("FalsePositives", {}, "binary", lambda b: R.counts(b, [0.5])[1][0]),
    ("TrueNegatives", {"thresholds": [0.0, 0.5, 1.0]}, "binary", lambda b: R.counts(b, [0.0, 0.5, 1.0])[2]),
    ("FalseNegatives", {"thresholds": 0.2}, "binary", lambda b: R.counts(b, [0.2])[3][0]),
    ("Precision", {"thresholds": [0.2, 0.7]}, "binary", lambda b: R.precision(b, [0.2, 0.7])),
    ("Precision", {"top_k": 2}, "binary", lambda b: R.precision(b, [-1e10], top_k=2)[0]),
    ("Recall", {}, "binary", lambda b: R.recall(b)[0]),
    ("Recall", {"class_id": 1, "thresholds": 0.4}, "binary", lambda b: R.recall(b, [0.4], class_id=1)[0]),
    ("AUC", {}, "binary", R.auc),
    ("AUC", {"curve": "PR", "num_thresholds": 30}, "binary", lambda b: R.auc(b, 30, "PR")),
    ("F1Score", {"average": "macro"}, "binary", lambda b: R.fbeta(b, average="macro")),
    ("F1Score", {"threshold": 0.5}, "binary", lambda b: R.fbeta(b, threshold=0.5)),
    (
        "FBetaScore",
        {"beta": 2.0, "average": "weighted", "threshold": 0.3},
        "binary",
        lambda b: R.fbeta(b, beta=2.0, average="weighted", threshold=0.3),
    ),
    ("FBetaScore", {"beta": 0.5, "average": "micro"}, "binary", lambda b: R.fbeta(b, beta=0.5, average="micro")),
]


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] + "-" + "-".join(map(str, c[1].values())) for c in CASES])
def test_metric_matches_float64_reference(backend, case, weighted):
    name, kwargs, kind, reference = case
    batches = _batches(kind, weighted)
    m = getattr(metrics, name)(**kwargs)
    for t, p, sw in batches:
        m.update_state(t, p, sample_weight=sw)
    got = np.asarray(hl.ops.convert_to_numpy(m.result()))
    want = np.asarray(reference([(t, p.astype(np.float64), sw) for t, p, sw in batches]), np.float64)
    rtol, atol = tolerance(name, "float32", backend.name)
    local = LOCAL_TOLERANCES["bucket" if name in _BUCKET else "accumulating"][0]
    rtol, atol = max(rtol, local[0]), max(atol, local[1])
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)
