"""imdb and reuters read small ``.npz`` files of ragged sequences (object arrays), with Keras's arguments, into
the same sequences, order and splits as Keras's loaders."""

import json
import os
import pickle

import numpy as np
import pytest

from highlevel.datasets import imdb, reuters

from .files import npz, place, ragged

RNG = np.random.default_rng(1)


def _as_lists(result):
    (x_train, y_train), (x_test, y_test) = result
    return [list(map(list, x_train)), y_train, list(map(list, x_test)), y_test]


def _assert_same(ours, theirs):
    o, t = _as_lists(ours), _as_lists(theirs)
    assert o[0] == t[0] and o[2] == t[2]
    for a, b in ((o[1], t[1]), (o[3], t[3])):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


@pytest.fixture
def imdb_file(home, nowhere, monkeypatch):
    arrays = {
        "x_train": ragged(RNG, 12, 30, 9),
        "y_train": RNG.integers(0, 2, 12),
        "x_test": ragged(RNG, 8, 30, 9),
        "y_test": RNG.integers(0, 2, 8),
    }
    return place(monkeypatch, imdb, "imdb.npz", npz(**arrays), home, nowhere), arrays


IMDB_ARGUMENTS = [
    {"num_words": 20},
    {"num_words": 15, "skip_top": 5, "seed": 7},
    {"num_words": 20, "maxlen": 6},
    {"num_words": 12, "oov_char": None},
    {"num_words": 20, "start_char": None, "index_from": 0},
    {"num_words": 25, "start_char": None},
    {"num_words": 40, "index_from": 5, "start_char": 3, "oov_char": 4},
]


@pytest.mark.parametrize("kwargs", IMDB_ARGUMENTS)
def test_imdb_matches_keras(imdb_file, keras_loader, kwargs):
    path, _ = imdb_file
    _assert_same(imdb.load_data(**kwargs), keras_loader("imdb", path).load_data(**kwargs))


def test_imdb_values(imdb_file):
    _, arrays = imdb_file
    (x_train, y_train), (x_test, y_test) = imdb.load_data(seed=113)
    assert x_train.dtype == object and x_train.shape == (12,) and isinstance(x_train[0], list)
    assert y_train.dtype == arrays["y_train"].dtype and len(x_test) == 8
    order = np.arange(12)
    np.random.RandomState(113).shuffle(order)
    assert x_train[0] == [1] + [w + 3 for w in arrays["x_train"][order[0]]]
    assert y_train[0] == arrays["y_train"][order[0]]


def test_imdb_num_words_none_keeps_every_word(imdb_file, keras_loader):
    # Keras's loader turns the largest index into oov_char when num_words is None, against its own documentation
    # ("If None, all words are kept"); here every word is kept, and that largest index is the only difference
    path, _ = imdb_file
    ours, theirs = _as_lists(imdb.load_data()), _as_lists(keras_loader("imdb", path).load_data())
    top = max(max(s) for s in ours[0] + ours[2])
    for o, t in ((ours[0], theirs[0]), (ours[2], theirs[2])):
        assert [[2 if w == top else w for w in s] for s in o] == t
    assert any(top in s for s in ours[0] + ours[2])


def test_imdb_arrays_stay_one_dimensional_when_lengths_agree(home, nowhere, monkeypatch):
    same = np.empty(3, dtype=object)
    for i in range(3):
        same[i] = [1, 2, 3]
    place(
        monkeypatch,
        imdb,
        "imdb.npz",
        npz(x_train=same, y_train=np.arange(3), x_test=same, y_test=np.arange(3)),
        home,
        nowhere,
    )
    (x_train, _), _ = imdb.load_data()
    assert x_train.shape == (3,) and x_train[0] == [1, 4, 5, 6]


def test_imdb_errors(imdb_file):
    with pytest.raises(ValueError, match="no review is shorter than maxlen=2"):
        imdb.load_data(maxlen=2)
    with pytest.raises(ValueError, match="num_words must be a positive int or None; received num_words=0"):
        imdb.load_data(num_words=0)
    with pytest.raises(ValueError, match="skip_top"):
        imdb.load_data(skip_top=-1)
    with pytest.raises(TypeError, match=r"unexpected arguments \['nb_words'\]"):
        imdb.load_data(nb_words=100)


