"""``highlevel.models``: Model (functional and subclassed), Sequential, Input, and the model-level functions
(``clone_model``, ``load_model``, ``save_model``, ``model_from_json``).

>>> import highlevel as hl
>>> hl.models.Sequential is hl.Sequential
True
"""

from highlevel.saving import load_model, save_model  # noqa: E402  (also hl.saving.load_model, save_model)

from .cloning import clone_model
from .functional import Functional
from .input_layer import Input, InputLayer
from .model import Model
from .model_json import model_from_json
from .sequential import Sequential

__all__ = [
    "Functional",
    "Input",
    "InputLayer",
    "Model",
    "Sequential",
    "clone_model",
    "load_model",
    "model_from_json",
    "save_model",
]
