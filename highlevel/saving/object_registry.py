"""Which user classes and functions a config or a model file may name: the allow-list of loading.

Loading builds only highlevel's own classes plus the objects made known here, so a file can never make the
loader import an arbitrary module. An object gets on the list in one of three ways, all in the user's code:

* :func:`register_keras_serializable` (a decorator): under ``"package>Name"`` for good, and found by its bare
  name too;
* :class:`CustomObjectScope` (also spelled ``custom_object_scope``): for the length of a ``with`` block;
* ``custom_objects={"Name": obj}`` passed to the loading function.

>>> import highlevel as hl
>>> @hl.saving.register_keras_serializable(package="docs")
... class Twice(hl.layers.Layer):
...     def call(self, x):
...         return x * 2
>>> hl.saving.get_registered_name(Twice)
'docs>Twice'
>>> hl.saving.get_registered_object("docs>Twice") is Twice
True
>>> with hl.saving.custom_object_scope({"Other": Twice}):
...     hl.saving.get_registered_object("Other") is Twice
True
>>> hl.saving.get_registered_object("Other") is None
True
"""

import inspect
import threading

from highlevel.backends.contract.interop import front_class

#: ``{"package>Name": object}``: what :func:`register_keras_serializable` registered (the live dict
#: :func:`get_custom_objects` returns; entries a user adds to it are allowed too).
_GLOBAL_CUSTOM_OBJECTS = {}
#: ``{id(object): "package>Name"}``, with the objects kept alive by the dict above.
_GLOBAL_CUSTOM_NAMES = {}


class _Scopes(threading.local):
    def __init__(self):
        self.stack = []


_scopes = _Scopes()


def _check_package(package, name):
    if not isinstance(package, str) or not package or ">" in package:
        raise ValueError(
            f"register_keras_serializable(package=...) needs a non-empty string without '>'; received {package!r}."
        )
    if name is not None and (not isinstance(name, str) or not name or ">" in name):
        raise ValueError(
            f"register_keras_serializable(name=...) needs None or a non-empty string without '>'; received {name!r}."
        )


def register_keras_serializable(package="Custom", name=None):
    """Decorator: puts a class or function on the allow-list of loading, under ``"package>name"``.

    A registered object is found by ``deserialize``/``from_config``/``load_model`` without ``custom_objects``,
    by its full key or by its bare name, and serializes under its full key (a registered activation function
    saves as ``"package>name"``). Registering the same key again replaces the entry (a class redefined in a
    notebook, for instance).

    Args:
        package: a namespace for the object, to keep the names of different projects apart.
        name: the registered name; the object's ``__name__`` by default.

    Returns:
        The decorator; it returns the object unchanged.

    Raises:
        ValueError: an invalid package or name, or a class without ``get_config`` (it could not be saved).

    Example:

    >>> import highlevel as hl
    >>> @hl.saving.register_keras_serializable(package="docs", name="halve")
    ... def half(x):
    ...     return x / 2
    >>> hl.saving.get_registered_name(half)
    'docs>halve'
    """
    _check_package(package, name)

    def decorator(obj):
        short = name if name is not None else getattr(obj, "__name__", None)
        if not isinstance(short, str) or not short:
            raise ValueError(f"Cannot register {obj!r}: it has no __name__; pass name=... explicitly.")
        if inspect.isclass(obj) and not hasattr(obj, "get_config"):
            raise ValueError(
                f"Cannot register the class {obj.__name__}: it has no get_config() method, so it could "
                "not be saved. Define get_config() (and from_config() if the constructor needs it)."
            )
        key = f"{package}>{short}"
        previous = _GLOBAL_CUSTOM_OBJECTS.get(key)
        if previous is not None and previous is not obj:
            _GLOBAL_CUSTOM_NAMES.pop(id(previous), None)
        _GLOBAL_CUSTOM_OBJECTS[key] = obj
        _GLOBAL_CUSTOM_NAMES[id(obj)] = key
        return obj

    return decorator


#: The name this package used before it followed Keras's: same function.
register_serializable = register_keras_serializable


def get_registered_name(obj):
    """The name ``obj`` serializes under: its ``"package>name"`` key if registered, else its ``__name__``.

    Args:
        obj: a class or function.

    Returns:
        A string: ``"package>name"`` for a registered object, else its ``__name__``.

    Example:

    >>> import highlevel as hl
    >>> hl.saving.get_registered_name(hl.layers.Dense)
    'Dense'
    """
    obj = front_class(obj) if isinstance(obj, type) else obj  # a functional or engine variant: its user class
    key = _GLOBAL_CUSTOM_NAMES.get(id(obj))
    if key is not None and _GLOBAL_CUSTOM_OBJECTS.get(key) is obj:
        return key
    return obj.__name__


def _is_own(obj):
    module = getattr(obj, "__module__", None) or ""
    return module == "highlevel" or module.startswith("highlevel.")


def describe(obj, config):
    """``config`` (a ``{"class_name": ..., "config": ...}`` dict describing ``obj``, an instance or a function)
    with the ``"registered_name"`` of a user object added, so that loading finds it by its full key; highlevel's
    own objects are left as they are."""
    target = obj if inspect.isfunction(obj) or inspect.isclass(obj) else type(obj)
    if not _is_own(target):
        config["registered_name"] = get_registered_name(target)
    return config


