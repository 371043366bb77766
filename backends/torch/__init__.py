"""The PyTorch engine behind ``highlevel.ops`` (select it with ``HIGHLEVEL_BACKEND=torch``)."""

from .backend import TorchBackend

__all__ = ["TorchBackend"]
