"""Functional models: multi-input/multi-output as lists and dicts, shared layers, models used as layers,
get_layer, inputs/outputs/layers, calls on new symbolic tensors and ``hl.ops`` on symbolic tensors. Every
test runs on every backend."""

import numpy as np
import pytest

import highlevel as hl

L = hl.layers


def _np(x):
    return np.asarray(hl.ops.convert_to_numpy(x))


def _x(*shape, seed=0):
    return np.random.default_rng(seed).normal(size=shape).astype("float32")


def _close(a, b):
    np.testing.assert_allclose(_np(a), _np(b), rtol=1e-5, atol=1e-6)


def test_single_input_output(backend):
    x = hl.Input((3,), name="features")
    hidden = L.Dense(4, activation="relu", name="hidden")
    head = L.Dense(2, name="head")
    model = hl.Model(x, head(hidden(x)))
    assert model.built
    assert [l.name for l in model.layers] == ["features", "hidden", "head"]
    assert model.inputs == [x] and len(model.outputs) == 1 and model.outputs[0].shape == (None, 2)
    assert model.input is x and model.output is model.outputs[0]
    data = _x(5, 3)
    _close(model(data), head(hidden(data)))


def test_multi_input_multi_output_lists(backend):
    a, b = hl.Input((3,), name="a"), hl.Input((2,), name="b")
    merged = L.Concatenate(name="merge")([L.Dense(4, name="da")(a), b])
    out1, out2 = L.Dense(1, name="o1")(merged), L.Dense(3, name="o2")(merged)
    model = hl.Model([a, b], [out1, out2])
    assert model.inputs == [a, b] and [t.shape for t in model.outputs] == [(None, 1), (None, 3)]
    da, xa, xb = model.get_layer("da"), _x(4, 3), _x(4, 2, seed=1)
    y1, y2 = model([xa, xb])
    cat = hl.ops.concatenate([da(xa), hl.ops.convert_to_tensor(xb)], axis=-1)
    _close(y1, model.get_layer("o1")(cat))
    _close(y2, model.get_layer("o2")(cat))
    # Inputs may also be given as a tuple or by input name.
    _close(model((xa, xb))[1], y2)
    _close(model({"a": xa, "b": xb})[0], y1)


def test_multi_input_multi_output_dicts(backend):
    inputs = {"left": hl.Input((3,), name="left"), "right": hl.Input((3,), name="right")}
    total = L.Add()([inputs["left"], inputs["right"]])
    outputs = {"score": L.Dense(1, name="score")(total), "logits": L.Dense(4, name="logits")(total)}
    model = hl.Model(inputs, outputs)
    xl, xr = _x(2, 3), _x(2, 3, seed=1)
    out = model({"left": xl, "right": xr})
    assert isinstance(out, dict) and set(out) == {"score", "logits"}
    assert out["score"].shape == (2, 1) and out["logits"].shape == (2, 4)
    _close(out["logits"], model.get_layer("logits")(hl.ops.add(xl, xr)))
    with pytest.raises(ValueError, match="missing"):
        model({"left": xl})


def test_shared_layer(backend):
    a, b = hl.Input((3,)), hl.Input((3,))
    shared = L.Dense(2, name="shared")
    model = hl.Model([a, b], L.Subtract()([shared(a), shared(b)]))
    assert [l.name for l in model.layers].count("shared") == 1
    assert len(model.weights) == 2  # one kernel and one bias, used twice
    xa, xb = _x(3, 3), _x(3, 3, seed=1)
    _close(model([xa, xb]), hl.ops.subtract(shared(xa), shared(xb)))
    assert len(shared._inbound_nodes) == 2


def test_model_as_a_layer(backend):
    x = hl.Input((4,))
    encoder = hl.Model(x, L.Dense(2, name="code")(x), name="encoder")
    y = hl.Input((4,))
    outer = hl.Model(y, L.Dense(4, name="decode")(encoder(y)), name="autoencoder")
    assert outer.get_layer("encoder") is encoder
    assert len(outer.weights) == 4 and len(outer.trainable_weights) == 4
    data = _x(3, 4)
    _close(outer(data), outer.get_layer("decode")(encoder(data)))
    # Freezing the inner model freezes its weights inside the outer one.
    encoder.trainable = False
    assert len(outer.trainable_weights) == 2 and len(outer.non_trainable_weights) == 2


def test_get_layer(backend):
    x = hl.Input((3,), name="inp")
    model = hl.Model(x, L.Dense(2, name="last")(L.Dense(4, name="first")(x)))
    assert model.get_layer("first").units == 4
    assert model.get_layer(index=-1).name == "last"
    assert model.get_layer(index=0).name == "inp"
    with pytest.raises(ValueError, match="No such layer: 'missing'"):
        model.get_layer("missing")
    with pytest.raises(ValueError, match="out of range"):
        model.get_layer(index=7)
    with pytest.raises(ValueError, match="only one of"):
        model.get_layer("first", index=1)