def function_name(fn):
    """The name a function serializes under: its registered ``"package>name"`` or its ``__name__``."""
    return get_registered_name(fn)


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object registered as ``name``, or None.

    Looks in the enclosing :class:`CustomObjectScope` blocks (innermost first), then the registered objects (by
    their full key), then ``custom_objects``, then ``module_objects``.

    Args:
        name: a full key (``"package>Name"``) or a bare name.
        custom_objects: an optional ``{name: object}`` dict given by the user.
        module_objects: an optional ``{name: object}`` dict of a library's own objects.

    Returns:
        The registered object, or None when ``name`` is unknown.

    Example:

    >>> import highlevel as hl
    >>> hl.saving.get_registered_object("Dense", module_objects={"Dense": hl.layers.Dense}) is hl.layers.Dense
    True
    """
    if not isinstance(name, str):
        return None
    for scope in reversed(_scopes.stack):
        if name in scope:
            return scope[name]
    if name in _GLOBAL_CUSTOM_OBJECTS:
        return _GLOBAL_CUSTOM_OBJECTS[name]
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if module_objects and name in module_objects:
        return module_objects[name]
    return None


def find(name, custom_objects=None, builtins=None):
    """The object called ``name``, or None: every ``deserialize``/``get`` of highlevel looks names up here.

    The order: ``custom_objects``, the enclosing scopes, the registered objects by full key, then ``builtins``
    (a table of highlevel's own objects), and last a registered object by its bare name (``"Twice"`` for
    ``"docs>Twice"``, which :func:`get_registered_object` does not do): a registration never hides a built-in
    name that its full key does not spell.
    """
    if not isinstance(name, str):
        return None
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    found = get_registered_object(name)
    if found is not None:
        return found
    if builtins and name in builtins:
        return builtins[name]
    if ">" not in name:  # the latest registration of that bare name wins
        for key, obj in reversed(list(_GLOBAL_CUSTOM_OBJECTS.items())):
            if key.rpartition(">")[2] == name:
                return obj
    return None


def find_class(config, custom_objects=None, builtins=None):
    """The object a serialized dict names, or None: its ``registered_name`` (as Keras writes it for a registered
    object) when that is known, else its ``class_name`` (looked up as :func:`find` does)."""
    registered = config.get("registered_name")
    if isinstance(registered, str) and registered != "function":
        found = find(registered, custom_objects)
        if found is not None:
            return found
    return find(config.get("class_name"), custom_objects, builtins)


class CustomObjectScope:
    """Within a ``with`` block, loading also accepts the given classes and functions.

    Scopes nest: an inner block sees the objects of the outer ones as well as its own.

    Args:
        *custom_objects: dicts ``{"Name": object}`` (None is accepted and ignored).

    Raises:
        TypeError: if an argument is neither a dict nor None.

    Example:

    >>> import highlevel as hl
    >>> def scaled_relu(x):
    ...     return 2 * hl.activations.relu(x)
    >>> with hl.saving.CustomObjectScope({"scaled_relu": scaled_relu}):
    ...     hl.activations.get("scaled_relu") is scaled_relu
    True
    """

    def __init__(self, *custom_objects):
        merged = {}
        for objects in custom_objects:
            if objects is None:
                continue
            if not isinstance(objects, dict):
                raise TypeError(
                    f"CustomObjectScope takes dicts {{'Name': object}}; received {type(objects).__name__}: {objects!r}."
                )
            merged.update(objects)
        self.custom_objects = merged

    def __enter__(self):
        _scopes.stack.append(dict(self.custom_objects))
        return self

    def __exit__(self, *exc):
        _scopes.stack.pop()
        return False


#: Keras's spelling of :class:`CustomObjectScope` (the same class).
custom_object_scope = CustomObjectScope


def get_custom_objects():
    """The live dict of registered objects, ``{"package>Name": object}``.

    Adding an entry to it registers the object (``get_custom_objects()["my_act"] = my_act``), as in Keras;
    the objects of :class:`CustomObjectScope` blocks are not in it.

    Returns:
        The registry dict itself (changes to it take effect).

    Example:

    >>> import highlevel as hl
    >>> def doubled(x):
    ...     return 2 * x
    >>> hl.saving.get_custom_objects()["doubled"] = doubled
    >>> hl.activations.get("doubled") is doubled
    True
    >>> del hl.saving.get_custom_objects()["doubled"]
    """
    return _GLOBAL_CUSTOM_OBJECTS


def allowed_objects(extra=None):
    """Every user object loading accepts now, ``{name: object}``: the registered ones (under their full key and
    their bare name), those of the enclosing scopes, then ``extra``."""
    out = {}
    bare = {}
    for key, obj in _GLOBAL_CUSTOM_OBJECTS.items():
        out[key] = obj
        bare[key.rpartition(">")[2]] = obj  # the latest registration of a bare name wins, as in find()
    for short, obj in bare.items():
        out.setdefault(short, obj)
    for scope in _scopes.stack:
        out.update(scope)
    out.update(extra or {})
    return out
