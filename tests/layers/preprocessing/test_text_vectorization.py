"""TextVectorization vs Keras 3: standardize / split / ngrams options, every output mode, sequence length,
max_tokens, adapt (arrays, batches), given vocabularies, config round trip; and models fed numpy strings."""

import json

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers

from .categorical_oracle import assert_same, keras_module, ours

TEXTS = np.array(
    ["The cat sat on the mat.", "The dog ate my homework!", "A cat, a dog; a BIRD?", "été Été  x\ty\u00a0z"]
)
X = np.array(["the cat and the dog", "bird. été? zebra", ""])

ADAPTED = [
    {},
    {"output_sequence_length": 4},
    {"output_sequence_length": 12},
    {"standardize": "lower"},
    {"standardize": None},
    {"standardize": "strip_punctuation"},
    {"split": "character"},
    {"ngrams": 2},
    {"ngrams": (1, 3)},
    {"max_tokens": 6},
    {"output_mode": "multi_hot"},
    {"output_mode": "count"},
    {"output_mode": "tf_idf"},
    {"output_mode": "multi_hot", "max_tokens": 20, "pad_to_max_tokens": True},
    {"output_mode": "count", "ngrams": 2, "max_tokens": 9},
    {"split": None},
    {"split": None, "output_mode": "multi_hot"},
]


@pytest.mark.parametrize("kwargs", ADAPTED, ids=str)
def test_adapt_matches_keras(backend, kwargs):
    keras = keras_module()
    a, b = layers.TextVectorization(**kwargs), keras.layers.TextVectorization(**kwargs)
    a.adapt(TEXTS)
    b.adapt(TEXTS)
    assert a.get_vocabulary() == [str(t) for t in b.get_vocabulary()]
    assert a.vocabulary_size() == b.vocabulary_size()
    x = X[:, None] if "split" in kwargs else X
    assert_same(a(x), b(x), str(kwargs))
    clone = layers.TextVectorization.from_config(json.loads(json.dumps(a.get_config())))
    np.testing.assert_array_equal(ours(clone(x)), ours(a(x)))


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"output_mode": "tf_idf", "idf_weights": [0.1, 0.2, 0.3, 0.4]},
        {"output_mode": "multi_hot"},
        {"output_sequence_length": 2},
    ],
    ids=str,
)
def test_given_vocabulary_matches_keras(backend, kwargs):
    keras = keras_module()
    vocab = ["the", "cat", "dog", "bird"]
    assert_same(
        layers.TextVectorization(vocabulary=vocab, **kwargs)(X),
        keras.layers.TextVectorization(vocabulary=vocab, **kwargs)(X),
        str(kwargs),
    )


def test_callables_batches_and_bytes(backend):
    keras = keras_module()

    def upper(x):  # receives a numpy str array on the host
        return np.char.upper(x)

    layer = layers.TextVectorization(standardize=upper, split=lambda x: [s.split("-") for s in x])
    layer.adapt(np.array(["a-b-b", "c-a-b"]))
    assert layer.get_vocabulary() == ["", "[UNK]", "B", "A", "C"]
    assert ours(layer(np.array(["b-c-z"]))).tolist() == [[2, 4, 1]]
    a, b = layers.TextVectorization(), keras.layers.TextVectorization()
    batches = [TEXTS[:2], TEXTS[2:]]
    a.adapt(iter(batches))
    b.adapt(iter(batches))
    assert a.get_vocabulary() == [str(t) for t in b.get_vocabulary()]
    assert_same(a(np.char.encode(X, "utf-8")), b(X))
    assert ours(a(X.tolist())).tolist() == ours(a(X)).tolist()


def test_one_hot_pads_tokens(backend):
    layer = layers.TextVectorization(vocabulary=["a", "b"], output_mode="one_hot")
    out = ours(layer(np.array(["a b", "b"])))
    assert out.shape == (2, 2, 3)  # Keras returns a ragged tensor; padded positions encode nothing here
    assert out[1, 1].tolist() == [0.0, 0.0, 0.0] and out[0, 1].tolist() == [0.0, 0.0, 1.0]


