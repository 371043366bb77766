"""Dice, Tversky, Circle, CTC and generalized cross-entropy: Keras 3's numbers on every backend, the same
numbers on every backend, compile by name, a short fit that learns, and a save/load round trip."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import losses

keras = pytest.importorskip("keras")

RTOL, ATOL = 1e-5, 1e-6
REDUCTIONS = ["sum_over_batch_size", "sum", "mean_with_sample_weight", "none"]


def _embeddings(r, n=6, dim=4):
    x = r.normal(size=(n, dim)).astype("float32")
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype("float32")


def _data(kind, seed=0):
    r = np.random.default_rng(seed)
    if kind == "masks":
        return r.integers(0, 2, size=(3, 4, 4, 1)).astype("float32"), r.uniform(0, 1, size=(3, 4, 4, 1)).astype(
            "float32"
        )
    if kind == "embeddings":
        return np.array([0, 1, 0, 2, 1, 0], "int32"), _embeddings(r)
    if kind == "sparse":
        x = r.uniform(0.05, 1, size=(5, 4)).astype("float32")
        return r.integers(0, 4, size=(5,)).astype("int32"), (x / x.sum(-1, keepdims=True)).astype("float32")
    if kind == "sequences":
        labels = np.array([[1, 2, 2, 0], [3, 1, 0, 0], [2, 0, 0, 0]], "int32")
        return labels, r.normal(size=(3, 7, 4)).astype("float32")
    raise KeyError(kind)


CASES = [
    ("Dice", {}, "masks"),
    ("Dice", {"axis": (1, 2, 3)}, "masks"),
    ("Tversky", {}, "masks"),
    ("Tversky", {"alpha": 0.3, "beta": 0.7, "axis": (1, 2)}, "masks"),
    ("Circle", {}, "embeddings"),
    ("Circle", {"gamma": 16.0, "margin": 0.25}, "embeddings"),
    ("Circle", {"remove_diagonal": False}, "embeddings"),
    ("CategoricalGeneralizedCrossEntropy", {}, "sparse"),
    ("CategoricalGeneralizedCrossEntropy", {"q": 0.8}, "sparse"),
    ("CTC", {}, "sequences"),
]


def _ids(case):
    name, kwargs, kind = case
    return f"{name}-" + "-".join(f"{k}={v}" for k, v in kwargs.items())


def _np(x):
    return np.asarray(hl.ops.convert_to_numpy(x))


@pytest.mark.parametrize("case", CASES, ids=_ids)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_class_matches_keras(backend, case, reduction):
    name, kwargs, kind = case
    y_true, y_pred = _data(kind)
    kwargs = {**kwargs, "reduction": reduction}
    ours, theirs = getattr(losses, name)(**kwargs), getattr(keras.losses, name)(**kwargs)
    want = np.asarray(theirs(y_true, y_pred))
    got = _np(ours(y_true, y_pred))
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)
    if "axis" in kwargs or name == "Dice" or name == "Tversky":
        return  # one value per batch (axis=None) or per sample: weights of shape (batch,) checked below
    sw = np.random.default_rng(1).uniform(0, 2, size=(y_pred.shape[0],)).astype("float32")
    np.testing.assert_allclose(
        _np(ours(y_true, y_pred, sample_weight=sw)), np.asarray(theirs(y_true, y_pred, sample_weight=sw)), RTOL, ATOL
    )


@pytest.mark.parametrize("name", ["Dice", "Tversky"])
def test_per_sample_overlap_with_weights_matches_keras(backend, name):
    y_true, y_pred = _data("masks", seed=4)
    sw = np.array([1.0, 0.0, 0.5], "float32")
    ours, theirs = getattr(losses, name)(axis=(1, 2, 3)), getattr(keras.losses, name)(axis=(1, 2, 3))
    np.testing.assert_allclose(
        _np(ours(y_true, y_pred, sample_weight=sw)), np.asarray(theirs(y_true, y_pred, sample_weight=sw)), RTOL, ATOL
    )


FUNCTIONS = [
    ("dice", {"axis": (1, 2)}, "masks"),
    ("tversky", {"alpha": 0.9, "beta": 0.1}, "masks"),
    ("categorical_generalized_cross_entropy", {"q": 0.3}, "sparse"),
    ("circle", {"gamma": 20.0}, "embeddings"),
    ("ctc", {}, "sequences"),
]


@pytest.mark.parametrize("case", FUNCTIONS, ids=_ids)
def test_function_matches_keras(backend, case):
    name, kwargs, kind = case
    y_true, y_pred = _data(kind, seed=2)
    want = np.asarray(getattr(keras.losses, name)(y_true, y_pred, **kwargs))
    np.testing.assert_allclose(_np(getattr(losses, name)(y_true, y_pred, **kwargs)), want, RTOL, ATOL)


def test_circle_against_reference_embeddings_matches_keras(backend):
    r = np.random.default_rng(3)
    y_true, y_pred = np.array([0, 1, 2], "int32"), _embeddings(r, n=3)
    ref_labels, ref = np.array([0, 0, 1, 2, 2], "int32"), _embeddings(r, n=5)
    kwargs = {"ref_labels": ref_labels, "ref_embeddings": ref, "remove_diagonal": False}
    want = np.asarray(keras.losses.circle(y_true, y_pred, **kwargs))
    np.testing.assert_allclose(_np(losses.circle(y_true, y_pred, **kwargs)), want, RTOL, ATOL)


def test_every_backend_gives_the_same_numbers():
    results = {}
    for name in hl.backends.installed():
        with hl.config.backend_scope(name):
            results[name] = [
                _np(getattr(losses, cls)(**kw)(*_data(kind, seed=5))) for cls, kw, kind in CASES if cls != "CTC"
            ] + [_np(losses.ctc(*_data("sequences", seed=5)))]
    first = results.pop("native")
    for name, values in results.items():
        for a, b in zip(first, values):
            np.testing.assert_allclose(b, a, rtol=RTOL, atol=ATOL, err_msg=name)


def test_bad_inputs_say_what_was_received():
    with pytest.raises(ValueError, match=r"q strictly between 0 and 1; received q=1\.5"):
        losses.CategoricalGeneralizedCrossEntropy(q=1.5)
    with pytest.raises(ValueError, match=r"y_true of shape \(batch_size, max_length\).*received shape \(3,\)"):
        losses.ctc(np.array([1, 2, 0]), np.zeros((3, 5, 4), "float32"))
    with pytest.raises(ValueError, match=r"y_pred of shape \(batch_size, steps, num_classes\).*\(3, 4\)"):
        losses.ctc(np.array([[1], [2], [0]]), np.zeros((3, 4), "float32"))
    with pytest.raises(ValueError, match=r"embeddings y_pred of shape \(batch, dim\); received shape \(2, 2, 2\)"):
        losses.circle(np.array([0, 1]), np.zeros((2, 2, 2), "float32"))


# ----------------------------------------------------------------------------------- training
def _ctc_problem():
    r = np.random.default_rng(0)
    x = r.normal(size=(16, 6, 3)).astype("float32")
    # The label of each sequence: the class of its strongest feature at steps 0 and 3 (classes 1..3; 0 is blank).
    y = np.stack([1 + np.argmax(x[:, 0], -1), 1 + np.argmax(x[:, 3], -1)], axis=1).astype("int32")
    model = hl.Sequential([hl.layers.Input((6, 3)), hl.layers.Dense(16, activation="tanh"), hl.layers.Dense(4)])
    return model, x, y


def _segmentation_problem():
    r = np.random.default_rng(0)
    x = r.normal(size=(16, 4, 4, 1)).astype("float32")
    y = (x > 0.3).astype("float32")
    model = hl.Sequential([hl.layers.Input((4, 4, 1)), hl.layers.Dense(1, activation="sigmoid")])
    return model, x, y


def _embedding_problem():
    r = np.random.default_rng(0)
    y = np.arange(16) % 3
    x = (np.eye(3)[y] * 2 + r.normal(scale=0.8, size=(16, 3))).astype("float32")
    x = np.concatenate([x, r.normal(size=(16, 2)).astype("float32")], axis=1)
    model = hl.Sequential(
        [hl.layers.Input((5,)), hl.layers.Dense(4), hl.layers.UnitNormalization()],
    )
    return model, x, y.astype("int32")


def _sparse_problem():
    r = np.random.default_rng(0)
    x = r.normal(size=(32, 4)).astype("float32")
    y = np.argmax(x[:, :3], -1).astype("int32")
    model = hl.Sequential([hl.layers.Input((4,)), hl.layers.Dense(3, activation="softmax")])
    return model, x, y


FITS = [
    ("ctc", _ctc_problem, 0.05),
    ("dice", _segmentation_problem, 0.1),
    ("tversky", _segmentation_problem, 0.1),
    ("circle", _embedding_problem, 0.05),
    ("CategoricalGeneralizedCrossEntropy", _sparse_problem, 0.1),  # the function needs q: Keras takes the class
]


@pytest.mark.parametrize("loss,problem,lr", FITS, ids=[f[0] for f in FITS])
def test_compiled_by_name_learns_and_survives_save_load(backend, loss, problem, lr, tmp_path):
    hl.utils.set_random_seed(0)
    model, x, y = problem()
    model.compile(optimizer=hl.optimizers.Adam(lr), loss=loss)
    history = model.fit(x, y, epochs=30, batch_size=16, verbose=0, shuffle=False)
    start, end = history.history["loss"][0], history.history["loss"][-1]
    assert end < 0.5 * start, (start, end)
    path = tmp_path / "m.zip"
    model.save(path)
    loaded = hl.models.load_model(path)
    np.testing.assert_allclose(_np(loaded.predict(x, verbose=0)), _np(model.predict(x, verbose=0)), rtol=1e-6)
    np.testing.assert_allclose(
        loaded.evaluate(x, y, batch_size=16, verbose=0), model.evaluate(x, y, batch_size=16, verbose=0), rtol=1e-5
    )


@pytest.mark.parametrize("cls", ["Dice", "Tversky", "Circle", "CTC", "CategoricalGeneralizedCrossEntropy"])
def test_class_instance_in_compile_round_trips(backend, cls, tmp_path):
    kwargs = {"Dice": {"axis": (1, 2)}, "Tversky": {"alpha": 0.2, "beta": 0.8}, "Circle": {"gamma": 32.0}}
    kwargs.update(CategoricalGeneralizedCrossEntropy={"q": 0.7})
    loss = getattr(losses, cls)(**kwargs.get(cls, {}))
    model = hl.Sequential([hl.layers.Input((3,)), hl.layers.Dense(2)])
    model.compile(optimizer="sgd", loss=loss)
    model.save(tmp_path / "m.zip")
    again = hl.models.load_model(tmp_path / "m.zip").loss
    assert type(again) is type(loss) and again.get_config() == loss.get_config()
