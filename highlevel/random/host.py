"""The host random stream: a counter-based numpy Philox generator keyed by the seed.

Initial weights and data order come from here, on the host, so that one seed gives bitwise-identical
values on every backend (an engine's own generator would give different numbers per engine).

>>> set_host_seed(7)
>>> a = host_rng().standard_normal(3)
>>> set_host_seed(7)
>>> bool((a == host_rng().standard_normal(3)).all())
True
"""

import numpy as np

_seed = None
_rng = None


def make_rng(seed):
    """A fresh Philox generator for ``seed`` (a non-negative int), independent of the global one."""
    if seed is None:
        return np.random.Generator(np.random.Philox())
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"A seed must be a non-negative int; received seed={seed!r}.")
    return np.random.Generator(np.random.Philox(key=int(seed)))


def set_host_seed(seed):
    """Restarts the global host random stream (:func:`host_rng`) from a seed.

    Args:
        seed: an int, or None for fresh entropy.

    Returns:
        None.

    >>> import highlevel as hl
    >>> hl.random.set_host_seed(5)
    >>> a = hl.random.host_rng().random()
    >>> hl.random.set_host_seed(5)
    >>> hl.random.host_rng().random() == a
    True
    """
    global _seed, _rng
    _seed = seed
    _rng = make_rng(seed)


def set_host_generator(rng):
    """Continues the global host stream from ``rng`` (a numpy Generator); the recorded seed is kept."""
    global _rng
    _rng = rng


def host_seed():
    """The seed the global host stream was last started from (None if never set)."""
    return _seed


def host_rng():
    """Returns the global host random generator, a ``numpy.random.Generator``.

    Draws made on the host (shuffling ``fit``'s data, for one) come from it, so one seed gives the same order on
    every engine. It starts from fresh entropy until a seed is set with :func:`set_host_seed` or
    ``hl.utils.set_random_seed``.

    Returns:
        The ``numpy.random.Generator`` shared by the process.

    >>> import highlevel as hl
    >>> hl.random.set_host_seed(0)
    >>> first = hl.random.host_rng().integers(100)
    >>> hl.random.set_host_seed(0)
    >>> int(hl.random.host_rng().integers(100)) == int(first)
    True
    """
    global _rng
    if _rng is None:
        _rng = make_rng(None)
    return _rng
