"""``hl.preprocessing.image``: the image file helpers of ``hl.utils`` under Keras 3's ``keras.preprocessing.image``
names (``array_to_img``, ``img_to_array``, ``load_img``, ``save_img``, ``smart_resize``), found on first access.

>>> import highlevel as hl
>>> sorted(hl.preprocessing.image.__all__)
['array_to_img', 'img_to_array', 'load_img', 'save_img', 'smart_resize']
"""

from ._lazy import resolve

_NAMES = {
    name: [("highlevel.utils", name), ("highlevel.utils.image_utils", name)]
    for name in ("array_to_img", "img_to_array", "load_img", "save_img", "smart_resize")
}


def __getattr__(name):
    value = resolve(_NAMES, name, __name__)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_NAMES))


__all__ = sorted(_NAMES)
