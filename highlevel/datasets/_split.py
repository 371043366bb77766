"""The split of the tabular datasets: shuffle with a seed as Keras does, the last ``test_split`` for testing.

>>> import numpy as np
>>> (x_train, _), (x_test, _) = shuffle_split(np.arange(10), np.arange(10), test_split=0.2, seed=113)
>>> len(x_train), len(x_test)
(8, 2)
"""

import numbers

import numpy as np


def check(test_split, seed, name):
    """Raises a ValueError naming the loader ``name`` when ``test_split`` or ``seed`` is out of range."""
    if isinstance(test_split, bool) or not isinstance(test_split, numbers.Real) or not 0 <= test_split < 1:
        raise ValueError(
            f"{name}.load_data: test_split must be a fraction in [0, 1); received test_split={test_split!r}."
        )
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"{name}.load_data: seed must be a non-negative int; received seed={seed!r}.")


def shuffle_split(x, y, test_split, seed):
    """``(x_train, y_train), (x_test, y_test)`` from ``x`` and ``y`` shuffled by ``RandomState(seed)`` (the
    generator Keras uses, so the same seed gives the same split)."""
    order = np.arange(len(x))
    np.random.RandomState(seed).shuffle(order)
    x, y = x[order], y[order]
    n = int(len(x) * (1 - test_split))
    return (x[:n], y[:n]), (x[n:], y[n:])
