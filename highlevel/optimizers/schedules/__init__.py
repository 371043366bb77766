"""``highlevel.optimizers.schedules``: learning rates that change with the training step.

Each schedule is a serializable function of the step written with ``highlevel.ops``, so it is traced into
compiled training steps.

>>> import highlevel as hl
>>> s = hl.optimizers.schedules.ExponentialDecay(0.1, decay_steps=100, decay_rate=0.5)
>>> t = hl.optimizers.schedules.deserialize(hl.optimizers.schedules.serialize(s))
>>> type(t).__name__, t.get_config() == s.get_config()
('ExponentialDecay', True)
"""

from .cosine_decay import CosineDecay
from .cosine_decay_restarts import CosineDecayRestarts
from .exponential_decay import ExponentialDecay
from .inverse_time_decay import InverseTimeDecay
from .learning_rate_schedule import LearningRateSchedule
from .piecewise_constant_decay import PiecewiseConstantDecay
from .polynomial_decay import PolynomialDecay

#: The schedules that ``deserialize`` knows by class name (plus direct user subclasses, and custom_objects).
ALL_SCHEDULES = {
    cls.__name__: cls
    for cls in (
        CosineDecay,
        CosineDecayRestarts,
        ExponentialDecay,
        InverseTimeDecay,
        PiecewiseConstantDecay,
        PolynomialDecay,
    )
}


def _all():
    classes = {c.__name__: c for c in LearningRateSchedule.__subclasses__()}
    classes.update(ALL_SCHEDULES)
    return classes


def serialize(learning_rate_schedule):
    """``{"class_name": ..., "config": {...}}`` of a schedule.

    Args:
        learning_rate_schedule: the LearningRateSchedule to describe.

    Returns:
        A dict ``{"class_name": ..., "config": {...}}`` of plain Python values.

    Raises:
        TypeError: if ``learning_rate_schedule`` is not a LearningRateSchedule.

    >>> import highlevel as hl
    >>> config = hl.optimizers.schedules.serialize(hl.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5))
    >>> config["class_name"], config["config"]["decay_rate"]
    ('ExponentialDecay', 0.5)
    """
    schedule = learning_rate_schedule
    if not isinstance(schedule, LearningRateSchedule):
        raise TypeError(f"serialize() expects a LearningRateSchedule; received {schedule!r}.")
    from highlevel.saving.object_registry import describe

    return describe(schedule, {"class_name": type(schedule).__name__, "config": schedule.get_config()})


def deserialize(config, custom_objects=None):
    """Rebuilds a schedule from :func:`serialize`'s output (only highlevel's schedules and ``custom_objects``).

    Args:
        config: a dict from :func:`serialize`.
        custom_objects: optional ``{"ClassName": class}`` dict for your own schedule classes.

    Returns:
        A new LearningRateSchedule.

    Raises:
        ValueError: if the class is neither a highlevel schedule, a registered class nor in ``custom_objects``.

    >>> import highlevel as hl
    >>> decay = {"initial_learning_rate": 0.1, "decay_steps": 10, "decay_rate": 0.5}
    >>> config = {"class_name": "ExponentialDecay", "config": decay}
    >>> round(float(hl.optimizers.schedules.deserialize(config)(10)), 4)
    0.05
    """
    from highlevel.saving.object_registry import find

    classes = _all()
    name = config.get("class_name") if isinstance(config, dict) else None
    cls = find(config.get("registered_name"), custom_objects) if isinstance(config, dict) else None
    cls = cls or find(name, custom_objects, classes)
    if cls is None:
        raise ValueError(
            f"Unknown learning-rate schedule {name!r}; known: {sorted(classes)}. Pass your own "
            "classes with custom_objects={'Name': Class}, or register them with "
            "@hl.saving.register_keras_serializable()."
        )
    return cls.from_config(config.get("config", {}))


__all__ = [
    "CosineDecay",
    "CosineDecayRestarts",
    "ExponentialDecay",
    "InverseTimeDecay",
    "LearningRateSchedule",
    "PiecewiseConstantDecay",
    "PolynomialDecay",
    "deserialize",
    "serialize",
]
