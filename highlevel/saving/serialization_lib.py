"""Any object of the API as plain, JSON-able data and back: ``serialize_keras_object`` and
``deserialize_keras_object``, in Keras 3's format.

An object with ``get_config`` becomes ``{"module", "class_name", "config", "registered_name"}`` (plus its
``build_config`` and ``compile_config`` when it has them); a function becomes ``{"module", "class_name":
"function", "config": <its name>, "registered_name": "function"}``; numpy arrays, tensors, bytes, tuples and
slices get tagged forms (``"__numpy__"``, ``"__tensor__"``, ...). Deserializing builds only highlevel's own
objects and the user objects on the allow-list (:mod:`highlevel.saving.object_registry`): a config never makes
highlevel import a module or run code. Unlike Keras, a ``lambda`` is refused both ways (Keras stores its
bytecode, which only an unsafe load runs): give the function a name and register it.

>>> import highlevel as hl
>>> config = hl.saving.serialize_keras_object(hl.layers.Dense(3, name="d"))
>>> config["class_name"], config["config"]["units"], config["registered_name"]
('Dense', 3, None)
>>> hl.saving.deserialize_keras_object(config).units
3
>>> hl.saving.serialize_keras_object(hl.activations.relu)["config"]
'relu'
"""

import inspect
import types

import numpy as np

from highlevel.backends.contract.interop import front_class

from .errors import UnsafeFileError
from .object_registry import CustomObjectScope, find, find_class, get_registered_name

_PLAIN = (str, int, float, bool)
_FUNCTION = "function"


def _builtin_functions():
    """highlevel's own public functions (activations, losses, metrics), by name."""
    from highlevel import activations, losses, metrics
    from highlevel.metrics import serialization as metric_serialization

    out = {}
    for table in (activations.ALL_OBJECTS, losses.ALL_OBJECTS, metric_serialization._FUNCTIONS, metrics.ALL_OBJECTS):
        for name, obj in table.items():
            if inspect.isfunction(obj):
                out.setdefault(name, obj)
    return out


def builtin_objects():
    """Every class and function highlevel itself lets a config name, ``{name: object}``."""
    from .config_io import _own_classes

    out = dict(_builtin_functions())
    out.update(_own_classes())
    return out


def _is_builtin_function(fn):
    name = getattr(fn, "__name__", None)
    return name is not None and _builtin_functions().get(name) is fn


def _serialize_dict(obj):
    return {key: serialize_keras_object(value) for key, value in obj.items()}


def _is_engine_tensor(obj):
    from highlevel.backends.contract import Variable
    from highlevel.config import current_backend

    if isinstance(obj, Variable):
        return True
    try:
        return bool(current_backend().is_tensor(obj))
    except Exception:  # an engine that cannot tell: not one of its tensors
        return False


