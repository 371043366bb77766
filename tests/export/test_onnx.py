"""ONNX export from every engine: the file passes onnx.checker and onnxruntime reproduces model.predict on two
batch sizes."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from highlevel.export import export_onnx

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")


def _run(path, feeds):
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    return session, session.run(None, feeds)


def _check(model, path, arrays, names):
    export_onnx(model, path, verbose=False)
    proto = onnx.load(path)
    onnx.checker.check_model(proto)
    assert [i.name for i in proto.graph.input] == names
    assert [o.name for o in proto.graph.output] == ["output_0"]
    for batch in (3, 5):
        feeds = {n: a[:batch] for n, a in zip(names, arrays)}
        session, (got,) = _run(path, feeds)
        assert session.get_inputs()[0].shape[0] == "batch"
        x = [a[:batch] for a in arrays]
        want = model.predict(x[0] if len(x) == 1 else x, verbose=0)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_mlp(backend, tmp_path):
    model = hl.Sequential(
        [hl.Input((6,), name="features"), layers.Dense(8, activation="relu"), layers.Dropout(0.5), layers.Dense(3)]
    )
    x = np.random.default_rng(0).normal(size=(5, 6)).astype("float32")
    _check(model, str(tmp_path / "mlp.onnx"), [x], ["features"])


def test_cnn(backend, tmp_path):
    model = hl.Sequential(
        [
            hl.Input((8, 8, 2), name="image"),
            layers.Conv2D(4, 3, padding="same", activation="relu"),
            layers.MaxPooling2D(),
            layers.BatchNormalization(),
            layers.Conv2D(3, 3, strides=2),
            layers.AveragePooling2D(1),
            layers.Flatten(),
            layers.Dense(2, activation="softmax"),
        ]
    )
    x = np.random.default_rng(1).normal(size=(5, 8, 8, 2)).astype("float32")
    # Statistics and scales away from 0 and 1, so that the file's normalization is shown to use them.
    bn = model.layers[2]
    for i, v in enumerate((bn.gamma, bn.beta, bn.moving_mean, bn.moving_variance)):
        v.assign(np.linspace(0.5, 1.5, 4).astype("float32") * (i + 1) - (0.3 if i == 2 else 0.0))
    _check(model, str(tmp_path / "cnn.onnx"), [x], ["image"])


def test_two_inputs(backend, tmp_path):
    a = hl.Input((4,), name="a")
    b = hl.Input((3,), name="b")
    h = layers.Concatenate()([layers.Dense(5, activation="tanh")(a), b])
    h = layers.LayerNormalization()(h)
    out = layers.Add()([layers.Dense(2)(h), layers.Dense(2, activation="sigmoid")(b)])
    model = hl.Model([a, b], out)
    rng = np.random.default_rng(2)
    xa = rng.normal(size=(5, 4)).astype("float32")
    xb = rng.normal(size=(5, 3)).astype("float32")
    _check(model, str(tmp_path / "two.onnx"), [xa, xb], ["a", "b"])
