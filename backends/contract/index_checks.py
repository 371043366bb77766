"""Index and class-label range checks that run inside a step, and the switch that turns them on there.

Integers that index something (class labels of the sparse losses and metrics, ``Embedding``/``take`` indices)
are checked by the front end on the host whenever their values are known: in eager execution, in a step run
with ``run_eagerly=True``, and on every numpy batch ``fit``/``evaluate`` see. Inside a compiled step (a
``jax.jit`` trace, a ``tf.function`` graph, a recorded replay) their values are not known when the Python
code runs, so the check must be part of the step itself: :meth:`check_index_range` of the backend. That costs
a reduction (min and max) per checked tensor and, on some engines, a wait for the device, so it is done only
while the process-wide switch is on (``hl.config.enable_index_checks()``).

Every engine raises :class:`IndexRangeError` with the front end's message; an engine whose in-graph check can
only fail with its own exception type (TensorFlow's assertion error, JAX's runtime error) embeds the message
between markers, and :func:`error_from` turns that exception back into ours.

>>> err = error_from(RuntimeError("engine text " + tag("labels in [{lo}, {hi}] ok?") + "] [-1] [4]"))
>>> str(err)
'labels in [-1, 4] ok?'
"""

import re
import threading

_OPEN, _CLOSE = "[[hl-index-check]]", "[[/hl-index-check]]"
_TAGGED = re.compile(re.escape(_OPEN) + r"(.*?)" + re.escape(_CLOSE) + r"(?:\]\s*\[(-?\d+)\]\s*\[(-?\d+)\])?", re.S)


class IndexRangeError(ValueError, IndexError):
    """An index or class label outside its valid range (a ValueError and an IndexError)."""


class _Switch:
    enabled = False


_switch = _Switch()
_lock = threading.Lock()


def enabled():
    """Whether steps that compile check their indices and labels (see the module's docstring)."""
    return _switch.enabled


def set_enabled(value):
    with _lock:
        _switch.enabled = bool(value)


def tag(template):
    """``template`` between the markers :func:`error_from` finds in an engine's exception."""
    return f"{_OPEN}{template}{_CLOSE}"


def fill(template, low, high):
    """The message of a failed check: ``template`` with the received minimum and maximum."""
    return template.replace("{lo}", str(int(low))).replace("{hi}", str(int(high)))


def error_from(exc):
    """The :class:`IndexRangeError` an engine's exception carries (found by its markers), else None."""
    if isinstance(exc, IndexRangeError):
        return exc
    match = _TAGGED.search(str(exc))
    if match is None:
        return None
    template, low, high = match.groups()
    if low is not None:
        template = fill(template, low, high)
    return IndexRangeError(template)


def out_of_range(values, low, high, ignore=None):
    """``(min, max)`` of a numpy array's values (``ignore`` left out) when one lies outside ``[low, high)``."""
    if ignore is not None:
        values = values[values != ignore]
    if values.size == 0:
        return None
    lo, hi = values.min(), values.max()
    return (lo, hi) if lo < low or hi >= high else None
