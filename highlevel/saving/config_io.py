"""Model configs in and out of a file, building only allowed classes.

Before anything is built, the whole config tree is checked: every ``class_name`` must be one of highlevel's
own classes or a user object made known through ``custom_objects``, ``register_serializable`` or
``custom_object_scope``, and every ``module`` must be highlevel's or that user object's. Nothing named by a
file is ever imported (Lambda functions outside highlevel only with ``safe_mode=False``).

>>> import highlevel as hl
>>> from highlevel.saving import config_io
>>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
>>> again = config_io.deserialize_model(config_io.serialize_model(model))
>>> type(again).__name__
'Sequential'
"""

from .errors import InvalidFileError, UnsafeFileError
from .object_registry import allowed_objects

_FUNCTION_REF = "function"  # how Lambda layers and loss/metric functions name a function


def _own_classes():
    """Every class highlevel exports from its serializable packages, by name."""
    import highlevel as hl
    from highlevel import dtype_policies, quantizers
    from highlevel.optimizers import schedules

    out = {}
    modules = (
        hl.layers,
        hl.models,
        hl.initializers,
        hl.regularizers,
        hl.constraints,
        hl.activations,
        hl.optimizers,
        schedules,
        hl.losses,
        hl.metrics,
        hl.distillation,
        quantizers,
        dtype_policies,
    )
    for module in modules:
        for name in dir(module):
            obj = getattr(module, name)
            if isinstance(obj, type) and getattr(obj, "__module__", "").startswith("highlevel."):
                out.setdefault(name, obj)
    return out


def serialize_model(model):
    """``{"module", "class_name", "config"}`` of a model."""
    from highlevel.layers import serialize

    return serialize(model)


def _is_own_module(module):
    return module == "highlevel" or module.startswith("highlevel.")


def check_config_tree(config, custom_objects, safe_mode=True, where="config"):
    """Raises :class:`UnsafeFileError` if any object in ``config`` is not allowed (see module docstring)."""
    own = _own_classes()
    stack = [(config, where, 0)]
    while stack:
        node, at, depth = stack.pop()
        if depth > 200:
            raise InvalidFileError(f"The model config nests deeper than 200 levels at {at}.")
        if isinstance(node, list):
            stack.extend((v, f"{at}[{i}]", depth + 1) for i, v in enumerate(node))
            continue
        if not isinstance(node, dict):
            continue
        name = node.get("class_name")
        module = node.get("module")
        if name is not None or module is not None:
            if not isinstance(name, str) or (module is not None and not isinstance(module, str)):
                raise InvalidFileError(f"Malformed object reference at {at}: class_name={name!r}, module={module!r}.")
            if name == _FUNCTION_REF:
                _check_function_ref(node, at, custom_objects, safe_mode)
            elif name in custom_objects or _registered_class(node, custom_objects) is not None:
                # Keras finds a registered class by its registered name ("package>Name"), whatever module the
                # saving program defined it in (often its __main__): that name, registered here, is the allowance.
                # It also tells apart two registered classes of the same name from different packages.
                registered_class = _registered_class(node, custom_objects)
                user = registered_class if registered_class is not None else custom_objects[name]
                allowed = getattr(user, "__module__", None)
                by_registration = registered_class is not None
                if module is not None and module != allowed and not _is_own_module(module) and not by_registration:
                    raise UnsafeFileError(
                        f"The config at {at} names {name!r} from module {module!r}, but the allowed {name!r} "
                        f"comes from {allowed!r}. Refusing a class from an unexpected module."
                    )
            elif name in own and (module is None or _is_own_module(module)):
                pass
            else:
                origin = f"{module}.{name}" if module else name
                raise UnsafeFileError(
                    f"The model config at {at} asks for {origin!r}, which is neither a highlevel class nor a "
                    "registered custom object; loading refuses to build it. If it is your own class, pass "
                    f"custom_objects={{{name!r}: {name}}}, decorate it with "
                    "@hl.saving.register_serializable(), or load inside hl.saving.custom_object_scope(...)."
                )
        stack.extend((v, f"{at}.{k}", depth + 1) for k, v in node.items())


def _registered_class(node, custom_objects):
    """The class ``node``'s registered name (``"package>Name"``) stands for here, or None."""
    registered = node.get("registered_name")
    if isinstance(registered, str) and ">" in registered:
        return custom_objects.get(registered)
    return None


def _check_function_ref(node, at, custom_objects, safe_mode):
    module, qualname = node.get("module"), node.get("config")
    if not isinstance(qualname, str):
        raise InvalidFileError(f"Malformed function reference at {at}: {node!r}.")
    if qualname in custom_objects or module is None or module == "builtins" or _is_own_module(module):
        return
    if safe_mode:
        raise UnsafeFileError(
            f"The model config at {at} names the Python function {module}.{qualname}, which is neither a "
            "highlevel function nor a registered one. Decorate it with @hl.saving.register_keras_serializable() "
            f"or pass custom_objects={{{qualname!r}: {qualname.rpartition('>')[2]}}}; highlevel never imports a "
            "function named by a file (a Lambda layer's function only with safe_mode=False, for files you trust)."
        )


class _ModelShim:
    """Stands in for a model class inside ``hl.layers.deserialize`` so nested models get the same custom
    objects (``Sequential.from_config`` and nested functional models would otherwise not receive them)."""

    def __init__(self, cls, objects):
        self.cls, self.objects = cls, objects

    def from_config(self, config, custom_objects=None):
        return _build(self.cls, config, self.objects)


def _build(cls, config, objects):
    from highlevel.layers import deserialize
    from highlevel.models import Functional, Sequential

    shims = dict(objects)
    for name, obj in list(_own_classes().items()) + list(objects.items()):
        if isinstance(obj, type) and issubclass(obj, (Sequential, Functional)):
            shims[name] = _ModelShim(obj, objects)
    config = dict(config)
    if issubclass(cls, Sequential):
        stack = [deserialize(c, custom_objects=shims) for c in config.pop("layers")]
        return cls(stack, **config)
    if issubclass(cls, Functional):
        return cls.from_config(config, custom_objects=shims)
    return cls.from_config(config)


def deserialize_model(config, custom_objects=None, safe_mode=True):
    """Builds the model of :func:`serialize_model`'s output, after :func:`check_config_tree`."""
    objects = allowed_objects(custom_objects)
    if (
        not isinstance(config, dict)
        or not isinstance(config.get("class_name"), str)
        or not isinstance(config.get("config"), dict)
    ):
        raise InvalidFileError(
            f"The model config must be a dict with 'class_name' and 'config'; received {type(config).__name__}."
        )
    check_config_tree(config, objects, safe_mode)
    from highlevel.layers import Layer
    from highlevel.layers.core import lambda_layer

    every = _own_classes()
    every.update(objects)
    # The registered name ("package>Name") first: two registered classes may share a class name.
    cls = _registered_class(config, objects) or every[config["class_name"]]
    if not (isinstance(cls, type) and issubclass(cls, Layer)):
        raise InvalidFileError(f"The model config names {config['class_name']!r}, which is not a layer or model.")
    with lambda_layer.safe_mode_scope(safe_mode):
        try:
            return _build(cls, config["config"], objects)
        except (UnsafeFileError, InvalidFileError):
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError) as e:
            raise InvalidFileError(f"The model could not be rebuilt from its config ({type(e).__name__}: {e}).") from e
