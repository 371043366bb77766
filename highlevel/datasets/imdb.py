"""IMDB movie reviews: 50,000 reviews labeled by sentiment (1 positive, 0 negative), 25,000 for training and
25,000 for testing, each a list of word indices.

Words are indexed by how often they occur in the data (index 1 is the most frequent word of the index), so
that "the 10,000 most frequent words but not the 20 most frequent" is a cut on the index. The reviews are
downloaded once (17 MB, from the address Keras uses) into Keras's cache (``~/.keras/datasets/imdb.npz``).
Its ragged sequences are numpy object arrays, which are read with an unpickler that rebuilds only numpy
arrays and plain values, so a tampered file cannot run code. The data come from Andrew Maas et al.,
"Learning Word Vectors for Sentiment Analysis" (ACL 2011).

>>> from highlevel.datasets import imdb
>>> sorted(imdb.SOURCES)
['imdb.npz', 'imdb_word_index.json']
"""

import json

import numpy as np

from highlevel.datasets import _sequences
from highlevel.datasets._npz import read_arrays as _read_arrays
from highlevel.utils.file_utils import get_file as _get_file

_BASE = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
#: Where each file comes from: ``{file name: (URL, hash)}`` (sha256 for the reviews, md5 for the word index).
SOURCES = {
    "imdb.npz": (_BASE + "imdb.npz", "69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"),
    "imdb_word_index.json": (_BASE + "imdb_word_index.json", "bfafd718b763782e994055a2d397834f"),
}


def load_data(
    path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1, oov_char=2, index_from=3, **kwargs
):
    """Loads the IMDB reviews, downloading them on first use.

    The training and the test set are each shuffled with ``seed`` (as Keras shuffles them, so the same seed
    gives the same order), then every word index is moved up by ``index_from`` behind a ``start_char``.

    Args:
        path: the file's name in the cache folder (``~/.keras/datasets``).
        num_words: keeps the word indices below ``num_words`` (the most frequent words); the others become
            ``oov_char``. None keeps every word.
        skip_top: the indices below ``skip_top`` (the most frequent words, and the start and out-of-vocabulary
            marks) become ``oov_char`` too.
        maxlen: drops the reviews of ``maxlen`` indices or more (counting the start mark), as Keras does; None
            keeps all.
        seed: the seed of the shuffle.
        start_char: the index that starts every review (0 is usually padding); None for no start mark.
        oov_char: the index that replaces the words cut by ``num_words`` or ``skip_top``; None removes them.
        index_from: the first index of actual words (the ones below mark start, out-of-vocabulary, padding).
        **kwargs: none are accepted (Keras ignores unknown arguments; here they are an error).

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: 1-D object arrays of lists of ints, and int64 label arrays
        (1 positive, 0 negative).

    Raises:
        ValueError: an argument out of range, or ``maxlen`` so small that no review is left.
        DownloadError: the file is not cached and cannot be downloaded; the message names the URL and the path
            where the file can be put by hand.
    """
    if kwargs:
        raise TypeError(
            f"imdb.load_data got unexpected arguments {sorted(kwargs)}; it takes path, num_words, "
            "skip_top, maxlen, seed, start_char, oov_char and index_from."
        )
    _sequences.check_arguments("imdb", num_words, skip_top, maxlen, seed, start_char, oov_char, index_from)
    origin, file_hash = SOURCES["imdb.npz"]
    path = _get_file(fname=path, origin=origin, file_hash=file_hash)
    f = _read_arrays(path, ("x_train", "y_train", "x_test", "y_test"), objects=True)

    rng = np.random.RandomState(seed)
    parts = []
    for x, y in ((f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])):
        order = _sequences.shuffle_order(rng, len(x))
        parts.append((_sequences.prepare(x[order], start_char, index_from), y[order]))
    if maxlen:
        parts = [_sequences.drop_long(maxlen, x, y) for x, y in parts]
        if not parts[0][0] or not parts[1][0]:
            raise ValueError(
                f"imdb.load_data: no review is shorter than maxlen={maxlen} in the "
                f"{'training' if not parts[0][0] else 'test'} set; increase maxlen."
            )
    (x_train, y_train), (x_test, y_test) = parts
    xs = _sequences.limit_vocabulary(x_train + x_test, num_words, skip_top, oov_char)
    n = len(x_train)
    return (
        (_sequences.object_array(xs[:n]), np.asarray(y_train)),
        (_sequences.object_array(xs[n:]), np.asarray(y_test)),
    )


def get_word_index(path="imdb_word_index.json"):
    """The word index of the reviews, ``{word: index}`` (before ``index_from`` is added), downloading it on
    first use.

    Args:
        path: the file's name in the cache folder (``~/.keras/datasets``).
    """
    origin, file_hash = SOURCES["imdb_word_index.json"]
    path = _get_file(fname=path, origin=origin, file_hash=file_hash)
    with open(path, encoding="utf-8") as f:
        return json.load(f)
