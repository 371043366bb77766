"""Every loss against real Keras 3 (TensorFlow backend) on every backend: same inputs, same numbers.

Covers each class with its options (from_logits with logits of +-1e4, label smoothing, ignore_class,
axis), every reduction, and sample weights of shape (batch,), (batch, 1) and per element.
"""

import numpy as np
import pytest

import highlevel as hl
from highlevel import losses

RTOL, ATOL = 1e-6, 1e-6

keras = pytest.importorskip("keras")

REDUCTIONS = ["sum_over_batch_size", "sum", "mean", "mean_with_sample_weight", "none", None]


def _rng(seed=0):
    return np.random.default_rng(seed)


def _probs(shape, seed=0):
    x = _rng(seed).uniform(0.01, 1.0, size=shape).astype("float32")
    return (x / x.sum(-1, keepdims=True)).astype("float32")


def _onehot(labels, n):
    return np.eye(n, dtype="float32")[labels]


def _data(kind, seed=0):
    """(y_true, y_pred) numpy float32 pairs for each family of loss."""
    r = _rng(seed)
    if kind == "regression":
        return r.normal(size=(4, 3)).astype("float32"), r.normal(size=(4, 3)).astype("float32")
    if kind == "positive":
        return r.uniform(0.1, 3, size=(4, 3)).astype("float32"), r.uniform(0.1, 3, size=(4, 3)).astype("float32")
    if kind == "binary":
        return r.integers(0, 2, size=(4, 3)).astype("float32"), r.uniform(0.01, 0.99, size=(4, 3)).astype("float32")
    if kind == "binary_logits":
        logits = r.normal(scale=3, size=(4, 3)).astype("float32")
        logits[0, 0], logits[1, 1], logits[2, 2] = 1e4, -1e4, 1e4
        return r.integers(0, 2, size=(4, 3)).astype("float32"), logits
    if kind == "categorical":
        return _onehot(r.integers(0, 4, size=5), 4), _probs((5, 4), seed)
    if kind == "categorical_logits":
        logits = r.normal(scale=3, size=(5, 4)).astype("float32")
        logits[0, 0], logits[1, 2], logits[2, 1] = 1e4, -1e4, 1e4
        return _onehot(r.integers(0, 4, size=5), 4), logits
    if kind == "sparse":
        return r.integers(0, 4, size=5).astype("int32"), _probs((5, 4), seed)
    if kind == "sparse_logits":
        logits = r.normal(scale=3, size=(5, 4)).astype("float32")
        logits[0, 0], logits[1, 2] = 1e4, -1e4
        return r.integers(0, 4, size=5).astype("int32"), logits
    if kind == "distribution":
        return _probs((4, 3), seed + 1), _probs((4, 3), seed)
    if kind == "hinge01":
        return r.integers(0, 2, size=(4, 3)).astype("float32"), r.normal(size=(4, 3)).astype("float32")
    if kind == "hinge_pm1":
        return (2 * r.integers(0, 2, size=(4, 3)) - 1).astype("float32"), r.normal(size=(4, 3)).astype("float32")
    raise KeyError(kind)


