"""preprocessing layers: feature rescaling and normalization (with ``adapt``)."""

from .normalization import Normalization
from .rescaling import Rescaling

__all__ = ["Normalization", "Rescaling"]
