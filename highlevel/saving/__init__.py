"""``highlevel.saving``: whole models in one archive, weights in safetensors, loaded safely.

>>> import highlevel as hl
>>> callable(hl.saving.load_model), issubclass(hl.saving.InvalidFileError, ValueError)
(True, True)
"""

from .errors import InvalidFileError, UnsafeFileError
from .object_registry import custom_object_scope, get_custom_objects, register_serializable
from .saving_api import load_model, load_weights, save_model, save_weights

__all__ = ["InvalidFileError", "UnsafeFileError", "custom_object_scope", "get_custom_objects", "load_model",
           "load_weights", "register_serializable", "save_model", "save_weights"]