def test_imdb_word_index(home, nowhere, monkeypatch, keras_loader):
    index = {"the": 1, "and": 2, "film": 3, "café": 4}
    path = place(monkeypatch, imdb, "imdb_word_index.json", json.dumps(index).encode("utf-8"), home, nowhere)
    assert imdb.get_word_index() == index
    assert keras_loader("imdb", path).get_word_index() == index


def test_a_tampered_npz_runs_no_code(home, nowhere, monkeypatch, tmp_path):
    witness = tmp_path / "witness"

    class Gadget:
        def __reduce__(self):
            return os.mkdir, (str(witness),)

    evil = np.empty(2, dtype=object)
    evil[0], evil[1] = [1, 2], Gadget()
    data = npz(x_train=evil, y_train=np.arange(2), x_test=evil, y_test=np.arange(2))
    place(monkeypatch, imdb, "imdb.npz", data, home, nowhere)
    with pytest.raises(pickle.UnpicklingError, match="Refusing to load posix.mkdir|Refusing to load nt.mkdir"):
        imdb.load_data()
    assert not witness.exists()


@pytest.fixture
def reuters_file(home, nowhere, monkeypatch):
    arrays = {"x": ragged(RNG, 25, 40, 10), "y": RNG.integers(0, 46, 25)}
    return place(monkeypatch, reuters, "reuters.npz", npz(**arrays), home, nowhere), arrays


REUTERS_ARGUMENTS = [
    {"num_words": 30},
    {"num_words": 30, "test_split": 0.5, "seed": 3},
    {"num_words": 20, "skip_top": 4, "maxlen": 7},
    {"num_words": 18, "oov_char": None, "start_char": None},
    {"num_words": 45, "index_from": 0, "start_char": None, "test_split": 0.0},
]


@pytest.mark.parametrize("kwargs", REUTERS_ARGUMENTS)
def test_reuters_matches_keras(reuters_file, keras_loader, kwargs):
    path, _ = reuters_file
    _assert_same(reuters.load_data(**kwargs), keras_loader("reuters", path).load_data(**kwargs))


def test_reuters_split_sizes_and_labels(reuters_file):
    _, arrays = reuters_file
    (x_train, y_train), (x_test, y_test) = reuters.load_data(test_split=0.2)
    assert (len(x_train), len(x_test)) == (20, 5)
    assert sorted(np.concatenate([y_train, y_test]).tolist()) == sorted(arrays["y"].tolist())
    with pytest.raises(ValueError, match="test_split must be a fraction in"):
        reuters.load_data(test_split=1.5)


def test_reuters_word_index_and_label_names(home, nowhere, monkeypatch, keras_loader):
    index = {"said": 1, "mln": 2}
    path = place(monkeypatch, reuters, "reuters_word_index.json", json.dumps(index).encode(), home, nowhere)
    assert reuters.get_word_index() == index
    keras_reuters = keras_loader("reuters", path)
    assert keras_reuters.get_word_index() == index
    assert reuters.get_label_names() == keras_reuters.get_label_names()


def test_word_index_with_a_wrong_md5_is_downloaded_again(home, nowhere, monkeypatch):
    from highlevel.utils.file_utils import DownloadError

    place(monkeypatch, imdb, "imdb_word_index.json", b"{}", home, nowhere)
    with open(os.path.join(home, "imdb_word_index.json"), "wb") as f:
        f.write(b'{"changed": 1}')
    with pytest.raises(DownloadError, match="does not match the expected md5 hash"):
        imdb.get_word_index()


def test_object_arrays_of_numpy_scalars_and_protocol_5_are_read(tmp_path):
    from highlevel.datasets._safe_pickle import load_npz

    seqs = np.empty(2, dtype=object)
    seqs[0], seqs[1] = [np.int64(3), np.int32(4)], [5]
    path = tmp_path / "scalars.npz"
    path.write_bytes(npz(x=seqs, y=np.arange(2)))
    loaded = load_npz(str(path))
    assert loaded["x"][0] == [3, 4] and loaded["x"][0][1].dtype == np.int32
    import io

    from highlevel.datasets._safe_pickle import load_pickle

    array = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(load_pickle(io.BytesIO(pickle.dumps(array, protocol=5))), array)
