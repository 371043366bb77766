"""Finding activations by name and naming them back (``keras.activations.get``, ``serialize``,
``deserialize``).

>>> get("swish") is silu
True
>>> serialize(get("relu"))
'relu'
>>> get(None) is linear
True
"""

from .gated import gelu, glu, hard_silu, mish, silu
from .probabilities import log_softmax, softmax, sparsemax
from .rectifiers import celu, elu, leaky_relu, relu, relu6, selu
from .shrinkage import hard_shrink, soft_shrink, sparse_plus, sparse_sigmoid, squareplus, tanh_shrink, threshold
from .squashing import exponential, hard_sigmoid, hard_tanh, linear, log_sigmoid, sigmoid, softplus, softsign, tanh

_FUNCTIONS = (relu, relu6, leaky_relu, elu, selu, celu, silu, gelu, hard_silu, mish, glu, sigmoid, hard_sigmoid,
              log_sigmoid, tanh, hard_tanh, softplus, softsign, exponential, linear, softmax, log_softmax,
              sparsemax, soft_shrink, hard_shrink, tanh_shrink, threshold, sparse_plus, sparse_sigmoid,
              squareplus)

#: Every name ``get`` and ``deserialize`` accept: the functions' names plus Keras' aliases.
ALL_OBJECTS = {fn.__name__: fn for fn in _FUNCTIONS}
ALL_OBJECTS.update({"swish": silu, "hard_swish": hard_silu})

# The canonical name of each built-in function (an alias serializes as the function it names).
_NAMES = {id(fn): fn.__name__ for fn in _FUNCTIONS}


def _lookup(name, custom_objects):
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if name in ALL_OBJECTS:
        return ALL_OBJECTS[name]
    raise ValueError(
        f"Unknown activation {name!r}. Valid names: {', '.join(sorted(ALL_OBJECTS))}. For your own "
        "function, pass the function itself (or custom_objects={name: fn} to deserialize)."
    )


def serialize(activation):
    """The name of a built-in activation function (``swish`` gives ``'silu'``, its canonical name).

    Raises:
        ValueError: for a function that is not one of ``highlevel.activations``.
    """
    name = _NAMES.get(id(activation))
    if name is None:
        raise ValueError(
            f"Cannot serialize the activation {activation!r}: only the built-in activations of "
            f"highlevel.activations have names ({', '.join(sorted(ALL_OBJECTS))}). Use one of them, or rebuild "
            "the object with custom_objects when loading."
        )
    return name


def deserialize(config, custom_objects=None):
    """The activation function named by ``config``.

    Args:
        config: a name (``"relu"``), or a Keras-style dict whose ``"config"`` is the name
            (``{"class_name": "function", "config": "relu", ...}``).
        custom_objects: an optional ``{name: function}`` dict for your own activations.
    """
    if isinstance(config, dict) and isinstance(config.get("config"), str):
        config = config["config"]
    if not isinstance(config, str):
        raise ValueError(f"activations.deserialize expects an activation name; received {config!r}.")
    return _lookup(config, custom_objects)


def get(identifier):
    """An activation function from None (``linear``), a name (``"relu"``, ``"swish"``, ...), a Keras-style
    dict, or a callable (returned as is).

    Raises:
        ValueError: for an unknown name (the message lists the valid ones) or a non-callable identifier.
    """
    if identifier is None:
        return linear
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(
        f"Could not interpret activation identifier {identifier!r} (type {type(identifier).__name__}). "
        "Pass a name such as 'relu' or a callable."
    )
