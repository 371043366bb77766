"""Finding losses by name, and turning them into configs and back (``keras.losses.get``, ``serialize``,
``deserialize``).

Names are the class names (``"CategoricalCrossentropy"``), the function names (``"categorical_crossentropy"``)
and Keras' short aliases (``"mse"``, ``"mae"``, ``"mape"``, ``"msle"``, ``"kld"``, ``"bce"``, and their
upper-case spellings).

Unlike ``keras.losses.get``, :func:`get` always returns a :class:`Loss`: a function (found by name or
passed in) comes back wrapped in a :class:`LossFunctionWrapper` named after it, so that every result can
be called as ``loss(y_true, y_pred, sample_weight=...)`` and reduced like Keras' ``compile`` does with
function losses. :func:`deserialize` returns functions as functions, as Keras does.

>>> get("mse")
<LossFunctionWrapper(mean_squared_error, kwargs={})>
>>> get("CategoricalCrossentropy").name
'categorical_crossentropy'
>>> serialize(get({"class_name": "Huber", "config": {"delta": 2.0}}))["config"]["delta"]
2.0
"""

import inspect

from . import circle_losses as circle_mod
from . import crossentropy_losses as crossentropy
from . import ctc_losses as ctc_mod
from . import hinge_losses as hinge
from . import noisy_label_losses as noisy
from . import overlap_losses as overlap
from . import probabilistic_losses as probabilistic
from . import regression_losses as regression
from .loss import Loss, LossFunctionWrapper

_CLASSES = (
    Loss,
    LossFunctionWrapper,
    regression.MeanSquaredError,
    regression.MeanAbsoluteError,
    regression.MeanAbsolutePercentageError,
    regression.MeanSquaredLogarithmicError,
    regression.CosineSimilarity,
    regression.Huber,
    regression.LogCosh,
    crossentropy.BinaryCrossentropy,
    crossentropy.BinaryFocalCrossentropy,
    crossentropy.CategoricalCrossentropy,
    crossentropy.CategoricalFocalCrossentropy,
    crossentropy.SparseCategoricalCrossentropy,
    probabilistic.KLDivergence,
    probabilistic.Poisson,
    hinge.Hinge,
    hinge.SquaredHinge,
    hinge.CategoricalHinge,
    ctc_mod.CTC,
    noisy.CategoricalGeneralizedCrossEntropy,
    circle_mod.Circle,
    overlap.Dice,
    overlap.Tversky,
)

_FUNCTIONS = (
    regression.mean_squared_error,
    regression.mean_absolute_error,
    regression.mean_absolute_percentage_error,
    regression.mean_squared_logarithmic_error,
    regression.cosine_similarity,
    regression.huber,
    regression.log_cosh,
    crossentropy.binary_crossentropy,
    crossentropy.binary_focal_crossentropy,
    crossentropy.categorical_crossentropy,
    crossentropy.categorical_focal_crossentropy,
    crossentropy.sparse_categorical_crossentropy,
    probabilistic.kl_divergence,
    probabilistic.poisson,
    hinge.hinge,
    hinge.squared_hinge,
    hinge.categorical_hinge,
    ctc_mod.ctc,
    noisy.categorical_generalized_cross_entropy,
    circle_mod.circle,
    overlap.dice,
    overlap.tversky,
)

#: Every name :func:`get` and :func:`deserialize` accept: classes, functions and Keras' aliases.
ALL_OBJECTS = {obj.__name__: obj for obj in _CLASSES + _FUNCTIONS}
_ALIASES = {
    "mse": regression.mean_squared_error,
    "mae": regression.mean_absolute_error,
    "mape": regression.mean_absolute_percentage_error,
    "msle": regression.mean_squared_logarithmic_error,
    "kld": probabilistic.kl_divergence,
    "bce": crossentropy.binary_crossentropy,
}
for _alias, _fn in _ALIASES.items():
    ALL_OBJECTS[_alias] = _fn
    ALL_OBJECTS[_alias.upper()] = _fn
ALL_OBJECTS["kullback_leibler_divergence"] = probabilistic.kl_divergence
ALL_OBJECTS["logcosh"] = regression.log_cosh


def _lookup(name, custom_objects=None):
    from highlevel.saving.object_registry import find

    found = find(name, custom_objects, ALL_OBJECTS)
    if found is not None:
        return found
    raise ValueError(
        f"Unknown loss {name!r}. Valid names: {', '.join(sorted(ALL_OBJECTS))}. For your own loss, pass the "
        "object itself or custom_objects={name: obj}."
    )


