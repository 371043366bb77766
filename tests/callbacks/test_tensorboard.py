"""TensorBoard: the event files fit writes, read back with tensorboard's own EventAccumulator: epoch scalars
(train and validation runs), the learning rate, histograms at the right epochs, batch-level scalars, the graph."""

import os
import sys

import numpy as np
import pytest

import highlevel as hl

event_accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")


def _read(folder):
    files = [f for f in os.listdir(folder) if f.startswith("events.out.tfevents.")]
    assert len(files) == 1, files
    acc = event_accumulator.EventAccumulator(
        str(folder),
        size_guidance={event_accumulator.SCALARS: 0, event_accumulator.HISTOGRAMS: 0, event_accumulator.TENSORS: 0},
    )
    return acc.Reload()


def _scalars(acc, tag):
    events = acc.Scalars(tag)
    return [e.step for e in events], [e.value for e in events]


def _data(n=10):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(n, 3)).astype("float32")
    return x, (x.sum(axis=1, keepdims=True) > 0).astype("float32")


def _functional_model():
    inputs = hl.Input((3,), name="features")
    a = hl.layers.Dense(4, activation="relu", name="left")(inputs)
    b = hl.layers.Dense(2, name="right")(inputs)
    joined = hl.layers.Concatenate(name="join")([a, b])
    outputs = hl.layers.Dense(1, activation="sigmoid", name="head")(joined)
    model = hl.Model(inputs, outputs)
    model.compile(optimizer=hl.optimizers.SGD(0.05), loss="binary_crossentropy", metrics=["accuracy"])
    return model


def test_epoch_scalars_learning_rate_histograms_and_graph(backend, tmp_path):
    x, y = _data()
    model = _functional_model()
    cb = hl.callbacks.TensorBoard(tmp_path, histogram_freq=2)
    history = model.fit(x, y, epochs=3, batch_size=5, validation_data=(x, y), verbose=0, callbacks=[cb])
    assert sorted(os.listdir(tmp_path)) == ["train", "validation"]

    train = _read(tmp_path / "train")
    assert set(train.Tags()["scalars"]) == {"epoch_loss", "epoch_accuracy", "epoch_learning_rate"}
    for name in ("loss", "accuracy"):
        steps, values = _scalars(train, f"epoch_{name}")
        assert steps == [0, 1, 2]
        np.testing.assert_allclose(values, history.history[name], rtol=1e-6)
    steps, values = _scalars(train, "epoch_learning_rate")
    assert steps == [0, 1, 2]
    np.testing.assert_allclose(values, 0.05, rtol=1e-6)

    expected_tags = {f"{w.path}/histogram" for w in model.weights}
    assert set(train.Tags()["histograms"]) == expected_tags
    kernel = model.get_layer("head").weights[0]
    events = train.Histograms(f"{kernel.path}/histogram")
    assert [e.step for e in events] == [0, 2]  # epochs 0, 2: histogram_freq=2 counts from the first epoch
    final = hl.ops.convert_to_numpy(kernel)
    last = events[-1].histogram_value
    assert last.num == final.size and sum(last.bucket) == final.size and len(last.bucket_limit) == 30
    np.testing.assert_allclose([last.min, last.max, last.sum], [final.min(), final.max(), final.sum()], rtol=1e-5)

    graph = train.Graph()
    nodes = {n.name: n for n in graph.node}
    assert set(nodes) == {"features", "left", "right", "join", "head"}
    assert list(nodes["join"].input) == ["left", "right"] and list(nodes["head"].input) == ["join"]
    assert list(nodes["left"].input) == ["features"] and nodes["join"].op == "Concatenate"
    dims = [d.size for d in nodes["join"].attr["_output_shapes"].list.shape[0].dim]
    assert dims == [-1, 6]

    val = _read(tmp_path / "validation")
    assert {"epoch_loss", "epoch_accuracy"} <= set(val.Tags()["scalars"])
    steps, values = _scalars(val, "epoch_loss")
    assert steps == [0, 1, 2]
    np.testing.assert_allclose(values, history.history["val_loss"], rtol=1e-6)
    steps, _ = _scalars(val, "evaluation_loss_vs_iterations")
    assert steps == [2, 4, 6]  # optimizer.iterations after each epoch of 2 batches


@pytest.mark.parametrize("update_freq, expected_steps", [(3, [3, 6, 9]), ("batch", list(range(1, 11)))])
def test_batch_level_scalars(backend, tmp_path, update_freq, expected_steps):
    x, y = _data(10)
    # A Sequential model without an Input is built by its first batch: its graph is written then.
    model = hl.Sequential([hl.layers.Dense(2, name="hidden"), hl.layers.Dense(1, name="out")])
    model.compile(optimizer=hl.optimizers.SGD(0.01), loss="mse")
    cb = hl.callbacks.TensorBoard(tmp_path, update_freq=update_freq, write_steps_per_second=True)
    batch_losses = []
    record = hl.callbacks.LambdaCallback(on_train_batch_end=lambda batch, logs: batch_losses.append(logs["loss"]))
    model.fit(x, y, epochs=2, batch_size=2, shuffle=False, verbose=0, callbacks=[record, cb])
    train = _read(tmp_path / "train")
    steps, values = _scalars(train, "batch_loss")
    assert steps == expected_steps
    np.testing.assert_allclose(values, [batch_losses[s - 1] for s in expected_steps], rtol=1e-6)
    assert _scalars(train, "batch_steps_per_second")[0] == expected_steps
    assert _scalars(train, "epoch_steps_per_second")[0] == [0, 1]
    assert "histograms" not in train.Tags() or not train.Tags()["histograms"]  # histogram_freq=0
    assert [n.name for n in train.Graph().node][-2:] == ["hidden", "out"]
    assert not os.path.exists(tmp_path / "validation")


