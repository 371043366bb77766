"""Finding constraints by name, and turning them into configs and back (``keras.constraints.get``,
``serialize``, ``deserialize``).

>>> get("max_norm")
MaxNorm(max_value=2, axis=0)
>>> serialize(UnitNorm(axis=1))
{'class_name': 'UnitNorm', 'config': {'axis': 1}}
>>> get(None) is None
True
"""

import inspect

from .constraint import Constraint
from .non_neg import NonNeg
from .norm_constraints import MaxNorm, MinMaxNorm, UnitNorm

#: Every name ``get`` and ``deserialize`` accept: class names and their Keras snake_case spellings.
ALL_OBJECTS = {cls.__name__: cls for cls in (Constraint, MaxNorm, MinMaxNorm, NonNeg, UnitNorm)}
ALL_OBJECTS.update({"constraint": Constraint, "max_norm": MaxNorm, "min_max_norm": MinMaxNorm,
                    "non_neg": NonNeg, "unit_norm": UnitNorm})


def _lookup(name, custom_objects):
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if name in ALL_OBJECTS:
        return ALL_OBJECTS[name]
    raise ValueError(
        f"Unknown constraint {name!r}. Valid names: {', '.join(sorted(ALL_OBJECTS))}. For your own "
        "Constraint subclass, pass the instance itself or custom_objects={name: cls}."
    )


def serialize(constraint):
    """``{"class_name": ..., "config": {...}}`` describing ``constraint`` (None stays None).

    Raises:
        TypeError: for something that is not a :class:`Constraint` (a plain function has no config).
    """
    if constraint is None:
        return None
    if not isinstance(constraint, Constraint):
        raise TypeError(
            f"Only Constraint instances can be serialized; received {constraint!r} of type "
            f"{type(constraint).__name__}. Subclass highlevel.constraints.Constraint and define get_config()."
        )
    return {"class_name": type(constraint).__name__, "config": constraint.get_config()}


def deserialize(config, custom_objects=None):
    """The constraint described by ``config`` (the output of :func:`serialize`, or a name).

    Args:
        config: ``{"class_name": ..., "config": {...}}`` (other keys, as Keras writes them, are ignored)
            or a name string.
        custom_objects: an optional ``{name: class}`` dict for your own Constraint subclasses.
    """
    if isinstance(config, str):
        return _lookup(config, custom_objects)()
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(
            f"constraints.deserialize expects a dict {{'class_name': ..., 'config': {{...}}}} or a name; "
            f"received {config!r}."
        )
    return _lookup(config["class_name"], custom_objects).from_config(dict(config.get("config") or {}))


def get(identifier):
    """A constraint from None (returns None), a name (``"max_norm"``, ``"NonNeg"``, ...), a config dict,
    an instance, a Constraint class (instantiated with its defaults) or a callable ``w -> w'``.

    Raises:
        ValueError: for an unknown name (the message lists the valid ones) or an unusable identifier.
    """
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if inspect.isclass(identifier):
        if issubclass(identifier, Constraint):
            return identifier()
        raise ValueError(f"Could not interpret constraint identifier: the class {identifier!r} is not a Constraint.")
    if callable(identifier):
        return identifier
    raise ValueError(
        f"Could not interpret constraint identifier {identifier!r} (type {type(identifier).__name__}). "
        "Pass a name such as 'max_norm', a config dict, a Constraint or a callable w -> w'."
    )
