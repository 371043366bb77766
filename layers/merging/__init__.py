"""Merging layers: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot (and their
functional forms ``add``, ``subtract``, ...)."""

from .add import Add, add
from .average import Average, average
from .base_merge import Merge
from .concatenate import Concatenate, concatenate
from .dot import Dot, dot
from .maximum import Maximum, maximum
from .minimum import Minimum, minimum
from .multiply import Multiply, multiply
from .subtract import Subtract, subtract

__all__ = [
    "Add",
    "Average",
    "Concatenate",
    "Dot",
    "Maximum",
    "Merge",
    "Minimum",
    "Multiply",
    "Subtract",
    "add",
    "average",
    "concatenate",
    "dot",
    "maximum",
    "minimum",
    "multiply",
    "subtract",
]
