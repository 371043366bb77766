"""StringLookup vs Keras 3: given and adapted vocabularies, OOV hashing (FarmHash, SipHash), masks, every
output mode, invert (host strings), host inputs (str/bytes/object arrays, lists), config, errors."""

import json

import numpy as np
import pytest

from highlevel import layers

from .categorical_oracle import assert_same, keras_module, ours

VOCAB = ["a", "b", "c", "d"]
X = np.array([["a", "c", "d", "d"], ["d", "z", "b", "zz"]])
DATA = np.array([["the", "cat", "sat"], ["the", "dog", "ran"], ["a", "cat", "ran"]])

GIVEN = [
    {},
    {"num_oov_indices": 3},
    {"num_oov_indices": 3, "salt": [1, 2]},
    {"mask_token": ""},
    {"output_mode": "one_hot"},
    {"output_mode": "multi_hot"},
    {"output_mode": "count", "mask_token": "d"},
    {"output_mode": "tf_idf", "idf_weights": [0.1, 0.2, 0.3, 0.4]},
    {"output_mode": "count", "max_tokens": 9, "pad_to_max_tokens": True},
]


@pytest.mark.parametrize("kwargs", GIVEN, ids=str)
def test_given_vocabulary_matches_keras(backend, kwargs):
    keras = keras_module()
    x = X[:, :1] if kwargs.get("output_mode") == "one_hot" else X
    if kwargs.get("mask_token") == "d":
        vocab = ["a", "b", "c"]
    else:
        vocab = VOCAB
    assert_same(
        layers.StringLookup(vocabulary=vocab, **kwargs)(x),
        keras.layers.StringLookup(vocabulary=vocab, **kwargs)(x),
        str(kwargs),
    )


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"output_mode": "tf_idf"},
        {"max_tokens": 4, "output_mode": "multi_hot"},
        {"num_oov_indices": 2, "mask_token": "[MASK]"},
    ],
    ids=str,
)
def test_adapt_matches_keras(backend, kwargs):
    keras = keras_module()
    a, b = layers.StringLookup(**kwargs), keras.layers.StringLookup(**kwargs)
    a.adapt(DATA)
    b.adapt(DATA)
    assert a.get_vocabulary() == [str(v) for v in b.get_vocabulary()]
    assert a.vocabulary_size() == b.vocabulary_size()
    assert_same(a(DATA), b(DATA), str(kwargs))


def test_adapt_on_batches_and_tf_dataset(backend):
    import tensorflow as tf

    keras = keras_module()
    ds = tf.data.Dataset.from_tensor_slices(DATA).batch(2)
    a, b = layers.StringLookup(output_mode="tf_idf"), keras.layers.StringLookup(output_mode="tf_idf")
    a.adapt(ds)
    b.adapt(ds)
    assert a.get_vocabulary() == [str(v) for v in b.get_vocabulary()]
    assert_same(a(DATA), b(DATA))
    gen = layers.StringLookup()
    gen.adapt(iter([DATA[:2], DATA[2:]]))
    assert gen.get_vocabulary() == a.get_vocabulary()


def test_host_inputs_and_invert(backend):
    keras = keras_module()
    layer = layers.StringLookup(vocabulary=VOCAB)
    want = ours(layer(X))
    assert ours(layer(X.tolist())).tolist() == want.tolist()
    assert ours(layer(np.char.encode(X))).tolist() == want.tolist()
    assert ours(layer(X.astype(object))).tolist() == want.tolist()
    assert ours(layer("c")).tolist() == 3
    idx = np.array([[1, 3, 4], [4, 0, 9]])
    inverse = layers.StringLookup(vocabulary=VOCAB, invert=True)
    out = inverse(idx)
    assert isinstance(out, np.ndarray) and out.dtype.kind == "U"
    assert_same(out, keras.layers.StringLookup(vocabulary=VOCAB, invert=True)(idx))
    assert_same(
        layers.StringLookup(vocabulary=VOCAB, invert=True, mask_token="")(idx),
        keras.layers.StringLookup(vocabulary=VOCAB, invert=True, mask_token="")(idx),
    )


def test_config_round_trip_keeps_vocabulary(backend):
    layer = layers.StringLookup(output_mode="tf_idf", name="lookup")
    layer.adapt(DATA)
    config = json.loads(json.dumps(layers.serialize(layer)))  # what model.save writes
    clone = layers.deserialize(config)
    assert clone.get_vocabulary() == layer.get_vocabulary() and clone.encoding == "utf-8"
    np.testing.assert_allclose(ours(clone(DATA)), ours(layer(DATA)), rtol=1e-6)
    given = layers.StringLookup(vocabulary=VOCAB, num_oov_indices=2)
    assert layers.StringLookup.from_config(given.get_config()).get_vocabulary() == given.get_vocabulary()
    assert given.get_config()["vocabulary"] == VOCAB


def test_symbolic_shapes():
    layer = layers.StringLookup(vocabulary=VOCAB, output_mode="count")
    assert layer.compute_output_shape((None, 7)) == (None, 5)
    assert layers.StringLookup(vocabulary=VOCAB).compute_output_shape((None, 7)) == (None, 7)


def test_errors():
    with pytest.raises(ValueError, match="repeated"):
        layers.StringLookup(vocabulary=["a", "a"])
    with pytest.raises(ValueError, match="mask token"):
        layers.StringLookup(vocabulary=["a", ""], mask_token="")
    with pytest.raises(ValueError, match="OOV token"):
        layers.StringLookup(vocabulary=["a", "[UNK]"], invert=True)
    with pytest.raises(ValueError, match="invert"):
        layers.StringLookup(vocabulary=["a"], invert=True, output_mode="count")
    with pytest.raises(ValueError, match="sparse"):
        layers.StringLookup(sparse=True)
    with pytest.raises(ValueError, match="all inputs should be in vocabulary"):
        layers.StringLookup(vocabulary=["a"], num_oov_indices=0)(np.array(["b"]))
