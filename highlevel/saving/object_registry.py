"""Which user classes a model file may name: ``register_serializable`` and ``custom_object_scope``.

Loading builds only highlevel's own classes plus the classes listed here (or passed as ``custom_objects``),
so a file can never make the loader import an arbitrary module.

>>> import highlevel as hl
>>> @hl.saving.register_serializable(package="docs")
... class Twice(hl.layers.Layer):
...     def call(self, x):
...         return x * 2
>>> hl.saving.get_custom_objects()["docs>Twice"] is Twice
True
>>> with hl.saving.custom_object_scope({"Other": Twice}):
...     "Other" in hl.saving.get_custom_objects()
True
"""

import contextlib
import threading

_REGISTERED = {}


class _Scopes(threading.local):
    def __init__(self):
        self.stack = []


_scopes = _Scopes()


def register_serializable(package="Custom", name=None):
    """Class decorator: lets model files name this class (as ``"package>Name"`` or ``"Name"``).

    Args:
        package: a namespace for the class, to keep names of different projects apart.
        name: the registered name; the class's ``__name__`` by default.
    """
    if not isinstance(package, str) or not package or ">" in package:
        raise ValueError(f"register_serializable(package=...) needs a non-empty string without '>'; "
                         f"received {package!r}.")

    def decorator(obj):
        short = name or obj.__name__
        key = f"{package}>{short}"
        existing = _REGISTERED.get(key)
        if existing is not None and existing is not obj and (existing.__module__, existing.__qualname__) != (
                obj.__module__, obj.__qualname__):
            raise ValueError(f"{key!r} is already registered to {existing!r}; pick another package or name.")
        _REGISTERED[key] = obj
        obj._registered_name = key
        return obj

    return decorator


@contextlib.contextmanager
def custom_object_scope(custom_objects):
    """Within the ``with`` block, loading also accepts the classes/functions in ``custom_objects``
    (a dict ``{"Name": object}``)."""
    if not isinstance(custom_objects, dict):
        raise TypeError(f"custom_object_scope takes a dict {{'Name': object}}; received {type(custom_objects)}.")
    _scopes.stack.append(dict(custom_objects))
    try:
        yield
    finally:
        _scopes.stack.pop()


def get_custom_objects(extra=None):
    """The user objects loading accepts now: registered ones (under ``"package>Name"`` and ``"Name"``),
    those of the enclosing ``custom_object_scope`` blocks, then ``extra``."""
    out = {}
    for key, obj in _REGISTERED.items():
        out[key] = obj
        out.setdefault(key.split(">", 1)[1], obj)
    for scope in _scopes.stack:
        out.update(scope)
    out.update(extra or {})
    return out