def test_preprocessing_pipeline_feeds_a_model(backend):
    """The portable pattern: vectorize on the host (data pipeline), train the model on the integer tensors."""
    texts = np.array(["good movie", "bad movie", "great film", "awful film"] * 4)
    y = np.array([1, 0, 1, 0] * 4, dtype="float32")
    vectorize = layers.TextVectorization(output_sequence_length=3)
    vectorize.adapt(texts)
    tokens = ours(vectorize(texts))
    model = hl.Sequential(
        [
            hl.Input((3,), dtype="int64"),
            layers.Embedding(10, 4),
            layers.Flatten(),
            layers.Dense(1, activation="sigmoid"),
        ]
    )
    model.compile(optimizer="sgd", loss="binary_crossentropy")
    model.fit(tokens, y, epochs=1, batch_size=4, verbose=0)
    assert model.predict(tokens, verbose=0).shape == (16, 1)


def test_model_with_text_first_layer_trains_and_predicts_on_strings(backend):
    texts = np.array(["good movie", "bad movie"])

    class Classifier(hl.Model):
        def __init__(self, vectorize):
            super().__init__()
            self.vectorize = vectorize
            self.embed = layers.Embedding(10, 4)
            self.out = layers.Dense(1)

        def call(self, x):
            return self.out(hl.ops.mean(self.embed(self.vectorize(x)), axis=1))

    vectorize = layers.TextVectorization(output_sequence_length=3)
    vectorize.adapt(texts)
    model = Classifier(vectorize)
    # A host-side text layer (supports_jit=False) makes the step run uncompiled on every backend, as in Keras.
    model.compile(optimizer="adam", loss="mse")
    history = model.fit(texts, np.array([[1.0], [0.0]], "float32"), epochs=2, batch_size=2, verbose=0)
    assert len(history.history["loss"]) == 2
    assert model.predict(texts, verbose=0).shape == (2, 1)
    assert np.isfinite(model.evaluate(texts, np.array([[1.0], [0.0]], "float32"), verbose=0))


def test_errors():
    with pytest.raises(ValueError, match="standardize"):
        layers.TextVectorization(standardize="upper")
    with pytest.raises(ValueError, match="split"):
        layers.TextVectorization(split="comma")
    with pytest.raises(ValueError, match="ngrams"):
        layers.TextVectorization(ngrams="2")
    with pytest.raises(ValueError, match="output_sequence_length"):
        layers.TextVectorization(output_mode="count", output_sequence_length=3)
    with pytest.raises(ValueError, match="ragged"):
        layers.TextVectorization(ragged=True)
    with pytest.raises(ValueError, match="last shape dimension must be 1"):
        layers.TextVectorization(vocabulary=["a"])(np.array([["a", "b"]]))


@pytest.mark.parametrize(
    "mode,kwargs", [("int", {"output_sequence_length": 4}), ("int", {}), ("multi_hot", {}), ("count", {})]
)
def test_one_string_gives_one_row_without_a_batch_axis(backend, mode, kwargs):
    keras = keras_module()
    vocabulary = ["the", "cat", "sat"]
    layer = layers.TextVectorization(vocabulary=vocabulary, output_mode=mode, **kwargs)
    theirs = keras.layers.TextVectorization(vocabulary=vocabulary, output_mode=mode, **kwargs)
    got = np.asarray(hl.ops.convert_to_numpy(layer(np.array("the cat sat cat"))))
    np.testing.assert_array_equal(got, keras.ops.convert_to_numpy(theirs(np.array("the cat sat cat"))))
    spec = layer.compute_output_shape(())
    assert len(spec) == got.ndim and all(s in (None, g) for s, g in zip(spec, got.shape))
