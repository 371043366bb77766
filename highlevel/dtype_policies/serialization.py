"""Dtype policies from their serialized dicts (``keras.dtype_policies.deserialize``): the float, quantized and
map policies, by class name.

>>> policy = deserialize({"class_name": "QuantizedDTypePolicy", "config": {"mode": "int8", "source_name": "float32"}})
>>> policy.name
'int8_from_float32'
"""

from highlevel.mixed_precision.policy import DTypePolicy, FloatDTypePolicy
from highlevel.saving.object_registry import find_class

from .dtype_policy_map import DTypePolicyMap
from .quantized_policies import (
    AWQDTypePolicy,
    GPTQDTypePolicy,
    Int4DTypePolicy,
    QuantizedDTypePolicy,
    QuantizedFloat8DTypePolicy,
)

#: The policy classes by their names (``"Policy"`` and ``"FloatDTypePolicy"`` are older names of DTypePolicy).
ALL_OBJECTS = {
    cls.__name__: cls
    for cls in (
        DTypePolicy,
        QuantizedDTypePolicy,
        QuantizedFloat8DTypePolicy,
        Int4DTypePolicy,
        GPTQDTypePolicy,
        AWQDTypePolicy,
        DTypePolicyMap,
    )
}
ALL_OBJECTS.update({"FloatDTypePolicy": FloatDTypePolicy, "Policy": DTypePolicy})


def deserialize(config, custom_objects=None):
    """Rebuilds a dtype policy from its serialized dict.

    Args:
        config: ``{"class_name": ..., "config": {...}}`` as ``hl.dtype_policies.serialize`` (or Keras) writes
            it; a bare ``{"name": ...}`` is read as a float policy.
        custom_objects: optional ``{name: class}`` for your own policy classes.

    Returns:
        A DTypePolicy (or one of its subclasses).

    Raises:
        ValueError: if ``config`` is not such a dict or names an unknown class.

    >>> deserialize({"class_name": "DTypePolicy", "config": {"name": "mixed_float16"}}).compute_dtype
    'float16'
    """
    if isinstance(config, dict) and "class_name" not in config and isinstance(config.get("name"), str):
        return DTypePolicy(config["name"])
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(
            "A serialized dtype policy looks like {'class_name': 'DTypePolicy', 'config': {'name': 'mixed_float16'}}"
            f"; received {config!r}."
        )
    cls = find_class(config, custom_objects, ALL_OBJECTS)
    if cls is None or not (isinstance(cls, type) and issubclass(cls, DTypePolicy)):
        raise ValueError(
            f"Unknown dtype policy class {config['class_name']!r}; known: {', '.join(sorted(ALL_OBJECTS))}. Pass "
            "custom_objects={name: cls} for your own DTypePolicy subclass."
        )
    inner = dict(config.get("config") or {})
    if cls is DTypePolicyMap:
        return cls.from_config(inner, custom_objects=custom_objects)
    return cls.from_config(inner)
