"""``highlevel.models``: Model (functional and subclassed), Sequential, Input.

>>> import highlevel as hl
>>> hl.models.Sequential is hl.Sequential
True
"""

from .functional import Functional
from .input_layer import Input, InputLayer
from .model import Model
from .sequential import Sequential
from highlevel.saving import load_model  # noqa: E402  (also hl.saving.load_model)

__all__ = ["Functional", "Input", "InputLayer", "Model", "Sequential", "load_model"]
