"""Finding initializers by name, and turning them into configs and back (``keras.initializers.get``,
``serialize``, ``deserialize``).

>>> init = get("he_normal")
>>> type(init).__name__
'HeNormal'
>>> serialize(get({"class_name": "RandomUniform", "config": {"minval": -1.0, "maxval": 1.0, "seed": 4}}))
{'class_name': 'RandomUniform', 'config': {'minval': -1.0, 'maxval': 1.0, 'seed': 4}}
"""

import numpy as np

from highlevel import ops
from highlevel.backends.contract import Variable, dtypes

from ..catalog import Catalog
from .constant_initializers import Constant, Identity, Ones, Zeros
from .host_values import standardize_shape
from .initializer import Initializer
from .orthogonal import Orthogonal
from .random_initializers import RandomNormal, RandomUniform, TruncatedNormal
from .stft import STFT
from .variance_scaling import (
    GlorotNormal,
    GlorotUniform,
    HeNormal,
    HeUniform,
    LecunNormal,
    LecunUniform,
    VarianceScaling,
)

_CLASSES = (
    Initializer,
    Zeros,
    Ones,
    Constant,
    Identity,
    RandomNormal,
    RandomUniform,
    TruncatedNormal,
    VarianceScaling,
    GlorotUniform,
    GlorotNormal,
    HeUniform,
    HeNormal,
    LecunUniform,
    LecunNormal,
    Orthogonal,
    STFT,
)

#: Every name ``get`` and ``deserialize`` accept: class names, their snake_case spellings and the
#: extra aliases Keras keeps for compatibility.
ALL_OBJECTS = {cls.__name__: cls for cls in _CLASSES}
ALL_OBJECTS.update(
    {
        "initializer": Initializer,
        "zeros": Zeros,
        "ones": Ones,
        "constant": Constant,
        "identity": Identity,
        "random_normal": RandomNormal,
        "random_uniform": RandomUniform,
        "truncated_normal": TruncatedNormal,
        "variance_scaling": VarianceScaling,
        "glorot_uniform": GlorotUniform,
        "glorot_normal": GlorotNormal,
        "he_uniform": HeUniform,
        "he_normal": HeNormal,
        "lecun_uniform": LecunUniform,
        "lecun_normal": LecunNormal,
        "orthogonal": Orthogonal,
        "IdentityInitializer": Identity,
        "OrthogonalInitializer": Orthogonal,
        "STFTInitializer": STFT,
        "stft": STFT,
        "normal": RandomNormal,
        "uniform": RandomUniform,
        "one": Ones,
        "zero": Zeros,
    }
)


_CATALOG = Catalog(
    "initializer", Initializer, ALL_OBJECTS, example="'glorot_uniform'", callable_hint="(shape, dtype) -> tensor"
)


def serialize(initializer):
    """``{"class_name": ..., "config": {...}}`` describing the initializer (None stays None).

    Args:
        initializer: an Initializer instance, or None.

    Returns:
        A dict of plain Python values (None for None).

    Raises:
        TypeError: if ``initializer`` is not an Initializer instance.

    >>> import highlevel as hl
    >>> hl.initializers.serialize(hl.initializers.Constant(2.0))
    {'class_name': 'Constant', 'config': {'value': 2.0}}
    """
    return _CATALOG.serialize(initializer)


#: The initializer described by a :func:`serialize` dict or a name; ``custom_objects`` adds your own classes.
deserialize = _CATALOG.deserialize


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

    Returns:
        An initializer (an Initializer instance or a callable), or None for None.

    Raises:
        ValueError: for an unknown name (the message lists the valid ones) or an unusable identifier.

    >>> import highlevel as hl
    >>> type(hl.initializers.get("he_normal")).__name__
    'HeNormal'
    >>> hl.ops.convert_to_numpy(hl.initializers.get("ones")((2,))).tolist()
    [1.0, 1.0]
    """
    if isinstance(identifier, (np.ndarray, np.generic, Variable)) or ops.is_tensor(identifier):
        return _from_value(identifier)
    return _CATALOG.get(identifier)
