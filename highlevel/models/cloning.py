"""``hl.models.clone_model``: the same architecture with new layers (and so new weights).

A Sequential model gets each of its layers cloned in order; a functional model has its graph called again,
layer by layer, on new inputs; any other model is rebuilt from its config. ``clone_function`` chooses how a
layer is cloned (the default rebuilds it from its config: same settings, fresh weights; ``lambda layer: layer``
shares it), ``call_function`` how a cloned layer is called in a functional graph (to insert layers around it).

>>> import highlevel as hl
>>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, name="d")])
>>> twin = hl.models.clone_model(model)
>>> twin.layers[0] is model.layers[0], twin.layers[0].get_config() == model.layers[0].get_config()
(False, True)
"""

from highlevel.backends.contract import tree
from highlevel.backends.contract.interop import front_class

from ..keras_tensor import KerasTensor
from ..layer import Layer
from .functional import Functional
from .input_layer import Input, InputLayer
from .sequential import Sequential


def _default_clone(layer):
    return type(layer).from_config(layer.get_config())


def _clone_function(clone_function, call_function, recursive, cache):
    clone_function = _default_clone if clone_function is None else clone_function
    if not callable(clone_function):
        raise ValueError(f"clone_function must be a callable layer -> layer; received {clone_function!r}.")

    def clone(layer):
        if id(layer) in cache:  # a layer used twice (shared) is cloned once
            return cache[id(layer)]
        if recursive and isinstance(layer, (Sequential, Functional)):
            new = clone_model(
                layer,
                clone_function=clone_function,
                call_function=None if isinstance(layer, Sequential) else call_function,
                recursive=True,
                cache=cache,
            )
        else:
            new = clone_function(layer)
        cache[id(layer)] = new
        return new

    return clone


def _new_input_like(tensor):
    layer = tensor._history[0].operation if tensor._history else None
    name = layer.name if isinstance(layer, InputLayer) else None
    return Input(batch_shape=tensor.shape, dtype=tensor.dtype, name=name)


def _as_graph_input(tensor):
    if not isinstance(tensor, KerasTensor):
        raise ValueError(
            f"input_tensors must hold symbolic tensors (from hl.Input); received {type(tensor).__name__}: {tensor!r}."
        )
    if tensor._history is None:
        return Input(tensor=tensor)
    if isinstance(tensor._history[0].operation, InputLayer):
        return tensor
    raise ValueError(
        f"input_tensors must be model inputs (from hl.Input); {tensor.name} is the output of "
        f"'{tensor._history[0].operation.name}'. Start the clone from hl.Input tensors."
    )


def _clone_sequential(model, clone, input_tensors):
    layers = [clone(layer) for layer in model.layers]
    first = model._stack[0] if model._stack else None
    if input_tensors is not None:
        if isinstance(input_tensors, (list, tuple)):
            if len(input_tensors) != 1:
                raise ValueError(
                    f"A Sequential model has one input: input_tensors must hold one tensor; received "
                    f"{len(input_tensors)}."
                )
            input_tensors = input_tensors[0]
        layers = [_as_graph_input(input_tensors)] + layers
    elif isinstance(first, InputLayer):
        layers = [Input(batch_shape=first.batch_shape, dtype=first.dtype, name=first.name)] + layers
    return Sequential(layers, trainable=model.trainable, name=model.name)


