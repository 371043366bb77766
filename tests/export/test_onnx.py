"""ONNX export from every engine: the file passes onnx.checker and onnxruntime reproduces model.predict on two
batch sizes."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from highlevel.export.onnx import export_onnx

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


@hl.saving.register_keras_serializable(package="onnx_tests")
class Scaled(hl.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = layers.Dense(3)

    def call(self, x):
        return hl.ops.tanh(self.dense(x)) * 2.0


def test_model_export_front_door_and_a_subclassed_model(backend, tmp_path):
    """``model.export(format="onnx")`` reaches export_onnx. A subclassed model is traced by the engine's converter,
    or, on an engine without one (no layer graph to write), rebuilt on an engine with one and traced there."""
    model = Scaled()
    x = np.random.default_rng(3).normal(size=(4, 5)).astype("float32")
    model(x)
    path = str(tmp_path / "sub.onnx")
    assert model.export(path, format="onnx", verbose=False) == path
    for batch in (2, 4):
        _, (got,) = _run(path, {"input_0": x[:batch]})
        np.testing.assert_allclose(got, model.predict(x[:batch], verbose=0), rtol=1e-4, atol=1e-5)


@pytest.mark.backends("native")  # the engine without an ONNX converter of its own
def test_an_unregistered_subclassed_model_is_refused_clearly_without_a_converter(backend, tmp_path):
    class Unregistered(hl.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.dense = layers.Dense(2)

        def call(self, x):
            return self.dense(x)

    model = Unregistered()
    model(np.zeros((2, 3), "float32"))
    assert "onnx" not in hl.config.current_backend().export_formats
    with pytest.raises(ValueError, match="register"):
        export_onnx(model, str(tmp_path / "u.onnx"), verbose=False)


@pytest.mark.parametrize("opset", [17, 18])  # 18 moved a reduction's axes from an attribute to an input
def test_layer_graph_writer_covers_more_layers(backend, opset):
    """The layer-graph writer (the path of engines without a converter), on weights from every engine."""
    from highlevel.export.onnx_graph import onnx_model

    seq = hl.Input((10, 3), name="seq")
    img = hl.Input((2, 6, 6), name="img")
    a = layers.Conv1D(4, 3, padding="same", activation="swish")(seq)
    a = layers.GlobalMaxPooling1D()(a)
    b = layers.Conv2D(3, 2, data_format="channels_first", activation="relu6")(img)
    b = layers.Flatten(data_format="channels_first")(b)
    b = layers.Dense(4, activation="elu")(b)
    c = layers.Subtract()([a, b])
    c = layers.Multiply()([layers.LeakyReLU(0.1)(c), layers.ReLU(max_value=1.0)(a)])
    c = layers.Average()([c, hl.ops.add(a, b)])
    c = layers.Reshape((2, 2))(c)
    out = layers.Softmax(axis=1)(c)
    model = hl.Model([seq, img], out)
    rng = np.random.default_rng(4)
    xs = [rng.normal(size=(3, 10, 3)).astype("float32"), rng.normal(size=(3, 2, 6, 6)).astype("float32")]
    proto = onnx_model(model, [("seq", (None, 10, 3), "float32"), ("img", (None, 2, 6, 6), "float32")], opset)
    onnx.checker.check_model(proto)
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    (got,) = session.run(None, {"seq": xs[0], "img": xs[1]})
    np.testing.assert_allclose(got, model.predict(xs, verbose=0), rtol=1e-4, atol=1e-5)


def test_layer_graph_writer_names_what_it_cannot_map(backend):
    from highlevel.export.onnx_graph import UnmappedLayerError, onnx_model

    inp = hl.Input((5, 3), name="seq")
    model = hl.Model(inp, layers.GRU(2, name="recurrent")(inp))
    with pytest.raises(UnmappedLayerError, match="GRU.*'recurrent'"):
        onnx_model(model, [("seq", (None, 5, 3), "float32")], 17)


def test_a_layer_the_graph_writer_does_not_map_is_traced_where_a_converter_is(backend, tmp_path):
    # On native and JAX a GRU has no mapping in the layer graph writer, and on TensorFlow tf2onnx leaves its loop
    # unconverted: the model moves to torch and is traced there; on torch it is traced directly. Either way the
    # file predicts as the model.
    hl.utils.set_random_seed(4)
    inp = hl.Input((5, 3), name="seq")
    model = hl.Model(inp, layers.Dense(2)(layers.GRU(4)(inp)))
    path = model.export(str(tmp_path / "gru.onnx"), format="onnx", verbose=False)
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    for batch in (2, 6):
        x = np.random.default_rng(batch).normal(size=(batch, 5, 3)).astype("float32")
        (got,) = session.run(None, {"seq": x})
        np.testing.assert_allclose(got, model.predict(x, verbose=0), rtol=1e-4, atol=1e-5)


def test_layer_graph_writer_embeddings_padding_depthwise(backend):
    from highlevel.export.onnx_graph import onnx_model

    ids = hl.Input((4,), dtype="int32", name="ids")
    img = hl.Input((5, 5, 2), name="img")
    a = layers.Permute((2, 1))(layers.Embedding(7, 3)(ids))
    a = layers.Flatten()(a)
    b = layers.Rescaling(0.5, offset=-0.25)(img)
    b = layers.ZeroPadding2D(((1, 0), (0, 2)))(b)
    b = layers.UpSampling2D((2, 1))(b)
    b = layers.DepthwiseConv2D(2, depth_multiplier=2, activation="tanh")(b)
    b = layers.GlobalAveragePooling2D()(b)
    model = hl.Model([ids, img], layers.Concatenate()([a, layers.Identity()(b)]))
    rng = np.random.default_rng(5)
    xs = [rng.integers(0, 7, size=(3, 4)).astype("int32"), rng.normal(size=(3, 5, 5, 2)).astype("float32")]
    proto = onnx_model(model, [("ids", (None, 4), "int32"), ("img", (None, 5, 5, 2), "float32")], 17)
    onnx.checker.check_model(proto)
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    (got,) = session.run(None, {"ids": xs[0], "img": xs[1]})
    np.testing.assert_allclose(got, model.predict(xs, verbose=0), rtol=1e-4, atol=1e-5)


def test_bad_arguments_are_explained(backend, tmp_path):
    model = hl.Sequential([hl.Input((2,)), layers.Dense(1)])
    with pytest.raises(TypeError, match="unexpected keyword arguments \\['opset'\\]"):
        export_onnx(model, str(tmp_path / "m.onnx"), opset=13)
    with pytest.raises(ValueError, match="scalar"):
        export_onnx(model, str(tmp_path / "m.onnx"), input_signature=[hl.InputSpec(shape=())], verbose=False)


def test_a_program_with_a_constant_batch_size_is_refused_at_export():
    """A traced program whose batch size became a constant fails when the export runs it on another batch."""
    from onnx import TensorProto, helper, numpy_helper

    from highlevel.export.onnx import _check_open_batch

    graph = helper.make_graph(
        [helper.make_node("Reshape", ["x", "shape"], ["output_0"])],
        "baked",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])],
        [helper.make_tensor_value_info("output_0", TensorProto.FLOAT, [2, None])],
        initializer=[numpy_helper.from_array(np.asarray([2, -1], np.int64), "shape")],
    )
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(ValueError, match="has 2 rows for a batch of 3"):
        _check_open_batch(proto, [("x", (None, 4), "float32")])


def test_integer_input_and_two_outputs(backend, tmp_path):
    ids = hl.Input((6,), dtype="int32", name="ids")
    h = layers.GlobalAveragePooling1D()(layers.Embedding(11, 4)(ids))
    model = hl.Model(ids, [layers.Dense(2, name="first")(h), layers.Dense(3, activation="softmax", name="second")(h)])
    x = np.random.default_rng(6).integers(0, 11, size=(5, 6)).astype("int32")
    path = str(tmp_path / "two_out.onnx")
    export_onnx(model, path, verbose=False)
    proto = onnx.load(path)
    assert [o.name for o in proto.graph.output] == ["output_0", "output_1"]
    for batch in (2, 5):
        _, got = _run(path, {"ids": x[:batch]})
        want = model.predict(x[:batch], verbose=0)
        assert len(got) == 2
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


def test_missing_onnx_names_the_extra(monkeypatch, tmp_path):
    import sys

    monkeypatch.setitem(sys.modules, "onnx", None)  # import onnx now raises ImportError
    model = hl.Sequential([hl.Input((2,)), layers.Dense(1)])
    with pytest.raises(ImportError, match=r'pip install -e "\.\[onnx\]" \(in a checkout of highlevel\)'):
        export_onnx(model, str(tmp_path / "m.onnx"), verbose=False)


@pytest.mark.backends("torch")
def test_lstm_from_torch(backend, tmp_path):
    """The torch tracer unrolls a recurrent layer; its initial states follow the batch size of the input."""
    ids = hl.Input((5,), dtype="int32", name="ids")
    model = hl.Model(ids, layers.Dense(2)(layers.LSTM(3)(layers.Embedding(9, 4)(ids))))
    x = np.random.default_rng(7).integers(0, 9, size=(6, 5)).astype("int32")
    _check(model, str(tmp_path / "lstm.onnx"), [x], ["ids"])


#: The writer each engine's own converter is, as it signs the file.
PRODUCERS = {"native": "highlevel", "jax": "jax2onnx", "torch": "pytorch", "tensorflow": "tf2onnx"}


def test_each_engine_writes_with_its_own_converter(backend, tmp_path):
    """torch.onnx on torch, tf2onnx on TensorFlow, jax2onnx on JAX, the layer-graph writer on native."""
    model = hl.Sequential([hl.Input((4,), name="x"), layers.Dense(3, activation="tanh")])
    path = str(tmp_path / "m.onnx")
    export_onnx(model, path, verbose=False)
    assert onnx.load(path).producer_name == PRODUCERS[backend.name]


@pytest.mark.backends("jax")
def test_jax_converter_writes_recurrence_and_attention(backend, tmp_path):
    """jax2onnx converts a recurrent layer's scan and multi-head attention, with the batch left open."""
    hl.utils.set_random_seed(8)
    seq = hl.Input((6, 4), name="seq")
    h = layers.LSTM(5, return_sequences=True)(seq)
    h = layers.LayerNormalization()(layers.MultiHeadAttention(2, 3)(h, h) + h)
    model = hl.Model(seq, layers.Dense(2)(layers.GlobalAveragePooling1D()(h)))
    x = np.random.default_rng(8).normal(size=(5, 6, 4)).astype("float32")
    _check(model, str(tmp_path / "seq.onnx"), [x], ["seq"])
    assert onnx.load(str(tmp_path / "seq.onnx")).producer_name == "jax2onnx"


