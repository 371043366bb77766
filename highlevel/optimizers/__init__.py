"""``highlevel.optimizers``: optimizers written once on ``highlevel.ops`` (Keras 3 names and update rules).

>>> import highlevel as hl
>>> type(hl.optimizers.get("adam")).__name__
'Adam'
>>> opt = hl.optimizers.deserialize(hl.optimizers.serialize(hl.optimizers.RMSprop(0.01, centered=True)))
>>> type(opt).__name__, opt.centered
('RMSprop', True)
"""

from . import legacy, schedules
from .adadelta import Adadelta
from .adafactor import Adafactor
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .ftrl import Ftrl
from .lamb import Lamb
from .lion import Lion
from .loss_scale_optimizer import LossScaleOptimizer
from .multi_optimizer import MultiOptimizer
from .muon import Muon
from .nadam import Nadam
from .optimizer import Optimizer
from .optimizer_map import OptimizerMap
from .rmsprop import RMSprop
from .schedule_free_adamw import ScheduleFreeAdamW
from .sgd import SGD

_BY_NAME = {
    "sgd": SGD,
    "adam": Adam,
    "adamw": AdamW,
    "rmsprop": RMSprop,
    "adagrad": Adagrad,
    "adadelta": Adadelta,
    "adamax": Adamax,
    "nadam": Nadam,
    "lion": Lion,
    "adafactor": Adafactor,
    "ftrl": Ftrl,
    "lamb": Lamb,
    "muon": Muon,
    "schedulefreeadamw": ScheduleFreeAdamW,
}


def get(identifier):
    """An optimizer from a name (``"adam"`` or ``"Adam"``), a ``serialize`` dict, or an instance (returned as is).

    Args:
        identifier: an optimizer name (``"adam"``, ``"Adam"``, ``"sgd"``...), a dict from :func:`serialize`, or an
            Optimizer instance.

    Returns:
        An Optimizer: the instance given, or a new one (with default hyper-parameters for a name).

    Raises:
        ValueError: if a name is not a known optimizer.
        TypeError: if ``identifier`` is neither a string, a dict nor an Optimizer.

    >>> import highlevel as hl
    >>> opt = hl.optimizers.get("adam")
    >>> type(opt).__name__, round(float(opt.learning_rate), 4)
    ('Adam', 0.001)
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str):
        from highlevel.saving.object_registry import find

        cls = _BY_NAME.get(identifier.lower()) or _class_named(identifier) or find(identifier)
        if cls is None:
            raise ValueError(
                f"Unknown optimizer {identifier!r}. Known optimizers: {sorted(_BY_NAME)} (or their class names)."
            )
        return cls()
    if isinstance(identifier, dict):
        return deserialize(identifier)
    raise TypeError(
        f"Could not interpret optimizer identifier {identifier!r}: pass a name such as 'adam', a "
        "serialized dict or an hl.optimizers.Optimizer instance."
    )


def _class_named(name):
    for cls in _BY_NAME.values():
        if cls.__name__ == name:
            return cls
    return None


def serialize(optimizer):
    """``{"class_name": ..., "config": {...}}`` of an optimizer (its hyper-parameters, not its state).

    Args:
        optimizer: the Optimizer to describe.

    Returns:
        A dict ``{"class_name": ..., "config": {...}}`` of plain Python values: the hyper-parameters, not the state
        (slots, iteration count).

    >>> import highlevel as hl
    >>> config = hl.optimizers.serialize(hl.optimizers.SGD(learning_rate=0.5, momentum=0.9))
    >>> config["class_name"], config["config"]["momentum"]
    ('SGD', 0.9)
    """
    from highlevel.saving.object_registry import describe

    return describe(optimizer, {"class_name": type(optimizer).__name__, "config": optimizer.get_config()})


def deserialize(config, custom_objects=None):
    """Rebuilds an optimizer from :func:`serialize`'s output (highlevel's classes and ``custom_objects``).

    Args:
        config: a dict from :func:`serialize` (or an optimizer name).
        custom_objects: optional ``{"ClassName": class}`` dict for your own optimizer classes.

    Returns:
        A new Optimizer with the described hyper-parameters.

    Raises:
        ValueError: if the class is neither a highlevel optimizer, a registered class nor in ``custom_objects``.

    >>> import highlevel as hl
    >>> opt = hl.optimizers.deserialize({"class_name": "SGD", "config": {"learning_rate": 0.5}})
    >>> type(opt).__name__, float(opt.learning_rate)
    ('SGD', 0.5)
    """
    from highlevel.saving.object_registry import find

    classes = {cls.__name__: cls for cls in _BY_NAME.values()}
    classes["LossScaleOptimizer"] = LossScaleOptimizer  # wraps another optimizer: no name for get()
    classes["MultiOptimizer"] = MultiOptimizer  # likewise: it needs its optimizer map
    if isinstance(config, str):
        return get(config)
    name = config.get("class_name") if isinstance(config, dict) else None
    cls = find(config.get("registered_name"), custom_objects) if isinstance(config, dict) else None
    cls = cls or find(name, custom_objects, classes)
    if cls is None:
        raise ValueError(
            f"Unknown optimizer class {name!r}; known: {sorted(classes)}. Pass your own classes "
            "with custom_objects={'Name': Class}, or register them with "
            "@hl.saving.register_keras_serializable()."
        )
    return cls.from_config(config.get("config", {}), custom_objects=custom_objects)


__all__ = [
    "Adadelta",
    "Adafactor",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "Ftrl",
    "Lamb",
    "Lion",
    "LossScaleOptimizer",
    "MultiOptimizer",
    "Muon",
    "Nadam",
    "Optimizer",
    "OptimizerMap",
    "RMSprop",
    "SGD",
    "ScheduleFreeAdamW",
    "deserialize",
    "get",
    "legacy",
    "schedules",
    "serialize",
]