def serialize_keras_object(obj):
    """A plain-data description of ``obj`` that :func:`deserialize_keras_object` turns back into it.

    Args:
        obj: None, a Python scalar or string, a list/tuple/dict of serializable values, a numpy array, a tensor or
            variable, bytes, a slice, a symbolic tensor, a named function, a class, or an object with
            ``get_config()`` (layers, models, losses, metrics, optimizers, initializers, your own classes).

    Returns:
        The description (plain Python data; tuples stay tuples until JSON turns them into lists).

    Raises:
        ValueError: for a ``lambda`` (it has no name to find it by when loading).
        TypeError: for an object that has neither ``get_config`` nor a name.

    Example:

    >>> import numpy as np, highlevel as hl
    >>> hl.saving.serialize_keras_object(np.array([1, 2], "int32"))
    {'class_name': '__numpy__', 'config': {'value': [1, 2], 'dtype': 'int32'}}
    """
    from highlevel.keras_tensor import KerasTensor

    if obj is None or isinstance(obj, _PLAIN):
        return obj
    if isinstance(obj, (list, tuple)):
        items = [serialize_keras_object(x) for x in obj]
        return tuple(items) if isinstance(obj, tuple) else items
    if isinstance(obj, dict):
        return _serialize_dict(obj)
    if isinstance(obj, bytes):
        return {"class_name": "__bytes__", "config": {"value": obj.decode("utf-8")}}
    if isinstance(obj, slice):
        return {
            "class_name": "__slice__",
            "config": {
                "start": serialize_keras_object(obj.start),
                "stop": serialize_keras_object(obj.stop),
                "step": serialize_keras_object(obj.step),
            },
        }
    if obj is Ellipsis:
        return {"class_name": "__ellipsis__", "config": {}}
    if isinstance(obj, KerasTensor):
        return {
            "class_name": "__keras_tensor__",
            "config": {"shape": obj.shape, "dtype": obj.dtype, "keras_history": None},
        }
    if isinstance(obj, (np.ndarray, np.generic)):
        if isinstance(obj, np.ndarray) and obj.ndim > 0:
            return {"class_name": "__numpy__", "config": {"value": obj.tolist(), "dtype": str(obj.dtype)}}
        return obj.item()
    if not inspect.isclass(obj) and not callable(getattr(obj, "get_config", None)) and _is_engine_tensor(obj):
        from highlevel import ops

        value = np.asarray(ops.convert_to_numpy(obj))
        return {"class_name": "__tensor__", "config": {"value": value.tolist(), "dtype": str(value.dtype)}}
    if isinstance(obj, types.FunctionType) and obj.__name__ == "<lambda>":
        raise ValueError(
            "Cannot serialize a lambda: highlevel never stores code in a config, and a lambda has no name to find "
            "it by when loading. Define a named function and decorate it with "
            "@hl.saving.register_keras_serializable() (or pass it in custom_objects when loading)."
        )
    if inspect.isfunction(obj) or inspect.isbuiltin(obj):
        module = "builtins" if _is_builtin_function(obj) else obj.__module__
        return {
            "module": module,
            "class_name": _FUNCTION,
            "config": get_registered_name(obj),
            "registered_name": _FUNCTION,
        }
    if inspect.isclass(obj):
        return {
            "module": obj.__module__,
            "class_name": obj.__name__,
            "config": None,
            "registered_name": _registered_or_none(obj),
        }
    get_config = getattr(obj, "get_config", None)
    if not callable(get_config):
        raise TypeError(
            f"Cannot serialize {obj!r} of type {type(obj).__name__}: it has no get_config() method. "
            "Give its class get_config() (and from_config() if needed)."
        )
    inner = get_config()
    if not isinstance(inner, dict):
        raise TypeError(
            f"{type(obj).__name__}.get_config() must return a dict; it returned {type(inner).__name__}: {inner!r}."
        )
    cls = front_class(type(obj))
    config = {
        "module": cls.__module__,
        "class_name": cls.__name__,
        "config": _serialize_dict(inner),
        "registered_name": _registered_or_none(cls),
    }
    build_config = obj.get_build_config() if callable(getattr(obj, "get_build_config", None)) else None
    if build_config is not None:
        config["build_config"] = _serialize_dict(build_config)
    compile_config = obj.get_compile_config() if callable(getattr(obj, "get_compile_config", None)) else None
    if compile_config:
        config["compile_config"] = _serialize_dict(compile_config)
    return config


def _registered_or_none(cls):
    """The registered name of a user class (its name when unregistered); None for highlevel's own classes."""
    module = getattr(cls, "__module__", "") or ""
    if module == "highlevel" or module.startswith("highlevel."):
        return None
    return get_registered_name(cls)


def _special(class_name, inner, custom_objects, safe_mode):
    """The value of a tagged form (``"__numpy__"``, ...), or ``NotImplemented`` for any other class name."""
    if class_name == "__numpy__":
        return np.array(inner["value"], dtype=inner["dtype"])
    if class_name == "__tensor__":
        from highlevel import ops

        return ops.convert_to_tensor(np.array(inner["value"], dtype=inner["dtype"]))
    if class_name == "__bytes__":
        return inner["value"].encode("utf-8")
    if class_name == "__slice__":
        return slice(
            *(deserialize_keras_object(inner.get(k), custom_objects, safe_mode) for k in ("start", "stop", "step"))
        )
    if class_name == "__ellipsis__":
        return Ellipsis
    if class_name == "__keras_tensor__":
        from highlevel.keras_tensor import KerasTensor

        return KerasTensor(inner["shape"], inner["dtype"])
    if class_name == "__lambda__":
        raise UnsafeFileError(
            "The config holds a lambda as bytecode; highlevel never runs code from a config, whatever safe_mode "
            "says. Rebuild the object in code, or replace the lambda by a named, registered function."
        )
    return NotImplemented


def _function(config, custom_objects, module_objects):
    name = config.get("config")
    if not isinstance(name, str):
        raise ValueError(f"A function reference must name the function in 'config'; received {config!r}.")
    builtins = dict(module_objects or {})
    for key, fn in _builtin_functions().items():
        builtins.setdefault(key, fn)
    fn = find(name, custom_objects, builtins)
    if fn is None:
        raise ValueError(
            f"Unknown function {name!r} (module {config.get('module')!r}): it is neither a highlevel function nor "
            f"a registered one. Decorate it with @hl.saving.register_keras_serializable(), or pass "
            f"custom_objects={{{name!r}: {name.rpartition('>')[2]}}}."
        )
    return fn


def _own_class_in_module(config, builtins):
    """highlevel's class named by a config whose ``module`` is highlevel's own (a metric and a loss, or a layer and
    an initializer, may share a class name): the class of that name defined in that module, when highlevel
    exports a class of that name."""
    import sys

    module, name = config.get("module"), config.get("class_name")
    if not isinstance(module, str) or not (module == "highlevel" or module.startswith("highlevel.")):
        return None
    loaded = sys.modules.get(module)  # only a module already imported: a config never makes highlevel import one
    cls = getattr(loaded, name, None) if loaded is not None and isinstance(name, str) else None
    if not isinstance(cls, type) or cls.__module__ != module or builtins.get(name) is None:
        return None
    return cls


