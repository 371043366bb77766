"""The training loop (``Trainer``) and the data adapters it reads batches through."""

from .trainer import Trainer

__all__ = ["Trainer"]
