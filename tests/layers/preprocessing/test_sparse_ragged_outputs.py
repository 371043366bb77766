"""``sparse=True`` and ``ragged=True`` outputs of the preprocessing layers: ``tf.SparseTensor`` and
``tf.RaggedTensor`` on TensorFlow equal to Keras's; elsewhere a clear refusal when the layer is created."""

import numpy as np
import pytest

import highlevel as hl

L = hl.layers
VOCAB = ["a", "b", "c"]
CORPUS = ["the cat sat", "a dog"]


#: The engines without sparse and ragged tensors (the refusal tests run there; each asserts the capability says so).
NO_SPARSE = ("native", "jax", "torch")


def test_only_tensorflow_has_sparse_outputs(backend):
    assert backend.capabilities.supports_sparse_outputs == (backend.name not in NO_SPARSE)


def _cases():
    """name -> (a function building a layer from a layers module, the input)."""
    return {
        "category_one_hot": (lambda m: m.CategoryEncoding(4, output_mode="one_hot", sparse=True), np.array([0, 3, 1])),
        "category_multi_hot": (lambda m: m.CategoryEncoding(4, sparse=True), np.array([[0, 1], [2, 2]])),
        "category_count": (
            lambda m: m.CategoryEncoding(4, output_mode="count", sparse=True),
            np.array([[0, 1], [2, 2]]),
        ),
        "string_multi_hot": (
            lambda m: m.StringLookup(vocabulary=VOCAB, output_mode="multi_hot", sparse=True),
            np.array([["a", "c"], ["b", "z"]]),
        ),
        "string_count": (
            lambda m: m.StringLookup(vocabulary=VOCAB, output_mode="count", sparse=True),
            np.array([["a", "a"], ["b", "z"]]),
        ),
        "string_one_hot": (
            lambda m: m.StringLookup(vocabulary=VOCAB, output_mode="one_hot", sparse=True),
            np.array(["a", "c", "z"]),
        ),
        "integer_multi_hot": (
            lambda m: m.IntegerLookup(vocabulary=[5, 6, 7], output_mode="multi_hot", sparse=True),
            np.array([[5, 7], [6, 9]]),
        ),
        "hashing_one_hot": (lambda m: m.Hashing(5, output_mode="one_hot", sparse=True), np.array(["a", "b", "c"])),
        "hashing_count": (
            lambda m: m.Hashing(5, output_mode="count", sparse=True),
            np.array([["a", "b"], ["c", "c"]]),
        ),
        "crossing_one_hot": (
            lambda m: m.HashedCrossing(5, output_mode="one_hot", sparse=True),
            (np.array(["a", "b"]), np.array([1, 2])),
        ),
        "text_multi_hot": (
            lambda m: _adapted(m.TextVectorization(output_mode="multi_hot", sparse=True)),
            np.array(["the cat sat on", "a dog"]),
        ),
        "text_ragged": (lambda m: _adapted(m.TextVectorization(ragged=True)), np.array(["the cat sat on", "a dog"])),
        "text_ragged_cut": (
            lambda m: _adapted(m.TextVectorization(ragged=True, output_sequence_length=2)),
            np.array(["the cat sat on", "a dog"]),
        ),
    }


def _adapted(layer):
    layer.adapt(CORPUS)
    return layer


def _as_arrays(out, tf):
    """A sparse or ragged output as plain arrays: kind, then (dense, indices, shape) or (values, row lengths)."""
    if isinstance(out, tf.RaggedTensor):
        return {"kind": np.array("ragged"), "values": out.flat_values.numpy(), "rows": out.row_lengths().numpy()}
    return {
        "kind": np.array("sparse"),
        "dense": tf.sparse.to_dense(out).numpy(),
        "indices": out.indices.numpy(),
        "shape": out.dense_shape.numpy(),
    }


# Keras picks its engine at import (another test module may have imported it on JAX): its half runs in a process
# of its own, on TensorFlow.
_KERAS_SCRIPT = """
import importlib.util, sys
import numpy as np, keras, tensorflow as tf
spec = importlib.util.spec_from_file_location("cases", sys.argv[1])
cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cases)
out = {}
for name, (build, data) in cases._cases().items():
    for key, value in cases._as_arrays(build(keras.layers)(data), tf).items():
        out[name + "/" + key] = value
np.savez(sys.argv[2], **out)
"""


