"""Finding regularizers by name, and turning them into configs and back (``keras.regularizers.get``,
``serialize``, ``deserialize``).

>>> get("l2")
L2(l2=0.01)
>>> serialize(L1L2(l1=0.1))
{'class_name': 'L1L2', 'config': {'l1': 0.1, 'l2': 0.0}}
>>> get(None) is None
True
"""

import inspect

from .norm_penalties import L1, L1L2, L2
from .orthogonal_regularizer import OrthogonalRegularizer
from .regularizer import Regularizer

#: Every name ``get`` and ``deserialize`` accept: class names and their Keras snake_case spellings.
ALL_OBJECTS = {cls.__name__: cls for cls in (Regularizer, L1, L2, L1L2, OrthogonalRegularizer)}
ALL_OBJECTS.update({"regularizer": Regularizer, "l1": L1, "l2": L2, "l1l2": L1L2, "l1_l2": L1L2,
                    "orthogonal_regularizer": OrthogonalRegularizer})


def _lookup(name, custom_objects):
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if name in ALL_OBJECTS:
        return ALL_OBJECTS[name]
    raise ValueError(
        f"Unknown regularizer {name!r}. Valid names: {', '.join(sorted(ALL_OBJECTS))}. For your own "
        "Regularizer subclass, pass the instance itself or custom_objects={name: cls}."
    )


def serialize(regularizer):
    """``{"class_name": ..., "config": {...}}`` describing ``regularizer`` (None stays None).

    Raises:
        TypeError: for something that is not a :class:`Regularizer` (a plain function has no config).
    """
    if regularizer is None:
        return None
    if not isinstance(regularizer, Regularizer):
        raise TypeError(
            f"Only Regularizer instances can be serialized; received {regularizer!r} of type "
            f"{type(regularizer).__name__}. Subclass highlevel.regularizers.Regularizer and define get_config()."
        )
    return {"class_name": type(regularizer).__name__, "config": regularizer.get_config()}


def deserialize(config, custom_objects=None):
    """The regularizer described by ``config`` (the output of :func:`serialize`, or a name).

    Args:
        config: ``{"class_name": ..., "config": {...}}`` (other keys, as Keras writes them, are ignored)
            or a name string.
        custom_objects: an optional ``{name: class}`` dict for your own Regularizer subclasses.
    """
    if isinstance(config, str):
        return _lookup(config, custom_objects)()
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(
            f"regularizers.deserialize expects a dict {{'class_name': ..., 'config': {{...}}}} or a name; "
            f"received {config!r}."
        )
    return _lookup(config["class_name"], custom_objects).from_config(dict(config.get("config") or {}))


def get(identifier):
    """A regularizer from None (returns None), a name (``"l2"``, ``"L1L2"``, ...), a config dict, an
    instance, a Regularizer class (instantiated with its defaults) or a callable ``x -> penalty``.

    Raises:
        ValueError: for an unknown name (the message lists the valid ones) or an unusable identifier.
    """
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if inspect.isclass(identifier):
        if issubclass(identifier, Regularizer):
            return identifier()
        raise ValueError(f"Could not interpret regularizer identifier: the class {identifier!r} is not a Regularizer.")
    if callable(identifier):
        return identifier
    raise ValueError(
        f"Could not interpret regularizer identifier {identifier!r} (type {type(identifier).__name__}). "
        "Pass a name such as 'l2', a config dict, a Regularizer or a callable x -> penalty."
    )
