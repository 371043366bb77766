"""Real Keras without its full garbage collections, for the quantization tests that use it as their oracle.

Keras 3's ``Layer.__delattr__`` runs ``gc.collect()`` each time it drops a variable, which its ``quantize`` does
for every kernel it replaces (and its GPTQ and AWQ passes for every layer). A full collection walks every object
the process holds: a fraction of a second in a fresh process, seconds in a test worker that has run thousands of
tests, and nothing any test checks depends on it. Inside ``young_collections_only()`` a call of ``gc.collect()``
collects the young generations only (the objects made recently, Keras's dropped variables among them). Nothing is
frozen or unfrozen, so the test session's own ``gc.freeze()`` after collection (tests/conftest.py) stays whole.

>>> import gc
>>> with young_collections_only():
...     inside = gc.collect is not _full_collect
>>> inside, gc.collect is _full_collect
(True, True)
"""

import contextlib
import gc

_full_collect = gc.collect
_depth = 0


def _young_collect(generation=2):
    return _full_collect(min(generation, 1))


@contextlib.contextmanager
def young_collections_only():
    """``gc.collect()`` inside collects generations 0 and 1 only (re-entrant: the outermost one restores it)."""
    global _depth
    if _depth == 0:
        gc.collect = _young_collect
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0:
            gc.collect = _full_collect


class MadeOnce(dict):
    """``results[key]`` is ``compute(key)``, run on first use inside ``young_collections_only()`` and kept: the
    Keras side of a test, the same for every backend, made once per module by a module-scoped fixture.

    >>> calls = []
    >>> results = MadeOnce(lambda key: calls.append(key) or key * 2)
    >>> results[3], results[3], calls
    (6, 6, [3])
    """

    def __init__(self, compute):
        super().__init__()
        self._compute = compute

    def __missing__(self, key):
        with young_collections_only():
            self[key] = self._compute(key)
        return self[key]