@pytest.fixture(scope="module")
def keras_tf(tmp_path_factory):
    """Real Keras's outputs of every case, on its TensorFlow backend."""
    import os
    import subprocess
    import sys

    pytest.importorskip("keras")
    pytest.importorskip("tensorflow")
    path = tmp_path_factory.mktemp("keras_sparse") / "keras.npz"
    run = subprocess.run(
        [sys.executable, "-c", _KERAS_SCRIPT, __file__, str(path)],
        env=dict(os.environ, KERAS_BACKEND="tensorflow"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


@pytest.mark.parametrize("case", sorted(_cases()))
def test_output_equals_keras_on_tensorflow(case, keras_tf):
    tf = pytest.importorskip("tensorflow")
    build, data = _cases()[case]
    with hl.config.backend_scope("tensorflow"):
        layer = build(L)
        out = layer(data)
    assert isinstance(out, tf.RaggedTensor if case.startswith("text_ragged") else tf.SparseTensor)
    ours = _as_arrays(out, tf)
    assert str(keras_tf[f"{case}/kind"]) == str(ours.pop("kind"))
    for key, value in ours.items():
        np.testing.assert_allclose(value, keras_tf[f"{case}/{key}"], err_msg=f"{case}: {key}")
    if case.startswith("text"):
        assert layer.get_config()["ragged"] == case.startswith("text_ragged")


def test_sparse_symbolic_output_and_config_on_tensorflow():
    pytest.importorskip("tensorflow")
    with hl.config.backend_scope("tensorflow"):
        layer = L.CategoryEncoding(4, sparse=True)
        spec = layer.compute_output_spec(hl.KerasTensor((None, 2), "int32"))
        assert spec.sparse and spec.shape == (None, 4)
        assert L.CategoryEncoding.from_config(layer.get_config()).sparse


@pytest.mark.parametrize(
    "build",
    [
        lambda: L.CategoryEncoding(4, sparse=True),
        lambda: L.StringLookup(vocabulary=VOCAB, output_mode="multi_hot", sparse=True),
        lambda: L.IntegerLookup(vocabulary=[1, 2], output_mode="count", sparse=True),
        lambda: L.Hashing(4, output_mode="one_hot", sparse=True),
        lambda: L.HashedCrossing(4, output_mode="one_hot", sparse=True),
        lambda: L.TextVectorization(output_mode="multi_hot", sparse=True),
        lambda: L.TextVectorization(ragged=True),
    ],
)
@pytest.mark.backends(*NO_SPARSE)
def test_refused_where_the_engine_has_no_such_tensor(backend, build):
    assert not backend.capabilities.supports_sparse_outputs
    with pytest.raises(ValueError, match=r"=True` in \w+ needs (sparse|ragged) tensors.*TensorFlow backend only"):
        build()


def test_sparse_needs_an_encoding_mode():
    with pytest.raises(ValueError, match="`sparse` may only be true if `output_mode`"):
        L.StringLookup(vocabulary=VOCAB, sparse=True)
    with pytest.raises(ValueError, match="`ragged=True` needs `output_mode='int'`"):
        L.TextVectorization(output_mode="count", ragged=True)


def test_sparse_output_feeds_a_functional_model_on_tensorflow(tmp_path):
    pytest.importorskip("tensorflow")
    data = np.array([[0, 1], [2, 2], [3, 3], [1, 0]])
    target = np.array([[1.0], [0.0], [0.0], [1.0]], "float32")
    with hl.config.backend_scope("tensorflow"):
        hl.utils.set_random_seed(0)
        inputs = hl.Input((2,), dtype="int32")
        counts = L.CategoryEncoding(4, output_mode="count", sparse=True)(inputs)
        assert counts.sparse
        model = hl.Model(inputs, L.Dense(1)(counts))
        model.compile(hl.optimizers.SGD(0.1), "mse")
        history = model.fit(data, target, epochs=30, verbose=0)
        assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
        model.save(tmp_path / "sparse.keras")
        loaded = hl.models.load_model(tmp_path / "sparse.keras")
        assert loaded.layers[1].sparse
        np.testing.assert_allclose(loaded.predict(data, verbose=0), model.predict(data, verbose=0), rtol=1e-6)


def test_ragged_output_into_a_dense_layer_is_refused_on_tensorflow():
    pytest.importorskip("tensorflow")
    with hl.config.backend_scope("tensorflow"):
        layer = L.TextVectorization(ragged=True)
        layer.adapt(CORPUS)
        with pytest.raises(TypeError, match=r"tf.RaggedTensor .*Pad it first"):
            L.Embedding(8, 2)(layer(np.array(["the cat", "a"])))


def test_sparse_input_on_tensorflow_takes_sparse_data(tmp_path):
    tf = pytest.importorskip("tensorflow")
    dense = np.array([[0.0, 2.0, 0.0], [1.0, 0.0, 3.0]], "float32")
    with hl.config.backend_scope("tensorflow"):
        inputs = hl.Input((3,), sparse=True)
        assert inputs.sparse
        model = hl.Model(inputs, L.Dense(2)(inputs))
        expected = hl.ops.convert_to_numpy(model(dense))
        got = hl.ops.convert_to_numpy(model(tf.sparse.from_dense(dense)))
        np.testing.assert_allclose(got, expected, rtol=1e-6)
        model.save(tmp_path / "sparse_input.keras")
        loaded = hl.models.load_model(tmp_path / "sparse_input.keras")
        assert loaded.inputs[0].sparse
        np.testing.assert_allclose(hl.ops.convert_to_numpy(loaded(tf.sparse.from_dense(dense))), expected, rtol=1e-6)


@pytest.mark.backends(*NO_SPARSE)
def test_sparse_input_refused_without_sparse_tensors(backend):
    assert not backend.capabilities.supports_sparse_outputs
    with pytest.raises(ValueError, match="`sparse=True` in Input needs sparse tensors.*TensorFlow backend only"):
        hl.Input((3,), sparse=True)
