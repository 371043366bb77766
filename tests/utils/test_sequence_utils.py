"""``pad_sequences`` against Keras for every argument, and a model fed its output."""

import numpy as np
import pytest

import highlevel as hl

SEQUENCES = [[1, 2, 3, 4], [5], [], [6, 7]]


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"maxlen": 2},
        {"maxlen": 6},
        {"padding": "post"},
        {"truncating": "post", "maxlen": 3},
        {"padding": "post", "truncating": "post", "maxlen": 2, "value": -1},
        {"dtype": "float32", "value": 0.5},
        {"dtype": "int64", "maxlen": 1},
    ],
)
def test_matches_keras(keras, kwargs):
    ours = hl.utils.pad_sequences(SEQUENCES, **kwargs)
    theirs = keras.utils.pad_sequences(SEQUENCES, **kwargs)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, theirs)


def test_items_with_a_shape_and_arrays(keras):
    sequences = [np.ones((3, 2)), np.zeros((1, 2)), np.full((5, 2), 2.0)]
    for kwargs in ({"maxlen": 4, "dtype": "float32"}, {"padding": "post", "truncating": "post", "dtype": "float32"}):
        np.testing.assert_array_equal(
            hl.utils.pad_sequences(sequences, **kwargs), keras.utils.pad_sequences(sequences, **kwargs)
        )


def test_strings(keras):
    words = [["the", "cat", "sat"], ["a"]]
    ours = hl.utils.pad_sequences(words, dtype=object, value="<pad>", maxlen=2)
    theirs = keras.utils.pad_sequences(words, dtype=object, value="<pad>", maxlen=2)
    assert ours.tolist() == theirs.tolist() == [["cat", "sat"], ["<pad>", "a"]]
    fixed = hl.utils.pad_sequences(words, dtype="<U5", value="-", padding="post")
    assert fixed.tolist() == [["the", "cat", "sat"], ["a", "-", "-"]]


def test_maxlen_zero_gives_empty_rows():
    # Keras 3.15 fails on maxlen=0 (it assigns a sequence to an empty slice); here every row is empty.
    assert hl.utils.pad_sequences(SEQUENCES, maxlen=0).shape == (4, 0)


def test_errors():
    with pytest.raises(ValueError, match='`padding` must be "pre" or "post"'):
        hl.utils.pad_sequences(SEQUENCES, padding="middle")
    with pytest.raises(ValueError, match='`truncating` must be "pre" or "post"'):
        hl.utils.pad_sequences(SEQUENCES, truncating="both")
    with pytest.raises(ValueError, match="position 1 is not one"):
        hl.utils.pad_sequences([[1], 2])
    with pytest.raises(ValueError, match="dtype=object"):
        hl.utils.pad_sequences([["a"]], value="x")
    with pytest.raises(ValueError, match="same shape"):
        hl.utils.pad_sequences([np.ones((2, 2)), np.ones((2, 3))], dtype="float32")
    with pytest.raises(ValueError, match="maxlen"):
        hl.utils.pad_sequences(SEQUENCES, maxlen=-1)


def test_padded_sequences_train_an_embedding_model(backend):
    rng = np.random.default_rng(0)
    sequences = [list(rng.integers(1, 10, rng.integers(1, 8))) for _ in range(64)]
    labels = np.array([float(9 in s or 8 in s) for s in sequences], "float32")
    x = hl.utils.pad_sequences(sequences, maxlen=8)
    hl.utils.set_random_seed(0)
    model = hl.Sequential(
        [
            hl.Input((8,), dtype="int32"),
            hl.layers.Embedding(10, 8),
            hl.layers.GlobalMaxPooling1D(),
            hl.layers.Dense(1, activation="sigmoid"),
        ]
    )
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="binary_crossentropy")
    history = model.fit(x, labels, epochs=20, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