def test_standalone_evaluate_and_no_graph(tmp_path):
    x, y = _data()
    model = _functional_model()
    cb = hl.callbacks.TensorBoard(tmp_path, write_graph=False)
    model.fit(x, y, epochs=1, batch_size=5, verbose=0, callbacks=[cb])
    with pytest.raises(ValueError):  # EventAccumulator's answer when a run has no graph
        _read(tmp_path / "train").Graph()
    model.evaluate(x, y, verbose=0, callbacks=[cb])
    files = os.listdir(tmp_path / "validation")
    val = _read(tmp_path / "validation")
    assert _scalars(val, "evaluation_loss_vs_iterations")[0] == [2] and len(files) == 1
    assert cb._writers == {}  # closed after a standalone evaluate


def test_missing_tensorboard_raises_import_error_with_the_extra(monkeypatch):
    for name in [m for m in sys.modules if m == "tensorboard" or m.startswith("tensorboard.")] + ["tensorboard"]:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError, match=r'pip install -e "\.\[tensorboard\]"'):
        hl.callbacks.TensorBoard("logs")


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"update_freq": "step"}, "update_freq"),
        ({"update_freq": 0}, "update_freq"),
        ({"histogram_freq": -1}, "histogram_freq"),
        ({"histogram_freq": 1.5}, "histogram_freq"),
        ({"write_images": True}, "write_images"),
        ({"profile_batch": 2}, "profile_batch"),
        ({"embeddings_freq": 1}, "embeddings_freq"),
    ],
)
def test_bad_arguments(tmp_path, kwargs, match):
    with pytest.raises(ValueError, match=match):
        hl.callbacks.TensorBoard(tmp_path, **kwargs)
    assert not os.listdir(tmp_path)  # nothing is written before training


def test_graph_names_shared_layer_calls_and_op_nodes():
    from highlevel.callbacks.tensorboard import _tensorboard, model_graph_def

    inputs = hl.Input((3,), name="x")
    shared = hl.layers.Dense(3, name="shared")
    first = shared(inputs)
    second = shared(first)
    model = hl.Model(inputs, hl.ops.add(first, second))
    graph = model_graph_def(model, _tensorboard())
    assert [(n.name, n.op, list(n.input)) for n in graph.node] == [
        ("x", "InputLayer", []),
        ("shared", "Dense", ["x"]),
        ("shared_1", "Dense", ["shared"]),
        ("add", "ops.add", ["shared", "shared_1"]),
    ]

    class Subclassed(hl.Model):
        def __init__(self):
            super().__init__()
            self.dense = hl.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    sub = Subclassed()
    sub(np.ones((1, 2), "float32"))
    assert model_graph_def(sub, _tensorboard()) is None  # no layer graph to draw


def test_histogram_buckets_skip_non_finite_values(tmp_path):
    from highlevel.callbacks.tensorboard import _EventWriter, _tensorboard

    writer = _EventWriter(str(tmp_path), _tensorboard())
    writer.histogram("mixed", np.array([[1.0, np.nan], [3.0, np.inf]]), step=4)
    writer.histogram("constant", np.full(5, 2.0, "float32"), step=4)
    writer.histogram("all_nan", np.array([np.nan]), step=4)  # nothing finite: no event
    writer.scalar("s", np.float32(0.25), step=7)
    writer.close()
    acc = _read(tmp_path)
    assert set(acc.Tags()["histograms"]) == {"mixed", "constant"}
    mixed = acc.Histograms("mixed")[0]
    assert mixed.step == 4
    h = mixed.histogram_value
    assert (h.min, h.max, h.num, h.sum, h.sum_squares) == (1.0, 3.0, 2.0, 4.0, 10.0)
    assert sum(h.bucket) == 2 and h.bucket_limit[-1] == 3.0
    assert acc.Histograms("constant")[0].histogram_value.num == 5
    assert [(e.step, e.value) for e in acc.Scalars("s")] == [(7, 0.25)]


def test_writing_events_does_not_import_tensorflow(tmp_path):
    # tensorboard's own EventFileWriter would import TensorFlow when it is installed; ours must not.
    import subprocess

    code = (
        "import sys, numpy as np, highlevel as hl\n"
        "hl.config.set_backend('native')\n"
        "m = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)]); m.compile(optimizer='sgd', loss='mse')\n"
        f"m.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0, callbacks=[hl.callbacks.TensorBoard("
        f"{str(tmp_path)!r}, histogram_freq=1)])\n"
        "print('tensorflow' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "False"
    assert len(os.listdir(tmp_path / "train")) == 1
