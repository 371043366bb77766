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
    """Describes a layer as a JSON-compatible dict, from which :func:`deserialize` rebuilds it.

    The dict has ``"module"``, ``"class_name"`` and ``"config"`` (Keras's format), plus ``"registered_name"`` for a
    registered user class and ``"build_config"`` when the layer is built (so that the rebuilt layer has its weights'
    shapes).

    Args:
        layer: the layer to describe.

    Returns:
        A dict of plain Python values.

    >>> import highlevel as hl
    >>> config = hl.layers.serialize(hl.layers.Dense(3, name="d"))
    >>> config["class_name"], config["config"]["units"]
    ('Dense', 3)
    """
    from highlevel.backends.contract.interop import front_class
    from highlevel.saving.object_registry import describe

    cls = front_class(type(layer))  # a Model subclass used functionally, or an engine variant
    config = describe(cls, {"module": cls.__module__, "class_name": cls.__name__, "config": layer.get_config()})
    build_config = layer.get_build_config()
    if build_config is not None:
        config["build_config"] = build_config
    return config


def deserialize(config, custom_objects=None):
    """Rebuilds a layer from the dict that :func:`serialize` gives.

    Only highlevel's own layer classes, registered classes (``hl.saving.register_keras_serializable``) and classes
    passed in ``custom_objects`` are built, so that a config file cannot name arbitrary code.

    Args:
        config: a dict with ``"class_name"`` and ``"config"`` keys.
        custom_objects: optional dict mapping class names to user classes (and functions they need).

    Returns:
        A new layer (built if the config holds a ``"build_config"``), without the original's weight values.

    Raises:
        ValueError: if ``config`` is not such a dict, or names a class that is neither a highlevel layer nor in
            ``custom_objects``.

    >>> import highlevel as hl
    >>> layer = hl.layers.deserialize(hl.layers.serialize(hl.layers.Dense(3)))
    >>> isinstance(layer, hl.layers.Dense), layer.units
    (True, 3)
    """
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(f"A layer config must be a dict with 'class_name' and 'config'; received {config!r}.")
    from highlevel.saving.object_registry import find_class

    name = config["class_name"]
    cls = find_class(config, custom_objects, _allowed_classes())
    if cls is None:
        raise ValueError(
            f"Unknown layer class {name!r}: it is not a highlevel layer. Pass it in custom_objects={{'{name}': "
            f"{name}}}, or decorate it with @hl.saving.register_keras_serializable(), to allow it."
        )
    layer = _from_config(cls, dict(config.get("config", {})), custom_objects)
    build_config = config.get("build_config")
    if build_config and hasattr(layer, "build_from_config") and not getattr(layer, "built", False):
        layer.build_from_config(build_config)
    return layer


def _from_config(cls, config, custom_objects):
    """``cls.from_config(config)``, passing ``custom_objects`` to a ``from_config`` that takes them."""
    import inspect

    from_config = cls.from_config
    try:
        takes = "custom_objects" in inspect.signature(from_config).parameters
    except (TypeError, ValueError):
        takes = False
    return from_config(config, custom_objects=custom_objects) if takes else from_config(config)
