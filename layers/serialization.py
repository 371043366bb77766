"""Layer configs as plain dicts, and back: only classes that highlevel exports (an allow-list).

>>> import highlevel as hl
>>> config = hl.layers.serialize(hl.layers.Dense(3, name="d"))
>>> config["class_name"], config["config"]["units"]
('Dense', 3)
>>> hl.layers.deserialize(config).units
3
"""


def _allowed_classes():
    from highlevel import layers, models

    classes = {}
    for module in (layers, models):
        for name in dir(module):
            obj = getattr(module, name)
            if isinstance(obj, type) and issubclass(obj, layers.Layer):
                classes[name] = obj
    return classes


def serialize(layer):
    """``{"module", "class_name", "config"}`` for ``layer`` (``keras.layers.serialize``'s format)."""
    return {"module": type(layer).__module__, "class_name": type(layer).__name__, "config": layer.get_config()}


def deserialize(config, custom_objects=None):
    """Rebuilds a layer from :func:`serialize`'s output; only highlevel's layer classes (and classes
    passed in ``custom_objects``) are built."""
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(f"A layer config must be a dict with 'class_name' and 'config'; received {config!r}.")
    classes = _allowed_classes()
    classes.update(custom_objects or {})
    name = config["class_name"]
    cls = classes.get(name)
    if cls is None:
        raise ValueError(
            f"Unknown layer class {name!r}: it is not a highlevel layer. Pass it in custom_objects={{'{name}': "
            f"{name}}} to allow it."
        )
    return cls.from_config(dict(config.get("config", {})))
