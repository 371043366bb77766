"""``highlevel.constraints``: projections that optimizers apply to weights after each update
(``keras.constraints``).

>>> import highlevel as hl
>>> from highlevel import constraints
>>> c = constraints.get("non_neg")
>>> hl.ops.convert_to_numpy(c(hl.ops.convert_to_tensor([-2.0, 3.0]))).tolist()
[0.0, 3.0]
>>> constraints.serialize(constraints.MaxNorm(max_value=3))
{'class_name': 'MaxNorm', 'config': {'max_value': 3, 'axis': 0}}
"""

from .constraint import Constraint
from .non_neg import NonNeg
from .norm_constraints import MaxNorm, MinMaxNorm, UnitNorm
from .serialization import ALL_OBJECTS, deserialize, get, serialize

# Keras' alias spellings: the lowercase names are the classes themselves (keras.constraints.max_norm is MaxNorm).
max_norm = MaxNorm
min_max_norm = MinMaxNorm
non_neg = NonNeg
unit_norm = UnitNorm

__all__ = [
    "ALL_OBJECTS",
    "Constraint",
    "MaxNorm",
    "MinMaxNorm",
    "NonNeg",
    "UnitNorm",
    "deserialize",
    "get",
    "max_norm",
    "min_max_norm",
    "non_neg",
    "serialize",
    "unit_norm",
]
