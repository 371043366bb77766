"""Finding constraints by name, and turning them into configs and back (``keras.constraints.get``,
``serialize``, ``deserialize``).

>>> get("max_norm")
MaxNorm(max_value=2, axis=0)
>>> serialize(UnitNorm(axis=1))
{'class_name': 'UnitNorm', 'config': {'axis': 1}}
>>> get(None) is None
True
"""

from ..catalog import Catalog
from .constraint import Constraint
from .non_neg import NonNeg
from .norm_constraints import MaxNorm, MinMaxNorm, UnitNorm

#: Every name ``get`` and ``deserialize`` accept: class names and their Keras snake_case spellings.
ALL_OBJECTS = {cls.__name__: cls for cls in (Constraint, MaxNorm, MinMaxNorm, NonNeg, UnitNorm)}
ALL_OBJECTS.update(
    {
        "constraint": Constraint,
        "max_norm": MaxNorm,
        "min_max_norm": MinMaxNorm,
        "non_neg": NonNeg,
        "unit_norm": UnitNorm,
    }
)

_CATALOG = Catalog("constraint", Constraint, ALL_OBJECTS, example="'max_norm'", callable_hint="w -> w'")


def serialize(constraint):
    """``{"class_name": ..., "config": {...}}`` describing the constraint (None stays None).

    Args:
        constraint: a Constraint instance, or None.

    Returns:
        A dict of plain Python values (None for None).

    Raises:
        TypeError: if ``constraint`` is not a Constraint instance.

    >>> import highlevel as hl
    >>> hl.constraints.serialize(hl.constraints.MaxNorm(3.0))
    {'class_name': 'MaxNorm', 'config': {'max_value': 3.0, 'axis': 0}}
    """
    return _CATALOG.serialize(constraint)


#: The constraint described by a :func:`serialize` dict or a name; ``custom_objects`` adds your own classes.
deserialize = _CATALOG.deserialize
#: A constraint from None (None), a name, a config dict, an instance, a class or a callable ``w -> w'``.
get = _CATALOG.get
