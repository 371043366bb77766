"""Reshaping layers: Flatten, Reshape, Permute, RepeatVector."""

from .flatten import Flatten
from .permute import Permute
from .repeat_vector import RepeatVector
from .reshape import Reshape

__all__ = ["Flatten", "Permute", "RepeatVector", "Reshape"]
