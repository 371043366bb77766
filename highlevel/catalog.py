"""One lookup table per kind of object (initializers, regularizers, constraints, ...): ``get``, ``serialize``
and ``deserialize`` by name, written once.

Deserializing builds only the classes in the table or in ``custom_objects``: a config can never name an
arbitrary importable class.

>>> class Thing:
...     def __init__(self, size=1):
...         self.size = size
...     def get_config(self):
...         return {"size": self.size}
...     @classmethod
...     def from_config(cls, config):
...         return cls(**config)
>>> things = Catalog("thing", Thing, {"Thing": Thing, "thing": Thing}, example="'thing'")
>>> things.serialize(Thing(3))
{'class_name': 'Thing', 'config': {'size': 3}}
>>> things.get({"class_name": "thing", "config": {"size": 2}}).size
2
"""

import inspect


class Catalog:
    """The named objects of one kind.

    Args:
        kind: the singular name used in messages ("constraint").
        base: the base class every entry derives from.
        objects: ``{name: class}`` — class names and their snake_case aliases.
        example: a valid name to quote in error messages.
        callable_hint: what a plain callable stands for, if ``get`` accepts callables (e.g. "w -> w'").
    """

    def __init__(self, kind, base, objects, example, callable_hint=None):
        self.kind = kind
        self.base = base
        self.objects = objects
        self.example = example
        self.callable_hint = callable_hint

    def lookup(self, name, custom_objects=None):
        """The class registered as ``name`` (``custom_objects`` first)."""
        from highlevel.saving.object_registry import find

        found = find(name, custom_objects, self.objects)
        if found is not None:
            return found
        raise ValueError(
            f"Unknown {self.kind} {name!r}. Valid names: {', '.join(sorted(self.objects))}. For your own "
            f"{self.base.__name__} subclass, pass the instance itself or custom_objects={{name: cls}}."
        )

    def serialize(self, obj):
        """``{"class_name": ..., "config": {...}}`` describing ``obj`` (None stays None)."""
        if obj is None:
            return None
        if not isinstance(obj, self.base):
            raise TypeError(
                f"Only {self.base.__name__} instances can be serialized; received {obj!r} of type "
                f"{type(obj).__name__}. Subclass {self.base.__module__.rsplit('.', 1)[0]}.{self.base.__name__} "
                "and define get_config()."
            )
        from highlevel.saving.object_registry import describe

        return describe(obj, {"class_name": type(obj).__name__, "config": obj.get_config()})

    def deserialize(self, config, custom_objects=None):
        """Rebuilds the object described by ``config`` (a :meth:`serialize` dict, or a name for the defaults).

        Only the classes of this kind's table and those in ``custom_objects`` (or registered with
        ``hl.saving.register_keras_serializable``) are built.

        Args:
            config: a dict ``{"class_name": ..., "config": {...}}``, or a name such as ``"l2"`` (built with
                its default arguments).
            custom_objects: optional ``{name: class}`` dict for your own classes.

        Returns:
            A new object of the described class.

        Raises:
            ValueError: if ``config`` is neither a name nor such a dict, or names an unknown class.

        >>> import highlevel as hl
        >>> hl.regularizers.deserialize({"class_name": "L2", "config": {"l2": 0.1}}).l2
        0.1
        """
        if isinstance(config, str):
            return self.lookup(config, custom_objects)()
        if not isinstance(config, dict) or "class_name" not in config:
            raise ValueError(
                f"{self.kind}s.deserialize expects a dict {{'class_name': ..., 'config': {{...}}}} or a name; "
                f"received {config!r}."
            )
        from highlevel.saving.object_registry import find_class

        cls = find_class(config, custom_objects, self.objects) or self.lookup(config["class_name"], custom_objects)
        return cls.from_config(dict(config.get("config") or {}))

    def get(self, identifier):
        """Resolves an identifier into an object of this kind, as layers do with their arguments.

        Args:
            identifier: None; a name (``"l2"``, ``"max_norm"``...); a config dict; an instance (returned as is);
                a class (built with its defaults); or, when this kind allows it, a plain callable (returned as is).

        Returns:
            The object, or None for None.

        Raises:
            ValueError: for an unknown name (the message lists the valid ones) or an unusable identifier.

        >>> import highlevel as hl
        >>> type(hl.regularizers.get("l2")).__name__, type(hl.constraints.get("non_neg")).__name__
        ('L2', 'NonNeg')
        """
        if identifier is None:
            return None
        if isinstance(identifier, (str, dict)):
            return self.deserialize(identifier)
        if isinstance(identifier, self.base):
            return identifier
        if inspect.isclass(identifier):
            if issubclass(identifier, self.base):
                return identifier()
            raise ValueError(
                f"Could not interpret {self.kind} identifier: the class {identifier!r} is not a {self.base.__name__}."
            )
        if callable(identifier) and self.callable_hint:
            return identifier
        accepted = f", a {self.base.__name__}" + (f" or a callable {self.callable_hint}" if self.callable_hint else "")
        raise ValueError(
            f"Could not interpret {self.kind} identifier {identifier!r} (type {type(identifier).__name__}). "
            f"Pass a name such as {self.example}, a config dict{accepted}."
        )
