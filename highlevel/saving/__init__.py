"""``highlevel.saving``: whole models in one archive, weights in safetensors or in Keras's ``.weights.h5``
layout, loaded safely; and Keras's serialization API (registration, ``serialize_keras_object``/
``deserialize_keras_object``).

>>> import highlevel as hl
>>> callable(hl.saving.load_model), issubclass(hl.saving.InvalidFileError, ValueError)
(True, True)
"""

from .errors import InvalidFileError, UnsafeFileError
from .file_editor import KerasFileEditor
from .object_registry import (
    CustomObjectScope,
    custom_object_scope,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
    register_serializable,
)
from .saving_api import load_model, load_weights, save_model, save_weights
from .serialization_lib import deserialize_keras_object, serialize_keras_object

__all__ = [
    "CustomObjectScope",
    "InvalidFileError",
    "KerasFileEditor",
    "UnsafeFileError",
    "custom_object_scope",
    "deserialize_keras_object",
    "get_custom_objects",
    "get_registered_name",
    "get_registered_object",
    "load_model",
    "load_weights",
    "register_keras_serializable",
    "register_serializable",
    "save_model",
    "save_weights",
    "serialize_keras_object",
]
