"""``hl.preprocessing.sequence``: ``pad_sequences`` of ``hl.utils`` under Keras 3's
``keras.preprocessing.sequence`` name, found on first access.

>>> import highlevel as hl
>>> hl.preprocessing.sequence.__all__
['pad_sequences']
"""

from ._lazy import resolve

_NAMES = {"pad_sequences": [("highlevel.utils", "pad_sequences"), ("highlevel.utils.sequence_utils", "pad_sequences")]}


def __getattr__(name):
    value = resolve(_NAMES, name, __name__)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_NAMES))


__all__ = sorted(_NAMES)
