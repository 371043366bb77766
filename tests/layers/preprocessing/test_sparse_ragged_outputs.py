"""``sparse=True`` and ``ragged=True`` outputs of the preprocessing layers: ``tf.SparseTensor`` and
``tf.RaggedTensor`` on TensorFlow equal to Keras's; elsewhere a clear refusal when the layer is created."""

import numpy as np
import pytest

import highlevel as hl

L = hl.layers
VOCAB = ["a", "b", "c"]
CORPUS = ["the cat sat", "a dog"]


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
    }


def _keras_output(keras, build, data):
    return build(keras.layers)(data)


@pytest.fixture(scope="module")
def keras_tf():
    """Real Keras on its TensorFlow backend, or a skip."""
    import os

    if os.environ.get("KERAS_BACKEND", "tensorflow") != "tensorflow":
        pytest.skip("the Keras oracle needs KERAS_BACKEND=tensorflow")
    return pytest.importorskip("keras")


@pytest.mark.parametrize("case", sorted(_cases()))
def test_sparse_output_equals_keras_on_tensorflow(case, keras_tf):
    tf = pytest.importorskip("tensorflow")
    build, data = _cases()[case]
    expected = _keras_output(keras_tf, build, data)
    with hl.config.backend_scope("tensorflow"):
        out = build(L)(data)
    assert isinstance(out, tf.SparseTensor)
    assert tuple(out.dense_shape.numpy()) == tuple(expected.dense_shape.numpy())
    np.testing.assert_array_equal(out.indices.numpy(), expected.indices.numpy())  # the nonzero entries only
    np.testing.assert_allclose(tf.sparse.to_dense(out).numpy(), tf.sparse.to_dense(expected).numpy())


def test_text_vectorization_sparse_and_ragged_equal_keras(keras_tf):
    tf = pytest.importorskip("tensorflow")
    texts = np.array(["the cat sat on", "a dog"])
    for kwargs in (
        {"ragged": True},
        {"ragged": True, "output_sequence_length": 2},
        {"output_mode": "multi_hot", "sparse": True},
    ):
        ref = keras_tf.layers.TextVectorization(**kwargs)
        ref.adapt(CORPUS)
        expected = ref(texts)
        with hl.config.backend_scope("tensorflow"):
            layer = L.TextVectorization(**kwargs)
            layer.adapt(CORPUS)
            out = layer(texts)
            assert layer.get_config()["ragged"] == bool(kwargs.get("ragged"))
        if kwargs.get("ragged"):
            assert isinstance(out, tf.RaggedTensor) and out.dtype == tf.int64
            assert out.to_list() == expected.to_list()
        else:
            assert isinstance(out, tf.SparseTensor)
            np.testing.assert_array_equal(tf.sparse.to_dense(out).numpy(), tf.sparse.to_dense(expected).numpy())


def test_hashed_crossing_sparse_one_hot_on_tensorflow(keras_tf):
    tf = pytest.importorskip("tensorflow")
    data = (np.array(["a", "b"]), np.array([1, 2]))
    expected = keras_tf.layers.HashedCrossing(5, output_mode="one_hot", sparse=True)(data)
    with hl.config.backend_scope("tensorflow"):
        out = L.HashedCrossing(5, output_mode="one_hot", sparse=True)(data)
    assert isinstance(out, tf.SparseTensor)
    np.testing.assert_array_equal(tf.sparse.to_dense(out).numpy(), tf.sparse.to_dense(expected).numpy())


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
def test_refused_where_the_engine_has_no_such_tensor(backend, build):
    if backend.capabilities.supports_sparse_outputs:
        pytest.skip("this engine returns sparse and ragged outputs")
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


def test_sparse_input_refused_without_sparse_tensors(backend):
    if backend.capabilities.supports_sparse_outputs:
        pytest.skip("this engine has sparse tensors")
    with pytest.raises(ValueError, match="`sparse=True` in Input needs sparse tensors.*TensorFlow backend only"):
        hl.Input((3,), sparse=True)
