"""``highlevel.dtype_policies``: the dtype policies of layers, float and quantized (``keras.dtype_policies``).

A policy names the dtype a layer computes in and the dtype it stores its variables in (see
:mod:`highlevel.mixed_precision`, whose :class:`DTypePolicy` is the same class); a quantized policy
(``"int8_from_float32"``, ``"int4/128_from_mixed_bfloat16"``, ``"float8_from_float32"``, ...) adds how the
layer's kernel is quantized, and :class:`DTypePolicyMap` gives each sub-layer path its own policy.

>>> import highlevel as hl
>>> policy = hl.dtype_policies.get("int8_from_mixed_bfloat16")
>>> type(policy).__name__, policy.quantization_mode, policy.compute_dtype
('QuantizedDTypePolicy', 'int8', 'bfloat16')
>>> hl.dtype_policies.deserialize(hl.dtype_policies.serialize(policy)) == policy
True
"""

from highlevel.mixed_precision.policy import DTypePolicy, FloatDTypePolicy, get, serialize

from .dtype_policy_map import DTypePolicyMap
from .quantized_policies import (
    AWQDTypePolicy,
    GPTQDTypePolicy,
    Int4DTypePolicy,
    QuantizedDTypePolicy,
    QuantizedFloat8DTypePolicy,
)
from .serialization import ALL_OBJECTS, deserialize

__all__ = [
    "AWQDTypePolicy",
    "DTypePolicy",
    "DTypePolicyMap",
    "FloatDTypePolicy",
    "GPTQDTypePolicy",
    "Int4DTypePolicy",
    "QuantizedDTypePolicy",
    "QuantizedFloat8DTypePolicy",
    "deserialize",
    "get",
    "serialize",
]
