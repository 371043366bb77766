"""Real Keras without its full garbage collections, for the quantization tests that use it as their oracle.

Keras 3's ``Layer.__delattr__`` runs ``gc.collect()`` each time it drops a variable, which its ``quantize`` does
for every kernel it replaces (and its GPTQ and AWQ passes for every layer). A full collection walks every object
the process holds: a fraction of a second in a fresh process, seconds in a test worker that has run thousands of
tests, and nothing any test checks depends on it. Inside ``young_collections_only()`` the objects that existed
before are frozen (``gc.freeze``): a collection then only walks what was made inside, and afterwards everything
is collectable again, as before.

>>> import gc
>>> with young_collections_only():
...     frozen = gc.get_freeze_count() > 0
>>> frozen, gc.get_freeze_count()
(True, 0)
"""

import contextlib
import gc

_depth = 0


@contextlib.contextmanager
def young_collections_only():
    """Collections inside walk only the objects made inside (re-entrant: the outermost one unfreezes)."""
    global _depth
    if _depth == 0:
        gc.freeze()
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0:
            gc.unfreeze()


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
