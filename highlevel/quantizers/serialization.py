"""Quantizers and quantization configs by name, and as configs and back (``keras.quantizers.get``,
``serialize``, ``deserialize``).

>>> config = serialize(AbsMaxQuantizer(value_range=(-8, 7)))
>>> config["class_name"], config["config"]["value_range"]
('AbsMaxQuantizer', (-8, 7))
>>> deserialize(config) == AbsMaxQuantizer(value_range=(-8, 7))
True
"""

import inspect

from highlevel.naming import to_snake_case
from highlevel.saving.object_registry import CustomObjectScope, describe, find, find_class

from .abs_max import AbsMaxQuantizer, Quantizer
from .calibrated_configs import AWQConfig, GPTQConfig
from .quantization_config import (
    Float8QuantizationConfig,
    Int4QuantizationConfig,
    Int8QuantizationConfig,
    QuantizationConfig,
)

_CLASSES = (
    Quantizer,
    AbsMaxQuantizer,
    QuantizationConfig,
    Int8QuantizationConfig,
    Int4QuantizationConfig,
    Float8QuantizationConfig,
    GPTQConfig,
    AWQConfig,
)

#: Every name :func:`get` and :func:`deserialize` accept: the class names and their snake_case spellings.
ALL_OBJECTS = {cls.__name__: cls for cls in _CLASSES}
ALL_OBJECTS.update({to_snake_case(cls.__name__): cls for cls in _CLASSES})

_KINDS = (Quantizer, QuantizationConfig)


def serialize(initializer):
    """``{"class_name": ..., "config": {...}}`` describing a quantizer or a quantization config.

    Args:
        initializer: a Quantizer or QuantizationConfig (Keras's name for this argument), or None.

    Returns:
        A dict, or None for None.

    Raises:
        TypeError: if the object is neither a Quantizer nor a QuantizationConfig.

    >>> serialize(Int8QuantizationConfig(activation_quantizer=None))
    {'class_name': 'Int8QuantizationConfig', 'config': {'weight_quantizer': None, 'activation_quantizer': None}}
    """
    obj = initializer
    if obj is None:
        return None
    if not isinstance(obj, _KINDS):
        raise TypeError(
            f"hl.quantizers.serialize takes a Quantizer or a QuantizationConfig; received {obj!r} of type "
            f"{type(obj).__name__}."
        )
    return describe(obj, {"class_name": type(obj).__name__, "config": obj.get_config()})


def deserialize(config, custom_objects=None):
    """Rebuilds a quantizer or quantization config from :func:`serialize`'s dict.

    Only the classes of ``hl.quantizers``, those in ``custom_objects`` and registered ones are built.

    Args:
        config: the dict ``{"class_name": ..., "config": {...}}``.
        custom_objects: an optional ``{name: class}`` dict for your own quantizers.

    Returns:
        A new Quantizer or QuantizationConfig.

    Raises:
        ValueError: if ``config`` is not such a dict or names an unknown class.

    >>> deserialize({"class_name": "Int4QuantizationConfig", "config": {"block_size": 32}}).block_size
    32
    """
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(
            "hl.quantizers.deserialize expects a dict {'class_name': ..., 'config': {...}} as serialize returns; "
            f"received {config!r}."
        )
    cls = find_class(config, custom_objects, ALL_OBJECTS)
    if cls is None:
        raise ValueError(
            f"Unknown quantizer class {config['class_name']!r}. Known: {', '.join(c.__name__ for c in _CLASSES)}; "
            "pass custom_objects={name: cls} for your own."
        )
    with CustomObjectScope(custom_objects):  # the quantizers nested in a config resolve the same way
        return cls.from_config(dict(config.get("config") or {}))


def get(identifier, **kwargs):
    """A quantizer or quantization config from a name, a config dict or an instance.

    Args:
        identifier: None (returns None); a class name such as ``"AbsMaxQuantizer"`` or ``"abs_max_quantizer"``
            (built with ``kwargs``); a dict from :func:`serialize`; a Quantizer or QuantizationConfig (returned
            as it is); or any other callable (returned as it is).
        **kwargs: constructor arguments when ``identifier`` is a name or a class.

    Returns:
        The quantizer or config, or None.

    Raises:
        ValueError: if the identifier cannot be interpreted.

    >>> get("abs_max_quantizer", value_range=(-8, 7)).value_range
    (-8, 7)
    >>> get(None) is None
    True
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    obj = find(identifier, None, ALL_OBJECTS) if isinstance(identifier, str) else identifier
    if inspect.isclass(obj):
        return obj(**kwargs)
    if obj is not None and callable(obj) or isinstance(obj, _KINDS):
        return obj
    raise ValueError(
        f"Could not interpret quantizer identifier {identifier!r}: expected a name such as 'AbsMaxQuantizer', a "
        "dict from hl.quantizers.serialize, or a Quantizer or QuantizationConfig instance."
    )
