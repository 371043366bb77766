"""``highlevel.mixed_precision``: dtype policies and dynamic loss scaling (``keras.mixed_precision``).

Under ``"mixed_float16"`` or ``"mixed_bfloat16"`` layers compute in half precision and keep float32
variables; ``compile`` wraps the optimizer of a ``"mixed_float16"`` model in a :class:`LossScaleOptimizer`.

>>> import highlevel as hl
>>> hl.mixed_precision.set_dtype_policy("mixed_float16")
>>> layer = hl.layers.Dense(2)
>>> layer.compute_dtype, layer.variable_dtype
('float16', 'float32')
>>> hl.mixed_precision.set_dtype_policy("float32")
"""

from .policy import (
    DTypePolicy,
    FloatDTypePolicy,
    Policy,
    deserialize,
    dtype_policy,
    get,
    global_policy,
    serialize,
    set_dtype_policy,
    set_global_policy,
)


def __getattr__(name):
    # The optimizer package loads lazily (``import highlevel`` does not import the training side).
    if name == "LossScaleOptimizer":
        from highlevel.optimizers.loss_scale_optimizer import LossScaleOptimizer

        return LossScaleOptimizer
    raise AttributeError(f"module 'highlevel.mixed_precision' has no attribute {name!r}")


__all__ = [
    "DTypePolicy",
    "FloatDTypePolicy",
    "LossScaleOptimizer",
    "Policy",
    "deserialize",
    "dtype_policy",
    "get",
    "global_policy",
    "serialize",
    "set_dtype_policy",
    "set_global_policy",
]
