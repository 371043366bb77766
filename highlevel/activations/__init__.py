"""``highlevel.activations``: activation functions by name (``keras.activations``), built on
``highlevel.ops``.

>>> import highlevel as hl
>>> from highlevel import activations
>>> f = activations.get("relu")
>>> hl.ops.convert_to_numpy(f(hl.ops.convert_to_tensor([-1.0, 2.0]))).tolist()
[0.0, 2.0]
>>> activations.serialize(activations.swish)
'silu'
"""

from .gated import gelu, glu, hard_silu, hard_swish, mish, silu, swish
from .probabilities import log_softmax, softmax, sparsemax
from .rectifiers import celu, elu, leaky_relu, relu, relu6, selu
from .serialization import ALL_OBJECTS, deserialize, get, serialize
from .shrinkage import hard_shrink, soft_shrink, sparse_plus, sparse_sigmoid, squareplus, tanh_shrink, threshold
from .squashing import exponential, hard_sigmoid, hard_tanh, linear, log_sigmoid, sigmoid, softplus, softsign, tanh

__all__ = [
    "ALL_OBJECTS",
    "celu",
    "deserialize",
    "elu",
    "exponential",
    "gelu",
    "get",
    "glu",
    "hard_shrink",
    "hard_sigmoid",
    "hard_silu",
    "hard_swish",
    "hard_tanh",
    "leaky_relu",
    "linear",
    "log_sigmoid",
    "log_softmax",
    "mish",
    "relu",
    "relu6",
    "selu",
    "serialize",
    "sigmoid",
    "silu",
    "soft_shrink",
    "softmax",
    "softplus",
    "softsign",
    "sparse_plus",
    "sparse_sigmoid",
    "sparsemax",
    "squareplus",
    "swish",
    "tanh",
    "tanh_shrink",
    "threshold",
]
