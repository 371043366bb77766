"""What IMDB and Reuters share: word-index sequences shifted, filtered by length and cut to a vocabulary,
with the arguments and the order of steps of Keras's loaders.

>>> seqs = prepare([[1, 2], [5, 6, 7, 8]], start_char=1, index_from=3)
>>> seqs
[[1, 4, 5], [1, 8, 9, 10, 11]]
>>> limit_vocabulary(seqs, num_words=9, skip_top=0, oov_char=2)
[[1, 4, 5], [1, 8, 2, 2, 2]]
"""

import numbers

import numpy as np


def check_arguments(name, num_words, skip_top, maxlen, seed, start_char, oov_char, index_from):
    """Raises a ValueError that names the argument when one of the loaders' arguments is out of range."""

    def whole(value):
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)

    checks = [
        ("num_words", num_words, num_words is None or (whole(num_words) and num_words > 0), "a positive int or None"),
        ("skip_top", skip_top, whole(skip_top) and skip_top >= 0, "a non-negative int"),
        ("maxlen", maxlen, maxlen is None or (whole(maxlen) and maxlen > 0), "a positive int or None"),
        ("seed", seed, whole(seed) and seed >= 0, "a non-negative int"),
        ("start_char", start_char, start_char is None or whole(start_char), "an int or None"),
        ("oov_char", oov_char, oov_char is None or whole(oov_char), "an int or None"),
        ("index_from", index_from, whole(index_from) and index_from >= 0, "a non-negative int"),
    ]
    for arg, value, ok, expected in checks:
        if not ok:
            raise ValueError(f"{name}.load_data: {arg} must be {expected}; received {arg}={value!r}.")


def shuffle_order(rng, n):
    """A permutation of ``range(n)`` drawn as Keras draws it (``RandomState.shuffle`` of ``arange``), so that
    the same seed gives the same order as Keras."""
    order = np.arange(n)
    rng.shuffle(order)
    return order


def prepare(sequences, start_char, index_from):
    """Lists of Python ints: each word index moved up by ``index_from``, after ``start_char`` when that is not
    None."""
    head = [] if start_char is None else [int(start_char)]
    return [head + [int(w) + index_from for w in seq] for seq in sequences]


def drop_long(maxlen, sequences, labels):
    """Keeps the sequences shorter than ``maxlen`` (Keras's rule: a sequence of ``maxlen`` words or more,
    counting the start character, is dropped) and their labels."""
    kept = [i for i, seq in enumerate(sequences) if len(seq) < maxlen]
    return [sequences[i] for i in kept], labels[np.asarray(kept, dtype=np.int64)]


def limit_vocabulary(sequences, num_words, skip_top, oov_char):
    """Keeps the word indices ``w`` with ``skip_top <= w < num_words``; the others become ``oov_char``, or are
    removed when it is None. ``num_words=None`` keeps every index from ``skip_top`` up."""
    if num_words is None:
        num_words = max((max(seq) for seq in sequences if seq), default=0) + 1
    if oov_char is None:
        return [[w for w in seq if skip_top <= w < num_words] for seq in sequences]
    return [[w if skip_top <= w < num_words else oov_char for w in seq] for seq in sequences]


def object_array(sequences):
    """A 1-D object array holding one list per sequence (even when all have the same length)."""
    out = np.empty(len(sequences), dtype=object)
    for i, seq in enumerate(sequences):
        out[i] = seq
    return out
