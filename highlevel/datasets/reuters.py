"""Reuters newswires: 11,228 newswires labeled over 46 topics, each a list of word indices.

Words are indexed by how often they occur in the data, as in :mod:`highlevel.datasets.imdb`. The newswires
are downloaded once (2 MB, from the address Keras uses) into Keras's cache
(``~/.keras/datasets/reuters.npz``); their ragged sequences are read with an unpickler that rebuilds only
numpy arrays and plain values, so a tampered file cannot run code. The data are the Reuters-21578
collection (distribution 1.0, David D. Lewis).

>>> from highlevel.datasets import reuters
>>> len(reuters.get_label_names()), reuters.get_label_names()[3]
(46, 'earn')
"""

import json
import numbers

import numpy as np

from highlevel.datasets import _sequences
from highlevel.datasets._npz import read_arrays as _read_arrays
from highlevel.utils.file_utils import get_file as _get_file

_BASE = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
#: Where each file comes from: ``{file name: (URL, hash)}`` (sha256 for the newswires, md5 for the word index).
SOURCES = {
    "reuters.npz": (_BASE + "reuters.npz", "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"),
    "reuters_word_index.json": (_BASE + "reuters_word_index.json", "4d44cc38712099c9e383dc6e5f11a921"),
}

_LABELS = (
    "cocoa",
    "grain",
    "veg-oil",
    "earn",
    "acq",
    "wheat",
    "copper",
    "housing",
    "money-supply",
    "coffee",
    "sugar",
    "trade",
    "reserves",
    "ship",
    "cotton",
    "carcass",
    "crude",
    "nat-gas",
    "cpi",
    "money-fx",
    "interest",
    "gnp",
    "meal-feed",
    "alum",
    "oilseed",
    "gold",
    "tin",
    "strategic-metal",
    "livestock",
    "retail",
    "ipi",
    "iron-steel",
    "rubber",
    "heat",
    "jobs",
    "lei",
    "bop",
    "zinc",
    "orange",
    "pet-chem",
    "dlr",
    "gas",
    "silver",
    "wpi",
    "hog",
    "lead",
)


def load_data(
    path="reuters.npz",
    num_words=None,
    skip_top=0,
    maxlen=None,
    test_split=0.2,
    seed=113,
    start_char=1,
    oov_char=2,
    index_from=3,
):
    """Loads the Reuters newswires, downloading them on first use.

    The newswires are shuffled with ``seed`` (as Keras shuffles them, so the same seed gives the same split),
    every word index is moved up by ``index_from`` behind a ``start_char``, and the last ``test_split`` of them
    are the test set.

    Args:
        path: the file's name in the cache folder (``~/.keras/datasets``).
        num_words: keeps the word indices below ``num_words`` (the most frequent words); the others become
            ``oov_char``. None keeps every word.
        skip_top: the indices below ``skip_top`` become ``oov_char`` too.
        maxlen: drops the newswires of ``maxlen`` indices or more (counting the start mark), as Keras does;
            None keeps all.
        test_split: the fraction of newswires in the test set, in [0, 1].
        seed: the seed of the shuffle.
        start_char: the index that starts every newswire; None for no start mark.
        oov_char: the index that replaces the words cut by ``num_words`` or ``skip_top``; None removes them.
        index_from: the first index of actual words.

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: 1-D object arrays of lists of ints, and int64 topic labels
        0–45 (see :func:`get_label_names`).

    Raises:
        ValueError: an argument out of range.
        DownloadError: the file is not cached and cannot be downloaded; the message names the URL and the path
            where the file can be put by hand.
    """
    _sequences.check_arguments("reuters", num_words, skip_top, maxlen, seed, start_char, oov_char, index_from)
    if isinstance(test_split, bool) or not isinstance(test_split, numbers.Real) or not 0 <= test_split <= 1:
        raise ValueError(
            f"reuters.load_data: test_split must be a fraction in [0, 1]; received test_split={test_split!r}."
        )
    origin, file_hash = SOURCES["reuters.npz"]
    path = _get_file(fname=path, origin=origin, file_hash=file_hash)
    f = _read_arrays(path, ("x", "y"), objects=True)

    order = _sequences.shuffle_order(np.random.RandomState(seed), len(f["x"]))
    xs, labels = _sequences.prepare(f["x"][order], start_char, index_from), f["y"][order]
    if maxlen:
        xs, labels = _sequences.drop_long(maxlen, xs, labels)
    xs = _sequences.limit_vocabulary(xs, num_words, skip_top, oov_char)
    n = int(len(xs) * (1 - test_split))
    return (
        (_sequences.object_array(xs[:n]), np.asarray(labels[:n])),
        (_sequences.object_array(xs[n:]), np.asarray(labels[n:])),
    )


def get_word_index(path="reuters_word_index.json"):
    """The word index of the newswires, ``{word: index}`` (before ``index_from`` is added), downloading it on
    first use.

    Args:
        path: the file's name in the cache folder (``~/.keras/datasets``).
    """
    origin, file_hash = SOURCES["reuters_word_index.json"]
    path = _get_file(fname=path, origin=origin, file_hash=file_hash)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def get_label_names():
    """The names of the 46 topics, in label order (``get_label_names()[y]`` names label ``y``)."""
    return _LABELS
