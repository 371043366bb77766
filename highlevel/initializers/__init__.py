"""``highlevel.initializers``: the initial values of weights (``keras.initializers``).

Every random initializer draws on the host (numpy Philox, float64, rounded once to the target dtype),
never on a backend generator: the same seed gives bitwise-identical weights on every backend.
``seed=None`` draws from the global host stream, which ``hl.utils.set_random_seed`` resets.

>>> import highlevel as hl
>>> from highlevel import initializers
>>> init = initializers.get("glorot_uniform")
>>> w = init((3, 4), "float32")
>>> hl.ops.shape(w), hl.ops.dtype(w)
((3, 4), 'float32')
>>> a = initializers.HeNormal(seed=1)((2, 2))
>>> with hl.config.backend_scope("native"):
...     b = initializers.HeNormal(seed=1)((2, 2))
>>> bool((hl.ops.convert_to_numpy(a) == hl.ops.convert_to_numpy(b)).all())
True
>>> initializers.serialize(initializers.Constant(2.0))
{'class_name': 'Constant', 'config': {'value': 2.0}}
"""

from .constant_initializers import Constant, Identity, Ones, Zeros
from .initializer import Initializer
from .orthogonal import Orthogonal
from .random_initializers import RandomInitializer, RandomNormal, RandomUniform, TruncatedNormal
from .serialization import ALL_OBJECTS, deserialize, get, serialize
from .stft import STFT
from .variance_scaling import (
    GlorotNormal,
    GlorotUniform,
    HeNormal,
    HeUniform,
    LecunNormal,
    LecunUniform,
    VarianceScaling,
    compute_fans,
)

# Keras' alias spellings: the lowercase names are the classes themselves (keras.initializers.zeros is Zeros).
IdentityInitializer = Identity
OrthogonalInitializer = Orthogonal
zeros = Zeros
ones = Ones
constant = Constant
identity = Identity
random_normal = RandomNormal
random_uniform = RandomUniform
truncated_normal = TruncatedNormal
variance_scaling = VarianceScaling
glorot_uniform = GlorotUniform
glorot_normal = GlorotNormal
he_uniform = HeUniform
he_normal = HeNormal
lecun_uniform = LecunUniform
lecun_normal = LecunNormal
orthogonal = Orthogonal
STFTInitializer = STFT
stft = STFT

__all__ = [
    "ALL_OBJECTS",
    "Constant",
    "GlorotNormal",
    "GlorotUniform",
    "HeNormal",
    "HeUniform",
    "Identity",
    "IdentityInitializer",
    "Initializer",
    "LecunNormal",
    "LecunUniform",
    "Ones",
    "Orthogonal",
    "OrthogonalInitializer",
    "RandomInitializer",
    "RandomNormal",
    "RandomUniform",
    "STFT",
    "STFTInitializer",
    "TruncatedNormal",
    "VarianceScaling",
    "Zeros",
    "compute_fans",
    "constant",
    "deserialize",
    "get",
    "glorot_normal",
    "glorot_uniform",
    "he_normal",
    "he_uniform",
    "identity",
    "lecun_normal",
    "lecun_uniform",
    "ones",
    "orthogonal",
    "random_normal",
    "random_uniform",
    "serialize",
    "stft",
    "truncated_normal",
    "variance_scaling",
    "zeros",
]
