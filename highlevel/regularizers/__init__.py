"""``highlevel.regularizers``: weight penalties added to the training loss (``keras.regularizers``).

>>> import highlevel as hl
>>> from highlevel import regularizers
>>> reg = regularizers.get({"class_name": "L1L2", "config": {"l1": 0.1, "l2": 0.1}})
>>> round(float(hl.ops.convert_to_numpy(reg(hl.ops.convert_to_tensor([1.0, -3.0])))), 4)
1.4
>>> regularizers.serialize(regularizers.L2(0.5))
{'class_name': 'L2', 'config': {'l2': 0.5}}
"""

from .norm_penalties import L1, L1L2, L2
from .orthogonal_regularizer import OrthogonalRegularizer
from .regularizer import Regularizer
from .serialization import ALL_OBJECTS, deserialize, get, serialize

# Keras' alias spellings: the lowercase names are the classes themselves (keras.regularizers.l2 is L2).
l1 = L1
l2 = L2
l1_l2 = L1L2
orthogonal_regularizer = OrthogonalRegularizer

__all__ = [
    "ALL_OBJECTS",
    "L1",
    "L1L2",
    "L2",
    "OrthogonalRegularizer",
    "Regularizer",
    "deserialize",
    "get",
    "l1",
    "l1_l2",
    "l2",
    "orthogonal_regularizer",
    "serialize",
]
