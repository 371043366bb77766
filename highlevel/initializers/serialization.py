"""Finding initializers by name, and turning them into configs and back (``keras.initializers.get``,
``serialize``, ``deserialize``).

>>> init = get("he_normal")
>>> type(init).__name__
'HeNormal'
>>> serialize(get({"class_name": "RandomUniform", "config": {"minval": -1.0, "maxval": 1.0, "seed": 4}}))
{'class_name': 'RandomUniform', 'config': {'minval': -1.0, 'maxval': 1.0, 'seed': 4}}
"""

import inspect

import numpy as np

from highlevel import ops
from highlevel.backends.contract import Variable, dtypes

from .constant_initializers import Constant, Identity, Ones, Zeros
from .host_values import standardize_shape
from .initializer import Initializer
from .orthogonal import Orthogonal
from .random_initializers import RandomNormal, RandomUniform, TruncatedNormal
from .variance_scaling import (GlorotNormal, GlorotUniform, HeNormal, HeUniform, LecunNormal, LecunUniform,
                               VarianceScaling)

_CLASSES = (Initializer, Zeros, Ones, Constant, Identity, RandomNormal, RandomUniform, TruncatedNormal,
            VarianceScaling, GlorotUniform, GlorotNormal, HeUniform, HeNormal, LecunUniform, LecunNormal,
            Orthogonal)

#: Every name ``get`` and ``deserialize`` accept: class names, their snake_case spellings and the
#: extra aliases Keras keeps for compatibility.
ALL_OBJECTS = {cls.__name__: cls for cls in _CLASSES}
ALL_OBJECTS.update({
    "initializer": Initializer, "zeros": Zeros, "ones": Ones, "constant": Constant, "identity": Identity,
    "random_normal": RandomNormal, "random_uniform": RandomUniform, "truncated_normal": TruncatedNormal,
    "variance_scaling": VarianceScaling, "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal,
    "he_uniform": HeUniform, "he_normal": HeNormal, "lecun_uniform": LecunUniform, "lecun_normal": LecunNormal,
    "orthogonal": Orthogonal,
    "IdentityInitializer": Identity, "OrthogonalInitializer": Orthogonal, "normal": RandomNormal,
    "uniform": RandomUniform, "one": Ones, "zero": Zeros,
})


def _lookup(name, custom_objects):
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if name in ALL_OBJECTS:
        return ALL_OBJECTS[name]
    raise ValueError(
        f"Unknown initializer {name!r}. Valid names: {', '.join(sorted(ALL_OBJECTS))}. For your own "
        "Initializer subclass, pass the instance itself or custom_objects={name: cls}."
    )


def serialize(initializer):
    """``{"class_name": ..., "config": {...}}`` describing ``initializer`` (None stays None).

    Raises:
        TypeError: for something that is not an :class:`Initializer` (a plain function has no config).
    """
    if initializer is None:
        return None
    if not isinstance(initializer, Initializer):
        raise TypeError(
            f"Only Initializer instances can be serialized; received {initializer!r} of type "
            f"{type(initializer).__name__}. Subclass highlevel.initializers.Initializer and define get_config()."
        )
    return {"class_name": type(initializer).__name__, "config": initializer.get_config()}


def deserialize(config, custom_objects=None):
    """The initializer described by ``config`` (the output of :func:`serialize`, or a name).

    Args:
        config: ``{"class_name": ..., "config": {...}}`` (other keys, as Keras writes them, are ignored)
            or a name string.
        custom_objects: an optional ``{name: class}`` dict for your own Initializer subclasses.
    """
    if isinstance(config, str):
        return _lookup(config, custom_objects)()
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(
            f"initializers.deserialize expects a dict {{'class_name': ..., 'config': {{...}}}} or a name; "
            f"received {config!r}."
        )
    cls = _lookup(config["class_name"], custom_objects)
    return cls.from_config(dict(config.get("config") or {}))


def _from_value(value):
    """An initializer that returns ``value`` (an array or tensor of exactly the requested shape)."""
    array = np.asarray(value.numpy() if isinstance(value, Variable) else ops.convert_to_numpy(value))

    def initialize_fn(shape, dtype=None):
        if tuple(standardize_shape(shape, "initializer")) != array.shape:
            raise ValueError(
                f"An array used as an initializer has shape {array.shape}, but shape={tuple(shape)} was "
                "requested; the two must be equal."
            )
        return ops.convert_to_tensor(array, dtype=dtypes.standardize_dtype(dtype))

    return initialize_fn


def get(identifier):
    """An initializer from a name, a config dict, an instance, a class, a callable or an array.

    Args:
        identifier: None (returns None); a name (``"glorot_uniform"``, ``"GlorotUniform"``, ``"zeros"``,
            ...); a dict from :func:`serialize`; an :class:`Initializer` (returned as is); an Initializer
            class (instantiated with its defaults); a callable ``(shape, dtype=None) -> tensor``
            (returned as is); or a numpy array or tensor of the exact shape to initialize with.

    Raises:
        ValueError: for an unknown name (the message lists the valid ones) or an unusable identifier.
    """
    if identifier is None:
        return None
    if isinstance(identifier, str):
        return deserialize(identifier)
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if inspect.isclass(identifier):
        if issubclass(identifier, Initializer):
            return identifier()
        raise ValueError(f"Could not interpret initializer identifier: the class {identifier!r} is not an Initializer.")
    if isinstance(identifier, (np.ndarray, np.generic, Variable)) or ops.is_tensor(identifier):
        return _from_value(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(
        f"Could not interpret initializer identifier {identifier!r} (type {type(identifier).__name__}). "
        "Pass a name such as 'glorot_uniform', a config dict, an Initializer or a callable (shape, dtype)."
    )
