"""Every loss on every backend against the float64 numpy reference of reference_losses.py, in float32 and
(where the engine has it) float64, for every reduction and with sample weights."""

import numpy as np
import pytest

import highlevel as hl
import highlevel.losses  # noqa: F401
from highlevel import losses

from . import reference_losses as ref
from .tolerances import tolerance

#: Tolerances of this file beyond tolerances.py, each with its reason.
LOCAL_TOLERANCES = {
    "float64": (
        (1e-9, 1e-12),
        "the losses chain logs, exps and sums whose float64 libm variants (SLEEF, "
        "Eigen, XLA) differ in the last bits, as _TRANSCENDENTAL in tolerances.py",
    ),
    "float32": (
        (1e-5, 3e-6),
        "losses are built from transcendental ops (log, exp, log_softmax) and sums: the "
        "float32 transcendental tolerance of tolerances.py",
    ),
}


def _data(kind, seed=0):
    r = np.random.default_rng(seed)
    if kind == "regression":
        return r.normal(size=(5, 3)), r.normal(size=(5, 3))
    if kind == "positive":
        return r.uniform(0.1, 3, size=(5, 3)), r.uniform(0.1, 3, size=(5, 3))
    if kind == "binary":
        return r.integers(0, 2, size=(5, 3)).astype(float), r.uniform(0.01, 0.99, size=(5, 3))
    if kind == "binary_logits":
        x = r.normal(scale=3, size=(5, 3))
        x[0, 0], x[1, 1] = 1e4, -1e4
        return r.integers(0, 2, size=(5, 3)).astype(float), x
    if kind in ("categorical", "categorical_logits", "sparse", "sparse_logits"):
        labels = r.integers(0, 4, size=5)
        if kind.endswith("logits"):
            p = r.normal(scale=3, size=(5, 4))
            p[0, 0], p[1, 2] = 1e4, -1e4
        else:
            p = r.uniform(0.01, 1, size=(5, 4))
            p /= p.sum(-1, keepdims=True)
        return (labels if kind.startswith("sparse") else np.eye(4)[labels]), p
    if kind == "distribution":
        a, b = r.uniform(0.01, 1, size=(2, 5, 3))
        return a / a.sum(-1, keepdims=True), b / b.sum(-1, keepdims=True)
    if kind == "hinge":
        return r.integers(0, 2, size=(5, 3)).astype(float), r.normal(size=(5, 3))
    raise KeyError(kind)


CASES = [
    ("MeanSquaredError", {}, "regression", ref.mse),
    ("MeanAbsoluteError", {}, "regression", ref.mae),
    ("MeanAbsolutePercentageError", {}, "regression", ref.mape),
    ("MeanSquaredLogarithmicError", {}, "positive", ref.msle),
    ("Huber", {"delta": 0.6}, "regression", lambda t, p: ref.huber(t, p, 0.6)),
    ("LogCosh", {}, "regression", ref.log_cosh),
    ("CosineSimilarity", {}, "regression", ref.cosine_similarity),
    (
        "BinaryCrossentropy",
        {"label_smoothing": 0.1},
        "binary",
        lambda t, p: ref.binary_crossentropy(t, p, label_smoothing=0.1),
    ),
    (
        "BinaryCrossentropy",
        {"from_logits": True},
        "binary_logits",
        lambda t, p: ref.binary_crossentropy(t, p, from_logits=True),
    ),
    (
        "BinaryFocalCrossentropy",
        {"apply_class_balancing": True, "gamma": 1.5},
        "binary",
        lambda t, p: ref.binary_focal_crossentropy(t, p, apply_class_balancing=True, gamma=1.5),
    ),
    (
        "BinaryFocalCrossentropy",
        {"from_logits": True, "label_smoothing": 0.2},
        "binary_logits",
        lambda t, p: ref.binary_focal_crossentropy(t, p, from_logits=True, label_smoothing=0.2),
    ),
    (
        "CategoricalCrossentropy",
        {"label_smoothing": 0.2},
        "categorical",
        lambda t, p: ref.categorical_crossentropy(t, p, label_smoothing=0.2),
    ),
    (
        "CategoricalCrossentropy",
        {"from_logits": True},
        "categorical_logits",
        lambda t, p: ref.categorical_crossentropy(t, p, from_logits=True),
    ),
    (
        "CategoricalFocalCrossentropy",
        {"alpha": 0.4},
        "categorical",
        lambda t, p: ref.categorical_focal_crossentropy(t, p, alpha=0.4),
    ),
    (
        "CategoricalFocalCrossentropy",
        {"from_logits": True},
        "categorical_logits",
        lambda t, p: ref.categorical_focal_crossentropy(t, p, from_logits=True),
    ),
    ("SparseCategoricalCrossentropy", {}, "sparse", lambda t, p: ref.sparse_categorical_crossentropy(t, p)),
    (
        "SparseCategoricalCrossentropy",
        {"from_logits": True, "ignore_class": 2},
        "sparse_logits",
        lambda t, p: ref.sparse_categorical_crossentropy(t, p, from_logits=True, ignore_class=2),
    ),
    ("KLDivergence", {}, "distribution", ref.kl_divergence),
    ("Poisson", {}, "positive", ref.poisson),
    ("Hinge", {}, "hinge", ref.hinge),
    ("SquaredHinge", {}, "hinge", ref.squared_hinge),
    ("CategoricalHinge", {}, "categorical", ref.categorical_hinge),
]


def _tol(name, dtype, backend_name):
    base = tolerance(name, dtype, backend_name)
    local = LOCAL_TOLERANCES[dtype][0]
    return max(base[0], local[0]), max(base[1], local[1])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["sum_over_batch_size", "sum", "mean_with_sample_weight", "none"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] + "-" + "-".join(map(str, c[1].values())) for c in CASES])
def test_loss_matches_float64_reference(backend, case, reduction, dtype):
    if dtype == "float64" and not backend.capabilities.supports_float64:
        pytest.skip("no float64 on this engine")
    name, kwargs, kind, reference = case
    y_true, y_pred = _data(kind)
    y_true = y_true.astype(dtype) if y_true.dtype.kind == "f" else y_true.astype("int32")
    y_pred = y_pred.astype(dtype)
    sw = np.random.default_rng(9).uniform(0, 2, size=(y_pred.shape[0],)).astype(dtype)
    loss = getattr(losses, name)(reduction=reduction, dtype=dtype, **kwargs)
    rtol, atol = _tol(name, dtype, backend.name)
    for weights in (None, sw):
        got = np.asarray(hl.ops.convert_to_numpy(loss(y_true, y_pred, sample_weight=weights)))
        values = reference(y_true.astype(np.float64), y_pred.astype(np.float64))
        values, mask = values if isinstance(values, tuple) else (values, None)
        want = ref.reduce(values, None if weights is None else weights.astype(np.float64), mask, reduction)
        assert str(got.dtype) == dtype
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=f"{name} {kwargs} sw={weights is not None}")
