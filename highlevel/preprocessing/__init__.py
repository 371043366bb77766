"""``hl.preprocessing``: Keras 3's ``keras.preprocessing`` aliases of data utilities from ``hl.utils``.

``image`` (``load_img``, ``img_to_array``, ...) and ``sequence`` (``pad_sequences``) are sub-namespaces; the
dataset builders are at the top. Each name is the same object as in ``hl.utils``, found on first access.

>>> import highlevel as hl
>>> sorted(hl.preprocessing.__all__)[:2]
['image', 'image_dataset_from_directory']
"""

from . import image, sequence
from ._lazy import resolve

_NAMES = {
    name: [("highlevel.utils", name)]
    for name in ("image_dataset_from_directory", "text_dataset_from_directory", "timeseries_dataset_from_array")
}


def __getattr__(name):
    value = resolve(_NAMES, name, __name__)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_NAMES))


__all__ = [
    "image",
    "image_dataset_from_directory",
    "sequence",
    "text_dataset_from_directory",
    "timeseries_dataset_from_array",
]