def test_call_on_new_symbolic_tensors(backend):
    x = hl.Input((3,))
    base = hl.Model(x, L.Dense(2, name="d")(x))
    z = hl.Input((3,))
    y = base(z)
    assert isinstance(y, hl.KerasTensor) and y.shape == (None, 2)
    bigger = hl.Model(z, L.Dense(5)(y))
    data = _x(4, 3)
    assert bigger(data).shape == (4, 5)
    _close(bigger(data), bigger.layers[-1](base(data)))
    # A fixed batch size flows through the symbolic call.
    assert base(hl.Input(batch_shape=(7, 3))).shape == (7, 2)


def test_ops_on_symbolic_tensors(backend):
    x = hl.Input((3,))
    scaled = hl.ops.add(x * 2.0, 1.0)
    h = L.Dense(2, name="dense")(scaled)
    out = hl.ops.concatenate([hl.ops.tanh(h), x[:, :1]], axis=-1)
    assert out.shape == (None, 3)
    model = hl.Model(x, out)
    data = _x(4, 3)
    want = np.concatenate([np.tanh(_np(model.get_layer("dense")(data * 2.0 + 1.0))), data[:, :1]], axis=-1)
    np.testing.assert_allclose(_np(model(data)), want, rtol=1e-5, atol=1e-6)
    assert [l.name for l in model.layers if not isinstance(l, L.InputLayer)] == ["dense"]


def test_masks_flow_through_the_graph(backend):
    x = hl.Input((4, 2))
    masked = L.Masking(0.0)(x)
    out = L.Softmax(axis=1)(L.Lambda(lambda t: hl.ops.sum(t, axis=-1))(masked))
    model = hl.Model(x, out)
    data = _x(2, 4, 2)
    data[:, 1] = 0.0
    assert model(data).shape == (2, 4)


def test_dtype_of_inputs_follows_hl_input(backend):
    tokens = hl.Input((5,), dtype="int32")
    model = hl.Model(tokens, L.Embedding(10, 3)(tokens))
    ids = np.arange(10, dtype="int64").reshape(2, 5)
    out = model(ids)
    assert out.shape == (2, 5, 3) and hl.ops.dtype(out) == "float32"
    _close(out, hl.ops.take(model.layers[-1].embeddings.value, ids.astype("int32"), axis=0))


def test_config_round_trip(backend):
    """``hl.Model.from_config(model.get_config())`` rebuilds the functional graph (Keras behaviour); with the
    same weights it computes the same output.

    Front-end gap: highlevel/models/functional.py ``Functional.get_config`` (end of the file) returns only
    ``{"name", "trainable"}``, and ``Model.from_config`` (Layer.from_config: ``cls(**config)``) then makes a
    plain, unbuilt ``Model`` whose call returns its input unchanged, instead of raising or rebuilding.
    """
    x = hl.Input((3,), name="cfg_in")
    model = hl.Model(x, L.Dense(2, name="cfg_out")(L.Dense(4, activation="relu", name="cfg_hidden")(x)))
    clone = hl.Model.from_config(model.get_config())
    assert [l.name for l in clone.layers] == [l.name for l in model.layers]
    clone.set_weights(model.get_weights())
    data = _x(3, 3)
    _close(clone(data), model(data))


class _CountsSamples(hl.layers.Layer):
    """Adds up the samples it sees: a layer that assigns a weight in ``call``."""

    def build(self, input_shape):
        self.seen = self.add_weight(shape=(), initializer="zeros", trainable=False, name="seen")

    def call(self, x):
        self.seen.assign_add(hl.ops.sum(hl.ops.ones_like(x[:, 0])))
        self.seen.assign(self.seen.value + 0.0)
        self.seen.assign_sub(hl.ops.sum(hl.ops.zeros_like(x[:, 0])))
        return x


def test_a_layer_that_assigns_in_call_builds_symbolically_and_counts_real_calls(backend):
    # As in Keras 3, a symbolic call (building a model from Input) drops assignments: they may hold symbolic
    # values, and only shapes are computed. Real calls update the weight.
    counter = _CountsSamples()
    inputs = hl.Input((3,))
    model = hl.Model(inputs, hl.layers.Dense(2)(counter(inputs)))
    assert float(counter.seen.numpy()) == 0.0
    x = np.ones((5, 3), "float32")
    model(x)
    assert float(counter.seen.numpy()) == 5.0
    model.compile(loss="mse")
    model.predict(x, batch_size=2, verbose=0)
    assert float(counter.seen.numpy()) == 10.0
