"""IntegerLookup vs Keras 3: given and adapted vocabularies, OOV indices (floormod, farmhash, salt), masks,
every output mode, invert, vocabulary accessors, config and model saving, errors."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from .categorical_oracle import assert_same, keras_module, ours, save_and_load

VOCAB = [12, 36, 1138, 42]
X = np.array([[12, 1138, 42, 42], [42, 7, 36, 7]])
DATA = np.array([[12, 1138, 42], [42, 1000, 36], [7, 7, 7]])

GIVEN = [
    {},
    {"num_oov_indices": 2},
    {"num_oov_indices": 3, "oov_method": "farmhash"},
    {"num_oov_indices": 3, "oov_method": "farmhash", "salt": 5},
    {"mask_token": 0},
    {"output_mode": "one_hot"},
    {"output_mode": "multi_hot"},
    {"output_mode": "count", "mask_token": 7},
    {"output_mode": "tf_idf", "idf_weights": [0.25, 0.75, 0.6, 0.4]},
    {"output_mode": "multi_hot", "max_tokens": 10, "pad_to_max_tokens": True},
]


@pytest.mark.parametrize("kwargs", GIVEN, ids=str)
def test_given_vocabulary_matches_keras(backend, kwargs):
    keras = keras_module()
    x = X[:, :1] if kwargs.get("output_mode") == "one_hot" else X
    assert_same(
        layers.IntegerLookup(vocabulary=VOCAB, **kwargs)(x),
        keras.layers.IntegerLookup(vocabulary=VOCAB, **kwargs)(x),
        str(kwargs),
    )


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"max_tokens": 4},
        {"output_mode": "tf_idf"},
        {"output_mode": "count", "mask_token": 7},
        {"output_mode": "tf_idf", "max_tokens": 8, "pad_to_max_tokens": True},
    ],
    ids=str,
)
def test_adapt_matches_keras(backend, kwargs):
    keras = keras_module()
    a, b = layers.IntegerLookup(**kwargs), keras.layers.IntegerLookup(**kwargs)
    a.adapt(DATA)
    b.adapt(DATA)
    assert a.get_vocabulary() == [int(v) for v in b.get_vocabulary()]
    assert a.get_vocabulary(include_special_tokens=False) == [int(v) for v in b.get_vocabulary(False)]
    assert a.vocabulary_size() == b.vocabulary_size()
    assert_same(a(DATA), b(DATA), str(kwargs))


def test_invert_matches_keras(backend):
    keras = keras_module()
    idx = np.array([[1, 3, 4], [4, 0, 7]])
    for kwargs in ({}, {"mask_token": 0}):
        assert_same(
            layers.IntegerLookup(vocabulary=VOCAB, invert=True, **kwargs)(idx),
            keras.layers.IntegerLookup(vocabulary=VOCAB, invert=True, **kwargs)(idx),
        )
    forward = layers.IntegerLookup(vocabulary=VOCAB)
    inverse = layers.IntegerLookup(vocabulary=forward.get_vocabulary(), invert=True)
    assert ours(inverse(forward(X))).tolist() == [[12, 1138, 42, 42], [42, -1, 36, -1]]


def test_vocabulary_file_and_set_vocabulary(backend, tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("\n".join(str(v) for v in VOCAB) + "\n")
    layer = layers.IntegerLookup(vocabulary=str(path))
    assert layer.get_vocabulary() == [-1] + VOCAB
    layer.set_vocabulary([-1, 5, 6])  # special tokens at the front are recognised
    assert layer.get_vocabulary() == [-1, 5, 6] and ours(layer(np.array([6, 9]))).tolist() == [2, 0]


def test_adapted_state_survives_config_and_save(backend, tmp_path):
    layer = layers.IntegerLookup(output_mode="tf_idf")
    layer.adapt(DATA)
    clone = layers.IntegerLookup.from_config(layer.get_config())
    assert clone.get_vocabulary() == layer.get_vocabulary()
    np.testing.assert_allclose(ours(clone(DATA)), ours(layer(DATA)), rtol=1e-6)
    fresh = layers.IntegerLookup.from_config(layer.get_config())
    fresh.adapt(np.array([1, 1, 2]))  # an adapted layer stays adaptable after from_config
    assert fresh.get_vocabulary() == [-1, 1, 2]
    with pytest.raises(RuntimeError, match="cannot be changed after the layer is called"):
        clone.adapt(np.array([1, 1, 2]))  # as in Keras: the encoded size is frozen by the first call
    inputs = hl.Input((3,), dtype="int64")
    model = hl.Model(inputs, hl.layers.Dense(2)(layer(inputs)))
    again = save_and_load(model, tmp_path)
    np.testing.assert_allclose(ours(again(DATA)), ours(model(DATA)), rtol=1e-6)


@pytest.mark.parametrize(
    "mode,shape,dtype", [("int", (3, 4), "int64"), ("multi_hot", (3, 6), "float32"), ("one_hot", (3, 4, 6), "float32")]
)
def test_standard_checks(backend, mode, shape, dtype):
    run_layer_test(
        layers.IntegerLookup,
        {"vocabulary": [0, 1, 2, 3, 4], "output_mode": mode},
        input_shape=(3, 4),
        input_dtype="int32",
        expected_output_shape=shape,
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype=dtype,
    )


def test_errors():
    with pytest.raises(ValueError, match="repeated"):
        layers.IntegerLookup(vocabulary=[1, 1])
    with pytest.raises(ValueError, match="max_tokens"):
        layers.IntegerLookup(max_tokens=1)
    with pytest.raises(ValueError, match="larger than the maximum"):
        layers.IntegerLookup(max_tokens=3, vocabulary=[1, 2, 3])
    with pytest.raises(ValueError, match="num_oov_indices"):
        layers.IntegerLookup(num_oov_indices=-1)
    with pytest.raises(ValueError, match="idf_weights"):
        layers.IntegerLookup(vocabulary=[1], output_mode="tf_idf")
    with pytest.raises(ValueError, match="static vocabulary"):
        layers.IntegerLookup(vocabulary=[1, 2]).adapt(np.array([1]))
    with pytest.raises(ValueError, match="all inputs should be in vocabulary"):
        layers.IntegerLookup(vocabulary=[1, 2], num_oov_indices=0)(np.array([3]))
    with pytest.raises(RuntimeError, match="vocabulary"):
        layers.IntegerLookup(output_mode="multi_hot")(np.array([[1]]))
    with pytest.raises(ValueError, match="vocabulary_dtype"):
        layers.IntegerLookup(vocabulary_dtype="int32")
