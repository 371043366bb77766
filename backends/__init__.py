"""Engines behind ``highlevel.ops``: the contract, the registry and one package per engine.

>>> from highlevel import backends
>>> "native" in backends.known()
True
"""

from .contract import Backend, Capabilities, Variable
from .registry import BackendNotAvailableError, get, installed, known, register

__all__ = ["Backend", "BackendNotAvailableError", "Capabilities", "Variable", "get", "installed", "known", "register"]
