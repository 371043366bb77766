"""``hl.utils.legacy``: the Keras 2 ("legacy") form of serialized objects, ``{"class_name", "config"}``.

``serialize_keras_object`` turns an object with ``get_config`` into ``{"class_name": ..., "config": ...}`` (a
function into its name); ``deserialize_keras_object`` builds it back, finding the class only in the dicts it
is given (``module_objects``, ``custom_objects``) and among the classes registered with ``hl.saving``: a
config can never make it import a module.

>>> import highlevel as hl
>>> config = serialize_keras_object(hl.layers.Dense(2, name="d"))
>>> config["class_name"], config["config"]["units"]
('Dense', 2)
>>> layer = deserialize_keras_object(config, module_objects={"Dense": hl.layers.Dense})
>>> type(layer).__name__, layer.units
('Dense', 2)
"""

import inspect as _inspect

from highlevel.saving.object_registry import get_registered_name as _registered_name

_PASSIVE = "__passive_serialization__"


def _registered_objects():
    try:
        from highlevel.saving.object_registry import get_custom_objects
    except ImportError:  # pragma: no cover - hl.saving is part of highlevel
        return {}
    return get_custom_objects()


def serialize_keras_object(instance):
    """The legacy config of ``instance``.

    Args:
        instance: an object with ``get_config()`` (a layer, a loss, ...), a function or class (serialized as
            its registered name), or None.

    Returns:
        ``{"class_name": name, "config": config}`` (values of the config that have a ``get_config`` are
        serialized too and marked so that deserialization rebuilds them), a name, or None.

    Raises:
        ValueError: for an object that has neither ``get_config`` nor a name.
    """
    if instance is None:
        return None
    if hasattr(instance, "get_config") and not _inspect.isclass(instance):
        config = instance.get_config()
        out = {}
        for key, value in config.items():
            if isinstance(value, str) or value is None:
                out[key] = value
                continue
            try:
                serialized = serialize_keras_object(value)
            except ValueError:
                out[key] = value
                continue
            if isinstance(serialized, dict) and not isinstance(value, dict):
                serialized = dict(serialized, **{_PASSIVE: True})
            out[key] = serialized
        return {"class_name": _registered_name(type(instance)), "config": out}
    if hasattr(instance, "__name__"):
        return _registered_name(instance)
    if isinstance(instance, (int, float, bool, list, tuple, dict)):
        raise ValueError(f"{instance!r} is a plain value, not an object to serialize.")
    raise ValueError(
        f"Cannot serialize {instance!r}: it has no get_config() method and no name. Give its class a get_config()."
    )


def _lookup(name, module_objects, custom_objects):
    for source in (custom_objects or {}, _registered_objects(), module_objects or {}):
        if name in source:
            return source[name]
    return None


def deserialize_keras_object(identifier, module_objects=None, custom_objects=None, printable_module_name="object"):
    """Builds an object back from its legacy config (or finds it by name).

    Args:
        identifier: a ``{"class_name", "config"}`` dict, a name, or None.
        module_objects: a dict ``{name: class or function}`` of the objects that may be built.
        custom_objects: more such objects (looked up first).
        printable_module_name: what the objects are, for the error message (``"layer"``, ``"loss"``, ...).

    Returns:
        The object (``cls.from_config(config)``, or ``cls(**config)`` for a class without ``from_config``), the
        class or function a name refers to, or None.

    Raises:
        ValueError: for a name that is in none of the dicts nor registered, or a malformed config.
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        if "class_name" not in identifier or "config" not in identifier:
            raise ValueError(
                f"A legacy {printable_module_name} config is a dict with 'class_name' and 'config'; received "
                f"{identifier!r:.200}."
            )
        class_name = identifier["class_name"]
        cls = _lookup(class_name, module_objects, custom_objects)
        if cls is None:
            raise ValueError(
                f"Unknown {printable_module_name}: {class_name!r}. Register the class with "
                "hl.saving.register_serializable(), or pass it in `custom_objects` or `module_objects`."
            )
        config = {}
        for key, value in (identifier["config"] or {}).items():
            if isinstance(value, dict) and value.get(_PASSIVE):
                value = {k: v for k, v in value.items() if k != _PASSIVE}
                value = deserialize_keras_object(value, module_objects, custom_objects, "config item")
            elif isinstance(value, str):
                found = _lookup(value, None, custom_objects)
                if _inspect.isfunction(found):
                    value = found
            config[key] = value
        if hasattr(cls, "from_config"):
            parameters = _inspect.signature(cls.from_config).parameters
            if "custom_objects" in parameters:
                merged = dict(module_objects or {}, **(custom_objects or {}))
                return cls.from_config(config, custom_objects=merged)
            return cls.from_config(config)
        return cls(**config)
    if isinstance(identifier, str):
        found = _lookup(identifier, module_objects, custom_objects)
        if found is None:
            raise ValueError(
                f"Unknown {printable_module_name}: {identifier!r}. Register it with "
                "hl.saving.register_serializable(), or pass it in `custom_objects` or `module_objects`."
            )
        return found
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret the serialized {printable_module_name}: {identifier!r:.200}.")
