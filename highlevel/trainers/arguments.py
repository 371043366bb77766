"""The counting arguments of ``fit``, ``evaluate`` and ``predict``, checked once, before any data is touched.

Anything an integer is accepted where Keras takes a Python int (``np.int64(8)`` from a computation, for
instance); a bool, a float or a count below its minimum is an error that names the argument.

>>> import numpy as np
>>> from highlevel.trainers.arguments import count
>>> count(np.int64(8), "batch_size", minimum=1)
8
>>> try:
...     count(0, "steps_per_epoch", minimum=1)
... except ValueError as e:
...     print(e)
steps_per_epoch must be an integer >= 1 or None; received 0. Leave it out to go through all the data.
"""

import numbers

_WHEN_NONE = {
    "batch_size": "Leave it out for the default (32).",
    "steps_per_epoch": "Leave it out to go through all the data.",
    "validation_steps": "Leave it out to go through all the validation data.",
    "steps": "Leave it out to go through all the data.",
    "validation_batch_size": "Leave it out to use batch_size.",
}


def count(value, name, minimum, allow_none=True):
    """``value`` as a Python int, or None when it is None and ``allow_none``.

    Raises:
        ValueError: ``value`` is not an integer (a bool, a float, a string, ...) or is below ``minimum``.
    """
    if value is None and allow_none:
        return None
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and int(value) >= minimum:
        return int(value)
    hint = _WHEN_NONE.get(name, "") if allow_none else ""
    expected = f"an integer >= {minimum}" + (" or None" if allow_none else "")
    raise ValueError(f"{name} must be {expected}; received {value!r}. {hint}".rstrip())


def validation_frequency(value):
    """``validation_freq``: an integer >= 1 (validate every that many epochs) or a collection of epoch numbers
    (1-based) after which to validate."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return count(value, "validation_freq", minimum=1, allow_none=False)
    if isinstance(value, (list, tuple, set, frozenset, range)):
        return frozenset(count(v, "validation_freq entries", minimum=1, allow_none=False) for v in value)
    raise ValueError(
        f"validation_freq must be an integer >= 1 or a collection of epoch numbers (1-based); received {value!r}."
    )
