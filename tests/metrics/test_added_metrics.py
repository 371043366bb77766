"""IoU family, correlation metrics and the rate-at-rate metrics: Keras 3's numbers on every backend batch after
batch, the same numbers on every backend, compile by name, training that improves them, save/load; and the metric
functions of ``keras.metrics``."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import metrics

keras = pytest.importorskip("keras")

RTOL, ATOL = 1e-5, 1e-6


def _probs(r, shape):
    x = r.uniform(0.01, 1.0, size=shape).astype("float32")
    return (x / x.sum(-1, keepdims=True)).astype("float32")


def _batch(kind, r, n=8):
    if kind == "classes":  # class indices with a few out of range (left out by IoU)
        y_true, y_pred = r.integers(0, 3, size=(n,)), r.integers(0, 3, size=(n,))
        y_true[0], y_pred[1] = 5, -1
        return y_true.astype("int32"), y_pred.astype("int32")
    if kind == "masks":
        return r.integers(0, 3, size=(n, 4, 4)).astype("int32"), r.integers(0, 3, size=(n, 4, 4)).astype("int32")
    if kind == "class_scores":
        return r.integers(0, 3, size=(n,)).astype("int32"), _probs(r, (n, 3))
    if kind == "onehot":
        return np.eye(3, dtype="float32")[r.integers(0, 3, size=n)], _probs(r, (n, 3))
    if kind == "binary":
        return r.integers(0, 2, size=(n, 3)).astype("float32"), r.uniform(0, 1, size=(n, 3)).astype("float32")
    if kind == "regression":
        y = r.normal(size=(n, 5)).astype("float32")
        return y, (0.7 * y + r.normal(scale=0.5, size=(n, 5))).astype("float32")
    raise KeyError(kind)


CASES = [
    ("IoU", {"num_classes": 3, "target_class_ids": [0, 2]}, "classes"),
    ("IoU", {"num_classes": 3, "target_class_ids": [1, 2], "ignore_class": 0}, "masks"),
    ("MeanIoU", {"num_classes": 3}, "masks"),
    ("MeanIoU", {"num_classes": 3, "sparse_y_pred": False}, "class_scores"),
    ("MeanIoU", {"num_classes": 3, "dtype": "float32"}, "classes"),
    ("OneHotIoU", {"num_classes": 3, "target_class_ids": [0, 1]}, "onehot"),
    ("OneHotMeanIoU", {"num_classes": 3}, "onehot"),
    ("OneHotMeanIoU", {"num_classes": 3, "ignore_class": 2}, "onehot"),
    ("BinaryIoU", {}, "binary"),
    ("BinaryIoU", {"target_class_ids": [1], "threshold": 0.3}, "binary"),
    ("PearsonCorrelation", {}, "regression"),
    ("PearsonCorrelation", {"axis": 0}, "regression"),
    ("ConcordanceCorrelation", {}, "regression"),
    ("ConcordanceCorrelation", {"axis": 0}, "regression"),
    ("PrecisionAtRecall", {"recall": 0.5}, "binary"),
    ("PrecisionAtRecall", {"recall": 0.8, "num_thresholds": 1}, "binary"),
    ("RecallAtPrecision", {"precision": 0.6, "num_thresholds": 20}, "binary"),
    ("SensitivityAtSpecificity", {"specificity": 0.5}, "binary"),
    ("SensitivityAtSpecificity", {"specificity": 0.3, "class_id": 1, "num_thresholds": 7}, "binary"),
    ("SpecificityAtSensitivity", {"sensitivity": 0.7}, "binary"),
]


def _ids(case):
    name, kwargs, kind = case
    return f"{name}-" + "-".join(f"{k}={v}" for k, v in kwargs.items())


def _np(x):
    return np.asarray(hl.ops.convert_to_numpy(x))


def _weights(kwargs, kind, r, n):
    if kind == "masks":
        return r.integers(0, 3, size=(n, 4, 4)).astype("int32")  # Keras takes per-pixel weights only
    if kind == "binary" and "IoU" in kwargs["_name"]:
        return r.integers(0, 3, size=(n, 3)).astype("int32")  # per element, as Keras needs them
    if "IoU" in kwargs["_name"] and kwargs.get("dtype") != "float32":
        return r.integers(0, 3, size=(n,)).astype("int32")  # integer counts: fractions would be truncated
    if kwargs.get("axis") == 0:
        return None  # one value per column: per-sample weights do not apply
    return r.uniform(0, 2, size=(n,)).astype("float32")


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_metric_matches_keras(backend, case, weighted):
    name, kwargs, kind = case
    ours, theirs = getattr(metrics, name)(**kwargs), getattr(keras.metrics, name)(**kwargs)
    r = np.random.default_rng(0)
    batches = []
    for _ in range(3):
        y_true, y_pred = _batch(kind, r)
        sw = _weights({**kwargs, "_name": name}, kind, r, len(y_true)) if weighted else None
        batches.append((y_true, y_pred, sw))
    for y_true, y_pred, sw in batches:
        ours.update_state(y_true, y_pred, sample_weight=sw)
        theirs.update_state(y_true, y_pred, sample_weight=sw)
        np.testing.assert_allclose(_np(ours.result()), np.asarray(theirs.result()), RTOL, ATOL)
    ours.reset_state()
    assert all(not np.any(_np(v.value)) for v in ours.variables)
    theirs.reset_state()
    y_true, y_pred, sw = batches[0]
    np.testing.assert_allclose(
        _np(ours(y_true, y_pred, sample_weight=sw)), np.asarray(theirs(y_true, y_pred, sample_weight=sw)), RTOL, ATOL
    )


FUNCTIONS = [
    ("pearson_correlation", {"axis": -1}),
    ("concordance_correlation", {}),
    ("concordance_correlation", {"axis": 0}),
]


@pytest.mark.parametrize("name,kwargs", FUNCTIONS)
def test_correlation_functions_match_keras(backend, name, kwargs):
    y_true, y_pred = _batch("regression", np.random.default_rng(4))
    want = np.asarray(getattr(keras.metrics, name)(y_true, y_pred, **kwargs))
    np.testing.assert_allclose(_np(getattr(metrics, name)(y_true, y_pred, **kwargs)), want, RTOL, ATOL)


LOSS_FUNCTIONS = [
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "categorical_crossentropy",
    "categorical_focal_crossentropy",
    "categorical_hinge",
    "hinge",
    "huber",
    "kl_divergence",
    "log_cosh",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_squared_error",
    "mean_squared_logarithmic_error",
    "poisson",
    "sparse_categorical_crossentropy",
    "squared_hinge",
]


@pytest.mark.parametrize("name", LOSS_FUNCTIONS)
def test_metric_functions_are_the_loss_functions(name):
    # keras.metrics re-exports these functions of keras.losses; the numbers are checked in tests/losses.
    assert getattr(metrics, name) is getattr(hl.losses, name)
    assert getattr(keras.metrics, name) is getattr(keras.losses, name)


def test_every_backend_gives_the_same_numbers():
    results = {}
    for backend_name in hl.backends.installed():
        with hl.config.backend_scope(backend_name):
            r = np.random.default_rng(6)
            values = []
            for name, kwargs, kind in CASES:
                values.append(_np(getattr(metrics, name)(**kwargs)(*_batch(kind, r))))
            results[backend_name] = values
    first = results.pop("native")
    for backend_name, values in results.items():
        for a, b, case in zip(first, values, CASES):
            np.testing.assert_allclose(b, a, RTOL, ATOL, err_msg=f"{backend_name} {case}")


def test_bad_arguments_say_what_was_received():
    with pytest.raises(ValueError, match=r"in the range \[0, 1\]; received recall=1\.5"):
        metrics.PrecisionAtRecall(recall=1.5)
    with pytest.raises(ValueError, match=r"num_thresholds must be an integer > 0|num_thresholds=0"):
        metrics.SensitivityAtSpecificity(0.5, num_thresholds=0)
    with pytest.raises(ValueError, match=r"classes in \[0, 3\); received \[0, 3\]"):
        metrics.IoU(num_classes=3, target_class_ids=[0, 3])
    with pytest.raises(ValueError, match=r"num_classes, a positive int; received num_classes=0"):
        metrics.MeanIoU(num_classes=0)
    with pytest.raises(ValueError, match=r"received 4 true and 12 predicted classes"):
        metrics.MeanIoU(num_classes=3)([0, 1, 2, 0], np.ones((4, 3), "float32"))


def test_per_sample_weights_of_masks_apply_to_every_pixel(backend):
    r = np.random.default_rng(7)
    y_true, y_pred = _batch("masks", r)
    sw = r.integers(0, 3, size=(len(y_true),)).astype("int32")
    theirs = keras.metrics.MeanIoU(num_classes=3)
    theirs.update_state(y_true, y_pred, sample_weight=np.broadcast_to(sw[:, None, None], y_true.shape))
    ours = metrics.MeanIoU(num_classes=3)
    ours.update_state(y_true, y_pred, sample_weight=sw)
    np.testing.assert_allclose(_np(ours.result()), np.asarray(theirs.result()), RTOL, ATOL)


def test_integer_iou_warns_about_fractional_weights():
    m = metrics.MeanIoU(num_classes=2)
    with pytest.warns(UserWarning, match="truncated to integers"):
        m.update_state([0, 1], [0, 1], sample_weight=np.array([0.5, 1.5], "float32"))


# ----------------------------------------------------------------------------------- training
def test_metrics_by_name_improve_in_training_and_survive_save_load(backend, tmp_path):
    hl.utils.set_random_seed(0)
    r = np.random.default_rng(0)
    x = r.normal(size=(64, 4)).astype("float32")
    y = (x[:, :1] + 0.5 * x[:, 1:2] > 0).astype("float32")
    model = hl.Sequential([hl.layers.Input((4,)), hl.layers.Dense(1, activation="sigmoid")])
    model.compile(
        optimizer=hl.optimizers.Adam(0.05),
        loss="binary_crossentropy",
        metrics=[
            "binary_io_u",
            metrics.PrecisionAtRecall(0.9, name="p_at_r"),
            metrics.RecallAtPrecision(0.9, name="r_at_p"),
            metrics.SensitivityAtSpecificity(0.9, name="s_at_s"),
            metrics.SpecificityAtSensitivity(0.9, name="sp_at_se"),
        ],
    )
    before = model.evaluate(x, y, batch_size=32, verbose=0, return_dict=True)
    model.fit(x, y, epochs=40, batch_size=32, verbose=0, shuffle=False)
    after = model.evaluate(x, y, batch_size=32, verbose=0, return_dict=True)
    for key in ("binary_io_u", "r_at_p", "s_at_s", "sp_at_se"):
        assert after[key] > before[key] + 0.1, (key, before[key], after[key])
    assert after["p_at_r"] > 0.9
    model.save(tmp_path / "m.zip")
    loaded = hl.models.load_model(tmp_path / "m.zip")
    again = loaded.evaluate(x, y, batch_size=32, verbose=0, return_dict=True)
    for key, value in after.items():
        assert again[key] == pytest.approx(value, rel=1e-5, abs=1e-6), key
    np.testing.assert_allclose(_np(loaded.predict(x, verbose=0)), _np(model.predict(x, verbose=0)), rtol=1e-6)


def test_correlation_and_mean_iou_in_training(backend, tmp_path):
    hl.utils.set_random_seed(0)
    r = np.random.default_rng(1)
    x = r.normal(size=(64, 3)).astype("float32")
    y_reg = (x @ np.array([[1.0, -1.0], [0.5, 2.0], [0.0, 1.0]], "float32")).astype("float32")
    model = hl.Sequential([hl.layers.Input((3,)), hl.layers.Dense(2)])
    model.compile(
        optimizer=hl.optimizers.Adam(0.05), loss="mse", metrics=["pearson_correlation", "concordance_correlation"]
    )
    before = model.evaluate(x, y_reg, batch_size=32, verbose=0, return_dict=True)
    model.fit(x, y_reg, epochs=40, batch_size=32, verbose=0, shuffle=False)
    after = model.evaluate(x, y_reg, batch_size=32, verbose=0, return_dict=True)
    assert after["concordance_correlation"] > max(0.9, before["concordance_correlation"] + 0.2), (before, after)
    assert after["pearson_correlation"] > 0.9
    y_cls = np.argmax(x, axis=1).astype("int32")
    clf = hl.Sequential([hl.layers.Input((3,)), hl.layers.Dense(3, activation="softmax")])
    clf.compile(
        optimizer=hl.optimizers.Adam(0.05),
        loss="sparse_categorical_crossentropy",
        metrics=[metrics.MeanIoU(num_classes=3, sparse_y_pred=False, name="miou")],
    )
    start = clf.evaluate(x, y_cls, batch_size=32, verbose=0, return_dict=True)["miou"]
    clf.fit(x, y_cls, epochs=40, batch_size=32, verbose=0, shuffle=False)
    end = clf.evaluate(x, y_cls, batch_size=32, verbose=0, return_dict=True)["miou"]
    assert end > start + 0.2 and end > 0.6, (start, end)
    clf.save(tmp_path / "c.zip")
    loaded = hl.models.load_model(tmp_path / "c.zip")
    assert loaded.evaluate(x, y_cls, batch_size=32, verbose=0, return_dict=True)["miou"] == pytest.approx(end)


def test_every_new_metric_compiled_in_survives_save_load(backend, tmp_path):
    hl.utils.set_random_seed(0)
    r = np.random.default_rng(2)
    x = r.normal(size=(32, 4)).astype("float32")
    y = np.eye(3, dtype="float32")[np.argmax(x[:, :3], axis=1)]
    new_metrics = [
        metrics.IoU(3, [1], sparse_y_true=False, sparse_y_pred=False, name="iou"),
        metrics.MeanIoU(3, sparse_y_true=False, sparse_y_pred=False, name="miou"),
        metrics.OneHotIoU(3, [0, 2], name="oh_iou"),
        metrics.OneHotMeanIoU(3, ignore_class=1, name="oh_miou"),
        metrics.BinaryIoU(threshold=0.4, name="biou"),
        metrics.PearsonCorrelation(name="pcc"),
        metrics.ConcordanceCorrelation(name="ccc"),
        metrics.PrecisionAtRecall(0.6, num_thresholds=30, name="p_at_r"),
        metrics.RecallAtPrecision(0.5, class_id=2, name="r_at_p"),
        metrics.SensitivityAtSpecificity(0.4, name="se_at_sp"),
        metrics.SpecificityAtSensitivity(0.8, name="sp_at_se"),
    ]
    model = hl.Sequential([hl.layers.Input((4,)), hl.layers.Dense(3, activation="softmax")])
    model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=new_metrics)
    model.fit(x, y, epochs=2, batch_size=16, verbose=0)
    want = model.evaluate(x, y, batch_size=16, verbose=0, return_dict=True)
    model.save(tmp_path / "m.zip")
    loaded = hl.models.load_model(tmp_path / "m.zip")
    assert loaded.get_compile_config()["metrics"] == model.get_compile_config()["metrics"]
    got = loaded.evaluate(x, y, batch_size=16, verbose=0, return_dict=True)
    assert set(got) == set(want) and len(want) == len(new_metrics) + 1
    for key, value in want.items():
        assert got[key] == pytest.approx(value, rel=1e-5, abs=1e-6), key


def test_callbacks_know_larger_is_better():
    from highlevel.callbacks.monitor_callback import metric_direction

    for m in (metrics.MeanIoU(2), metrics.BinaryIoU(), metrics.PearsonCorrelation(), metrics.PrecisionAtRecall(0.5)):
        assert m._direction == "up" and metric_direction(m) == "up", m