def function_by_name(name, custom_objects=None):
    """The loss function called ``name`` (for :class:`LossFunctionWrapper` configs)."""
    obj = _lookup(name, custom_objects)
    if inspect.isclass(obj) or not callable(obj):
        raise ValueError(f"{name!r} names a loss class, not a loss function.")
    return obj


def serialize(loss):
    """``{"class_name": ..., "config": ...}`` describing ``loss`` (None stays None).

    A :class:`Loss` gives its class name and ``get_config()``; a function gives
    ``{"class_name": "function", "config": <its name>}``.

    Args:
        loss: a :class:`Loss` instance, a named loss function, or None.

    Returns:
        A dict of plain Python values (None for None).

    Raises:
        TypeError: for something that is neither a Loss nor a named function.

    >>> import highlevel as hl
    >>> hl.losses.serialize(hl.losses.Huber(delta=2.0))["config"]["delta"]
    2.0
    >>> hl.losses.serialize(hl.losses.mean_squared_error)
    {'class_name': 'function', 'config': 'mean_squared_error'}
    """
    if loss is None:
        return None
    from highlevel.saving.object_registry import describe, function_name

    if isinstance(loss, Loss):
        return describe(loss, {"class_name": type(loss).__name__, "config": loss.get_config()})
    if callable(loss) and getattr(loss, "__name__", "<lambda>") != "<lambda>":
        return {"class_name": "function", "config": function_name(loss)}
    raise TypeError(
        f"Cannot serialize {loss!r} of type {type(loss).__name__}: pass a Loss (subclass) instance or a named function."
    )


def deserialize(name, custom_objects=None):
    """The loss described by ``name`` (a :func:`serialize` output, or a name).

    Args:
        name: a name, or ``{"class_name": ..., "config": ...}`` (Keras's argument name for either); other keys
            (as Keras writes them) are ignored.
        custom_objects: an optional ``{name: class or function}`` dict for your own losses.

    Returns:
        A :class:`Loss` instance, or the function for function names.

    Raises:
        ValueError: if ``name`` is neither a string nor a dict with a ``"class_name"`` key, or names no known loss.

    >>> import highlevel as hl
    >>> hl.losses.deserialize({"class_name": "Huber", "config": {"delta": 2.0}}).delta
    2.0
    >>> hl.losses.deserialize("mse").__name__
    'mean_squared_error'
    """
    config = name
    if isinstance(config, str):
        obj = _lookup(config, custom_objects)
        return obj() if inspect.isclass(obj) else obj
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(
            f"losses.deserialize expects a name or a dict {{'class_name': ..., 'config': ...}}; received {config!r}."
        )
    if config["class_name"] == "function":
        return function_by_name(config["config"], custom_objects)
    from highlevel.saving.object_registry import find_class

    cls = find_class(config, custom_objects, ALL_OBJECTS) or _lookup(config["class_name"], custom_objects)
    if not inspect.isclass(cls):
        return cls
    return cls.from_config(dict(config.get("config") or {}))


def get(identifier):
    """A :class:`Loss` from None (returns None), a name, a config dict, an instance, a Loss class or a
    function ``fn(y_true, y_pred) -> per-sample values`` (wrapped in a :class:`LossFunctionWrapper`).

    Args:
        identifier: None, a loss name (``"mse"``, ``"categorical_crossentropy"``...), a config dict, a :class:`Loss`
            instance or class, or a function ``fn(y_true, y_pred)``.

    Returns:
        A :class:`Loss` instance (the one given, a new instance, or a :class:`LossFunctionWrapper` around a function),
        or None for None.

    Raises:
        ValueError: for an unknown name (the message lists the valid ones) or an unusable identifier.

    >>> import highlevel as hl
    >>> hl.losses.get("MeanSquaredError")
    <MeanSquaredError name='mean_squared_error'>
    >>> float(hl.losses.get("mse")([[0.0, 1.0]], [[1.0, 1.0]]))
    0.5
    """
    if identifier is None:
        return None
    if isinstance(identifier, Loss):
        return identifier
    obj = deserialize(identifier) if isinstance(identifier, (str, dict)) else identifier
    if inspect.isclass(obj):
        if issubclass(obj, Loss):
            return obj()
        raise ValueError(f"Could not interpret loss identifier: the class {obj!r} is not a Loss.")
    if isinstance(obj, Loss):
        return obj
    if callable(obj):
        return LossFunctionWrapper(obj)
    raise ValueError(
        f"Could not interpret loss identifier {identifier!r} (type {type(identifier).__name__}). Pass a name "
        "such as 'mse' or 'categorical_crossentropy', a config dict, a Loss or a function (y_true, y_pred)."
    )