@pytest.mark.backends("jax")
def test_jax_converter_traces_an_unregistered_subclassed_model(backend, tmp_path):
    class Unregistered(hl.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.dense = layers.Dense(2)

        def call(self, x):
            return hl.ops.sigmoid(self.dense(x))

    model = Unregistered()
    x = np.random.default_rng(9).normal(size=(4, 3)).astype("float32")
    model(x)
    path = str(tmp_path / "u.onnx")
    export_onnx(model, path, verbose=False)
    _, (got,) = _run(path, {"input_0": x})
    np.testing.assert_allclose(got, model.predict(x, verbose=0), rtol=1e-4, atol=1e-5)


@pytest.mark.backends("jax")
def test_a_file_the_converter_gets_wrong_passes_to_the_next_writer(backend, tmp_path):
    """jax2onnx maps a max pooling window over all four axes of an image to a 4-d MaxPool that onnxruntime
    refuses; so does an opset below its floor: the layer-graph writer then writes the file, which predicts as the
    model."""
    model = hl.Sequential([hl.Input((6, 6, 2), name="img"), layers.MaxPooling2D(), layers.Flatten(), layers.Dense(2)])
    x = np.random.default_rng(10).normal(size=(3, 6, 6, 2)).astype("float32")
    _check(model, str(tmp_path / "pool.onnx"), [x], ["img"])
    assert onnx.load(str(tmp_path / "pool.onnx")).producer_name == "highlevel"
    dense = hl.Sequential([hl.Input((4,), name="x"), layers.Dense(3)])
    export_onnx(dense, str(tmp_path / "old.onnx"), opset_version=17, verbose=False)
    proto = onnx.load(str(tmp_path / "old.onnx"))
    assert proto.producer_name == "highlevel" and proto.opset_import[0].version == 17


def test_when_no_writer_succeeds_every_reason_is_given(backend, tmp_path, monkeypatch):
    """Each writer's failure is named in the one error."""
    from highlevel.export import onnx as onnx_module

    model = hl.Sequential([hl.Input((2,)), layers.Dense(1)])
    monkeypatch.setattr(onnx_module, "_check_open_batch", _refuse)
    with pytest.raises(ValueError, match="No writer could export") as info:
        export_onnx(model, str(tmp_path / "m.onnx"), verbose=False)
    assert "the layer-graph writer: refused for the test" in str(info.value)


def _refuse(proto, specs):
    raise ValueError("refused for the test")