def _clone_functional(model, clone, call_function, input_tensors):
    if input_tensors is None:
        inputs = tree.map_structure(_new_input_like, model._inputs_struct)
    else:
        if isinstance(input_tensors, tuple):
            input_tensors = list(input_tensors)
        structure = model._inputs_struct
        if isinstance(input_tensors, KerasTensor) and isinstance(structure, list) and len(structure) == 1:
            input_tensors = [input_tensors]
        if tree.flatten(input_tensors)[1] != tree.flatten(structure)[1]:
            raise ValueError(
                f"input_tensors must have the structure of the model's inputs ({structure!r}); "
                f"received {input_tensors!r}."
            )
        inputs = tree.map_structure(_as_graph_input, input_tensors)
    values = {id(old): new for old, new in zip(model._flat_inputs, tree.flatten(inputs)[0])}

    def resolve(x):
        return values[id(x)] if isinstance(x, KerasTensor) else x

    for node in model._nodes:
        op = node.operation
        if isinstance(op, InputLayer):
            continue
        args = tree.map_structure(resolve, node.call_args)
        kwargs = tree.map_structure(resolve, node.call_kwargs)
        if isinstance(op, Layer):
            new = clone(op)
            outs = call_function(new, *args, **kwargs) if call_function is not None else new(*args, **kwargs)
        else:
            outs = op(*args, **kwargs)
        new_leaves = [t for t in tree.flatten(outs)[0] if isinstance(t, KerasTensor)]
        if len(new_leaves) != len(node.output_tensors):
            raise ValueError(
                f"Cloning '{getattr(op, 'name', op)}': its clone (or call_function) returned "
                f"{len(new_leaves)} tensors where the original returned {len(node.output_tensors)}."
            )
        for old, new_tensor in zip(node.output_tensors, new_leaves):
            values[id(old)] = new_tensor
    outputs = tree.map_structure(resolve, model._outputs_struct)
    cls = type(model) if isinstance(model, Functional) else Functional
    return cls(inputs, outputs, name=model.name, trainable=model.trainable)


def clone_model(model, input_tensors=None, clone_function=None, call_function=None, recursive=False, **kwargs):
    """A new model of the same architecture, with new layers (so new, freshly initialized weights).

    Args:
        model: a Sequential, functional or subclassed model.
        input_tensors: symbolic inputs (``hl.Input``) to build the clone on, in the structure of the model's
            inputs (Sequential and functional models only).
        clone_function: ``layer -> layer``, how each layer is cloned (default: rebuilt from its config;
            Sequential and functional models only).
        call_function: ``(layer, *args, **kwargs) -> outputs``, how each cloned layer is called (functional
            models only), e.g. to add a layer after some of them.
        recursive: clone the Sequential and functional models nested in ``model`` with ``clone_model`` (the same
            arguments) rather than with ``clone_function``.

    Returns:
        The new model (not compiled).

    Raises:
        ValueError: arguments that do not apply to the kind of model, or inputs that do not match.

    Example:

    >>> import highlevel as hl
    >>> x = hl.Input((4,))
    >>> model = hl.Model(x, hl.layers.Dense(2)(hl.layers.Dense(3)(x)))
    >>> def add_dropout(layer, *args, **kwargs):
    ...     out = layer(*args, **kwargs)
    ...     return hl.layers.Dropout(0.5)(out) if isinstance(layer, hl.layers.Dense) else out
    >>> clone = hl.models.clone_model(model, clone_function=lambda layer: layer, call_function=add_dropout)
    >>> [type(layer).__name__ for layer in clone.layers]
    ['InputLayer', 'Dense', 'Dropout', 'Dense', 'Dropout']
    """
    cache = kwargs.pop("cache", None)
    if kwargs:
        raise ValueError(f"clone_model got unexpected keyword arguments {sorted(kwargs)}.")
    cache = {} if cache is None else cache
    if isinstance(model, Sequential):
        if call_function is not None:
            raise ValueError(
                "clone_model: call_function applies to functional models only; a Sequential model's "
                "layers are listed, not called at construction. Received a Sequential model."
            )
        return _clone_sequential(model, _clone_function(clone_function, None, recursive, cache), input_tensors)
    if isinstance(model, Functional):
        clone = _clone_function(clone_function, call_function, recursive, cache)
        return _clone_functional(model, clone, call_function, input_tensors)
    if clone_function is not None or input_tensors is not None or call_function is not None:
        raise ValueError(
            f"clone_model: clone_function, input_tensors and call_function apply to Sequential and functional "
            f"models; {type(model).__name__} is a subclassed model, rebuilt from its config. Received "
            f"clone_function={clone_function!r}, input_tensors={input_tensors!r}, call_function={call_function!r}."
        )
    if not isinstance(model, Layer):
        raise ValueError(f"clone_model expects a model; received {type(model).__name__}: {model!r}.")
    from highlevel.saving.serialization_lib import deserialize_keras_object, serialize_keras_object

    cls = front_class(type(model))
    return deserialize_keras_object(serialize_keras_object(model), custom_objects={cls.__name__: cls})
