"""Finding regularizers by name, and turning them into configs and back (``keras.regularizers.get``,
``serialize``, ``deserialize``).

>>> get("l2")
L2(l2=0.01)
>>> serialize(L1L2(l1=0.1))
{'class_name': 'L1L2', 'config': {'l1': 0.1, 'l2': 0.0}}
>>> get(None) is None
True
"""

from ..catalog import Catalog
from .norm_penalties import L1, L1L2, L2
from .orthogonal_regularizer import OrthogonalRegularizer
from .regularizer import Regularizer

#: Every name ``get`` and ``deserialize`` accept: class names and their Keras snake_case spellings.
ALL_OBJECTS = {cls.__name__: cls for cls in (Regularizer, L1, L2, L1L2, OrthogonalRegularizer)}
ALL_OBJECTS.update(
    {
        "regularizer": Regularizer,
        "l1": L1,
        "l2": L2,
        "l1l2": L1L2,
        "l1_l2": L1L2,
        "orthogonal_regularizer": OrthogonalRegularizer,
    }
)

_CATALOG = Catalog("regularizer", Regularizer, ALL_OBJECTS, example="'l2'", callable_hint="x -> penalty")


def serialize(regularizer):
    """``{"class_name": ..., "config": {...}}`` describing the regularizer (None stays None).

    Args:
        regularizer: a Regularizer instance, or None.

    Returns:
        A dict of plain Python values (None for None).

    Raises:
        TypeError: if ``regularizer`` is not a Regularizer instance.

    >>> import highlevel as hl
    >>> hl.regularizers.serialize(hl.regularizers.L2(0.1))
    {'class_name': 'L2', 'config': {'l2': 0.1}}
    """
    return _CATALOG.serialize(regularizer)


#: The regularizer described by a :func:`serialize` dict or a name; ``custom_objects`` adds your own classes.
deserialize = _CATALOG.deserialize
#: A regularizer from None (None), a name, a config dict, an instance, a class or a callable ``x -> penalty``.
get = _CATALOG.get
