"""``highlevel.callbacks``: training callbacks, built only on the public Model/Callback API.

>>> import highlevel as hl
>>> issubclass(hl.callbacks.History, hl.callbacks.Callback)
True
"""

from .callback import Callback
from .callback_list import CallbackList
from .history import History
from .progbar_logger import ProgbarLogger

__all__ = ["Callback", "CallbackList", "History", "ProgbarLogger"]