# (our/keras class name, constructor kwargs, data kind)
CASES = [
    ("MeanSquaredError", {}, "regression"),
    ("MeanAbsoluteError", {}, "regression"),
    ("MeanAbsolutePercentageError", {}, "regression"),
    ("MeanSquaredLogarithmicError", {}, "positive"),
    ("Huber", {}, "regression"),
    ("Huber", {"delta": 0.4}, "regression"),
    ("LogCosh", {}, "regression"),
    ("CosineSimilarity", {}, "regression"),
    ("CosineSimilarity", {"axis": 0}, "regression"),
    ("BinaryCrossentropy", {}, "binary"),
    ("BinaryCrossentropy", {"label_smoothing": 0.1}, "binary"),
    ("BinaryCrossentropy", {"from_logits": True}, "binary_logits"),
    ("BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.2}, "binary_logits"),
    ("BinaryCrossentropy", {"axis": 0}, "binary"),
    ("BinaryFocalCrossentropy", {}, "binary"),
    ("BinaryFocalCrossentropy", {"apply_class_balancing": True, "alpha": 0.4, "gamma": 1.5}, "binary"),
    ("BinaryFocalCrossentropy", {"from_logits": True, "label_smoothing": 0.1}, "binary_logits"),
    ("CategoricalCrossentropy", {}, "categorical"),
    ("CategoricalCrossentropy", {"label_smoothing": 0.1}, "categorical"),
    ("CategoricalCrossentropy", {"from_logits": True}, "categorical_logits"),
    ("CategoricalCrossentropy", {"from_logits": True, "label_smoothing": 0.3}, "categorical_logits"),
    ("CategoricalFocalCrossentropy", {}, "categorical"),
    ("CategoricalFocalCrossentropy", {"alpha": 0.5, "gamma": 3.0, "label_smoothing": 0.1}, "categorical"),
    ("CategoricalFocalCrossentropy", {"from_logits": True}, "categorical_logits"),
    ("SparseCategoricalCrossentropy", {}, "sparse"),
    ("SparseCategoricalCrossentropy", {"from_logits": True}, "sparse_logits"),
    ("SparseCategoricalCrossentropy", {"ignore_class": 2}, "sparse"),
    ("SparseCategoricalCrossentropy", {"from_logits": True, "ignore_class": 0}, "sparse_logits"),
    ("KLDivergence", {}, "distribution"),
    ("Poisson", {}, "positive"),
    ("Hinge", {}, "hinge01"),
    ("Hinge", {}, "hinge_pm1"),
    ("SquaredHinge", {}, "hinge01"),
    ("SquaredHinge", {}, "hinge_pm1"),
    ("CategoricalHinge", {}, "categorical"),
]


def _ids(case):
    name, kwargs, kind = case
    return f"{name}-{kind}-" + "-".join(f"{k}={v}" for k, v in kwargs.items())


def _ours(loss, y_true, y_pred, sw):
    out = loss(y_true, y_pred, sample_weight=sw)
    return np.asarray(hl.ops.convert_to_numpy(out))


def _keras(name, kwargs, y_true, y_pred, sw):
    return np.asarray(getattr(keras.losses, name)(**kwargs)(y_true, y_pred, sample_weight=sw))


def _check(got, want):
    assert got.shape == want.shape, (got.shape, want.shape)
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("case", CASES, ids=_ids)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_class_matches_keras(backend, case, reduction):
    name, kwargs, kind = case
    y_true, y_pred = _data(kind)
    kwargs = {**kwargs, "reduction": reduction}
    ours = getattr(losses, name)(**kwargs)
    _check(_ours(ours, y_true, y_pred, None), _keras(name, kwargs, y_true, y_pred, None))
    if "axis" in kwargs and kwargs["axis"] == 0:
        return  # per-sample values run along the other axis: batch weights do not apply
    n = y_pred.shape[0]
    for sw in (
        _rng(1).uniform(0, 2, size=(n,)).astype("float32"),
        _rng(2).uniform(0, 2, size=(n, 1)).astype("float32"),
        np.array([1.0, 0.0] + [0.5] * (n - 2), dtype="float32"),
    ):
        _check(_ours(ours, y_true, y_pred, sw), _keras(name, kwargs, y_true, y_pred, sw))


FUNCTIONS = [
    ("mean_squared_error", {}, "regression"),
    ("mean_absolute_error", {}, "regression"),
    ("mean_absolute_percentage_error", {}, "regression"),
    ("mean_squared_logarithmic_error", {}, "positive"),
    ("huber", {"delta": 0.7}, "regression"),
    ("log_cosh", {}, "regression"),
    ("cosine_similarity", {"axis": -1}, "regression"),
    ("binary_crossentropy", {"from_logits": True}, "binary_logits"),
    ("binary_crossentropy", {"label_smoothing": 0.2}, "binary"),
    ("binary_focal_crossentropy", {"apply_class_balancing": True}, "binary"),
    ("categorical_crossentropy", {"from_logits": True}, "categorical_logits"),
    ("categorical_crossentropy", {"label_smoothing": 0.2}, "categorical"),
    ("categorical_focal_crossentropy", {"gamma": 1.0}, "categorical"),
    ("sparse_categorical_crossentropy", {}, "sparse"),
    ("sparse_categorical_crossentropy", {"from_logits": True, "ignore_class": 1}, "sparse_logits"),
    ("kl_divergence", {}, "distribution"),
    ("poisson", {}, "positive"),
    ("hinge", {}, "hinge01"),
    ("squared_hinge", {}, "hinge_pm1"),
    ("categorical_hinge", {}, "categorical"),
]


@pytest.mark.parametrize("case", FUNCTIONS, ids=_ids)
def test_function_matches_keras(backend, case):
    name, kwargs, kind = case
    y_true, y_pred = _data(kind, seed=3)
    got = np.asarray(hl.ops.convert_to_numpy(getattr(losses, name)(y_true, y_pred, **kwargs)))
    want = np.asarray(getattr(keras.losses, name)(y_true, y_pred, **kwargs))
    _check(got, want)


@pytest.mark.parametrize(
    "alias,target",
    [
        ("mse", "mean_squared_error"),
        ("mae", "mean_absolute_error"),
        ("mape", "mean_absolute_percentage_error"),
        ("msle", "mean_squared_logarithmic_error"),
        ("kld", "kl_divergence"),
        ("bce", "binary_crossentropy"),
        ("MSE", "mean_squared_error"),
    ],
)
def test_aliases_are_the_functions(alias, target):
    assert getattr(losses, alias) is getattr(losses, target)


# ------------------------------------------------------------------------------------- shapes
@pytest.mark.parametrize("reduction", ["sum_over_batch_size", "sum", "mean_with_sample_weight", "none"])
def test_segmentation_sparse_with_ignore_class(backend, reduction):
    r = _rng(5)
    y_true = r.integers(0, 3, size=(2, 3, 4)).astype("int32")
    y_true[0, 0, :2] = 255
    y_pred = r.normal(size=(2, 3, 4, 3)).astype("float32")
    kwargs = {"from_logits": True, "ignore_class": 255, "reduction": reduction}
    ours = losses.SparseCategoricalCrossentropy(**kwargs)
    _check(_ours(ours, y_true, y_pred, None), _keras("SparseCategoricalCrossentropy", kwargs, y_true, y_pred, None))
    sw = r.uniform(0, 1, size=(2, 3, 4)).astype("float32")
    _check(_ours(ours, y_true, y_pred, sw), _keras("SparseCategoricalCrossentropy", kwargs, y_true, y_pred, sw))


def test_sparse_labels_with_trailing_axis(backend):
    y_true, y_pred = _data("sparse")
    want = _keras("SparseCategoricalCrossentropy", {}, y_true[:, None], y_pred, None)
    _check(_ours(losses.SparseCategoricalCrossentropy(), y_true[:, None], y_pred, None), want)


def test_categorical_axis_1(backend):
    r = _rng(6)
    y_true = np.moveaxis(_onehot(r.integers(0, 4, size=(2, 3)), 4), -1, 1)
    y_pred = r.normal(size=(2, 4, 3)).astype("float32")
    kwargs = {"from_logits": True, "axis": 1}
    _check(
        _ours(losses.CategoricalCrossentropy(**kwargs), y_true, y_pred, None),
        _keras("CategoricalCrossentropy", kwargs, y_true, y_pred, None),
    )


@pytest.mark.parametrize("name", ["BinaryCrossentropy", "MeanSquaredError", "Hinge"])
def test_rank_one_labels_against_column_predictions(backend, name):
    r = _rng(7)
    y_true = r.integers(0, 2, size=(6,)).astype("float32")
    y_pred = r.uniform(0.05, 0.95, size=(6, 1)).astype("float32")
    sw = r.uniform(0, 1, size=(6,)).astype("float32")
    _check(_ours(getattr(losses, name)(), y_true, y_pred, sw), _keras(name, {}, y_true, y_pred, sw))


def test_per_element_sample_weights(backend):
    y_true, y_pred = _data("regression")
    sw = _rng(8).uniform(0, 1, size=(4,)).astype("float32")
    # values of shape (4,) from MSE; Keras and we agree on per-sample weights
    _check(_ours(losses.MeanSquaredError(), y_true, y_pred, sw), _keras("MeanSquaredError", {}, y_true, y_pred, sw))
    # a reduction="none" loss of per-element values weighted per sample: trailing axes are added
    loss = losses.LossFunctionWrapper(lambda t, p: hl.ops.square(t - p), reduction="none")
    got = _ours(loss, y_true, y_pred, sw)
    np.testing.assert_allclose(got, (y_true - y_pred) ** 2 * sw[:, None], rtol=1e-6)


def test_float64_dtype(backend):
    y_true, y_pred = _data("regression")
    loss = losses.MeanSquaredError(dtype="float64")
    out = loss(y_true.astype("float64"), y_pred.astype("float64"))
    assert hl.ops.dtype(out) == "float64"
    np.testing.assert_allclose(
        float(hl.ops.convert_to_numpy(out)), np.mean((y_true.astype("float64") - y_pred) ** 2), rtol=1e-12
    )