def _build(cls, inner, custom_objects):
    from_config = getattr(cls, "from_config", None)
    if from_config is None:
        raise TypeError(f"{cls.__name__} has no from_config(); it cannot be rebuilt from a config.")
    try:
        takes_objects = "custom_objects" in inspect.signature(from_config).parameters
    except (TypeError, ValueError):
        takes_objects = False
    if takes_objects:
        return from_config(inner, custom_objects=custom_objects)
    return from_config(inner)


def deserialize_keras_object(config, custom_objects=None, safe_mode=True, **kwargs):
    """The object :func:`serialize_keras_object` described.

    Classes and functions are found among highlevel's own and the allow-list (registered objects, the enclosing
    ``CustomObjectScope`` blocks, ``custom_objects``); nothing named by the config is imported. An object's
    ``build_config`` is passed to its ``build_from_config`` and its ``compile_config`` to its
    ``compile_from_config``.

    Args:
        config: what :func:`serialize_keras_object` returned (or its JSON round trip).
        custom_objects: ``{"Name": class_or_function}`` for your own objects.
        safe_mode: refuse Lambda layers whose function is not highlevel's (see ``hl.layers.Lambda``).
        **kwargs: ``module_objects`` (a ``{name: object}`` table searched after the allow-list) and
            ``printable_module_name`` (the kind of object, for error messages), as Keras accepts them.

    Returns:
        The rebuilt object.

    Raises:
        ValueError: a class or function that is neither highlevel's nor on the allow-list (the message says how to
            allow it), or a malformed config.

    Example:

    >>> import highlevel as hl
    >>> loss = hl.saving.deserialize_keras_object({"class_name": "Huber", "config": {"delta": 2.0}})
    >>> type(loss).__name__, loss.get_config()["delta"]
    ('Huber', 2.0)
    """
    module_objects = kwargs.pop("module_objects", None)
    kind = kwargs.pop("printable_module_name", "object")
    if kwargs:
        raise TypeError(f"deserialize_keras_object got unexpected arguments {sorted(kwargs)}.")
    if config is None or isinstance(config, (int, float, bool)):
        return config
    if isinstance(config, str):
        found = find(config, custom_objects, module_objects)
        return config if found is None else found
    if isinstance(config, (list, tuple)):
        items = [deserialize_keras_object(c, custom_objects, safe_mode, module_objects=module_objects) for c in config]
        return tuple(items) if isinstance(config, tuple) else items
    if not isinstance(config, dict):
        raise TypeError(
            f"deserialize_keras_object expects a config (dict, list, string, number or None); received "
            f"{type(config).__name__}: {config!r}."
        )
    if "class_name" not in config or "config" not in config:
        return {
            k: deserialize_keras_object(v, custom_objects, safe_mode, module_objects=module_objects)
            for k, v in config.items()
        }
    class_name, inner = config["class_name"], config["config"]
    if not isinstance(class_name, str):
        raise ValueError(f"Malformed config: class_name must be a string; received {class_name!r}.")
    special = _special(class_name, inner, custom_objects, safe_mode)
    if special is not NotImplemented:
        return special
    if class_name == _FUNCTION:
        return _function(config, custom_objects, module_objects)
    builtins = dict(module_objects or {})
    for key, obj in builtin_objects().items():
        builtins.setdefault(key, obj)
    cls = _own_class_in_module(config, builtins) or find_class(config, custom_objects, builtins)
    if cls is None:
        raise ValueError(
            f"Could not find the {kind} class {class_name!r} (module {config.get('module')!r}): it is neither a "
            "highlevel class nor a registered one, and loading builds nothing else. Decorate your class with "
            f"@hl.saving.register_keras_serializable(), or pass custom_objects={{{class_name!r}: {class_name}}}."
        )
    if inner is None:
        return cls
    if not isinstance(inner, dict):
        raise ValueError(f"Malformed config for {class_name!r}: 'config' must be a dict; received {inner!r}.")
    from highlevel.layers.core import lambda_layer

    with CustomObjectScope(custom_objects), lambda_layer.safe_mode_scope(safe_mode):
        instance = _build(cls, dict(inner), custom_objects)
        build_config = config.get("build_config")
        if (
            build_config
            and callable(getattr(instance, "build_from_config", None))
            and not getattr(instance, "built", False)
        ):
            instance.build_from_config(build_config)
        compile_config = config.get("compile_config")
        if compile_config and callable(getattr(instance, "compile_from_config", None)):
            instance.compile_from_config(compile_config)
    return instance
