"""Finding activations by name and naming them back (``keras.activations.get``, ``serialize``,
``deserialize``).

>>> get("swish") is silu
True
>>> serialize(get("relu"))
'relu'
>>> get(None) is linear
True
"""

import inspect

from .gated import gelu, glu, hard_silu, mish, silu
from .probabilities import log_softmax, softmax, sparsemax
from .rectifiers import celu, elu, leaky_relu, relu, relu6, selu
from .shrinkage import hard_shrink, soft_shrink, sparse_plus, sparse_sigmoid, squareplus, tanh_shrink, threshold
from .squashing import exponential, hard_sigmoid, hard_tanh, linear, log_sigmoid, sigmoid, softplus, softsign, tanh

_FUNCTIONS = (
    relu,
    relu6,
    leaky_relu,
    elu,
    selu,
    celu,
    silu,
    gelu,
    hard_silu,
    mish,
    glu,
    sigmoid,
    hard_sigmoid,
    log_sigmoid,
    tanh,
    hard_tanh,
    softplus,
    softsign,
    exponential,
    linear,
    softmax,
    log_softmax,
    sparsemax,
    soft_shrink,
    hard_shrink,
    tanh_shrink,
    threshold,
    sparse_plus,
    sparse_sigmoid,
    squareplus,
)

#: Every name ``get`` and ``deserialize`` accept: the functions' names plus Keras' aliases.
ALL_OBJECTS = {fn.__name__: fn for fn in _FUNCTIONS}
ALL_OBJECTS.update({"swish": silu, "hard_swish": hard_silu})

# The canonical name of each built-in function (an alias serializes as the function it names).
_NAMES = {id(fn): fn.__name__ for fn in _FUNCTIONS}


def _lookup(name, custom_objects):
    from highlevel.saving.object_registry import find

    found = find(name, custom_objects, ALL_OBJECTS)
    if found is not None:
        return found
    raise ValueError(
        f"Unknown activation {name!r}. Valid names: {', '.join(sorted(ALL_OBJECTS))}. For your own "
        "function, pass the function itself (or custom_objects={name: fn} to deserialize)."
    )


def serialize(activation):
    """Returns the serializable form of an activation function, as saved in a layer's config.

    A built-in activation gives its name (``swish`` gives ``"silu"``, its canonical name). Your own named function
    gives ``{"module", "class_name": "function", "config": <its registered or own name>, ...}``; loading finds it
    when it is registered with ``hl.saving.register_keras_serializable`` or passed in ``custom_objects``. An object
    with ``get_config`` (a layer used as an activation) gives its config.

    Args:
        activation: the activation function or object.

    Returns:
        A str (a built-in's name) or a dict.

    Raises:
        ValueError: a lambda or another callable without a name.

    >>> import highlevel as hl
    >>> hl.activations.serialize(hl.activations.relu), hl.activations.serialize(hl.activations.swish)
    ('relu', 'silu')
    """
    name = _NAMES.get(id(activation))
    if name is not None:
        return name
    from highlevel.saving.object_registry import function_name

    if inspect.isfunction(activation) and activation.__name__ != "<lambda>":
        return {
            "module": activation.__module__,
            "class_name": "function",
            "config": function_name(activation),
            "registered_name": "function",
        }
    if callable(getattr(activation, "get_config", None)):
        from highlevel.saving.serialization_lib import serialize_keras_object

        return serialize_keras_object(activation)
    raise ValueError(
        f"Cannot serialize the activation {activation!r}: it has no name to find it by when loading. Use a "
        f"built-in ({', '.join(sorted(ALL_OBJECTS))}) or a named function, registered with "
        "@hl.saving.register_keras_serializable() (or passed in custom_objects when loading)."
    )


def deserialize(config, custom_objects=None):
    """Returns the activation function that a serialized form names (the inverse of :func:`serialize`).

    Args:
        config: a name (``"relu"``), or a Keras-style dict whose ``"config"`` is the name
            (``{"class_name": "function", "config": "relu", ...}``).
        custom_objects: an optional ``{name: function}`` dict for your own activations.

    Returns:
        The activation function.

    Raises:
        ValueError: ``config`` is not a name or such a dict, or names no known activation.

    >>> import highlevel as hl
    >>> hl.activations.deserialize("relu") is hl.activations.relu
    True
    >>> double = lambda x: 2 * x
    >>> hl.activations.deserialize("double", custom_objects={"double": double}) is double
    True
    """
    if isinstance(config, dict) and isinstance(config.get("config"), str):
        config = config["config"]
    elif isinstance(config, dict) and isinstance(config.get("config"), dict):
        from highlevel.saving.serialization_lib import deserialize_keras_object

        return deserialize_keras_object(config, custom_objects=custom_objects)
    if not isinstance(config, str):
        raise ValueError(f"activations.deserialize expects an activation name; received {config!r}.")
    return _lookup(config, custom_objects)


def get(identifier):
    """Returns the activation function an identifier names.

    Layers call it on their ``activation`` argument, so every form below works there too.

    Args:
        identifier: None (the identity, ``linear``); a name such as ``"relu"`` or ``"swish"``; a Keras-style
            dict ``{"class_name": "function", "config": "<name>", ...}``; or a callable, returned as it is.

    Returns:
        The activation function (a callable of one tensor).

    Raises:
        ValueError: an unknown name (the message lists the valid ones), or an identifier that is neither a
            name, a dict nor a callable.

    >>> import highlevel as hl
    >>> hl.activations.get("relu") is hl.activations.relu, hl.activations.get(None).__name__
    (True, 'linear')
    >>> hl.activations.get("swish").__name__
    'silu'
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
