"""``get_source_inputs``: the model inputs a symbolic tensor is computed from.

>>> import highlevel as hl
>>> a, b = hl.Input((2,), name="a"), hl.Input((2,), name="b")
>>> y = hl.layers.Dense(1)(hl.layers.Add()([a, b]))
>>> [t.name for t in get_source_inputs(y)]
['a', 'b']
"""


def get_source_inputs(tensor):
    """Walks a symbolic tensor's graph back to the inputs it depends on.

    Args:
        tensor: a KerasTensor (from ``hl.Input`` or a layer called on one).

    Returns:
        The list of input KerasTensors ``tensor`` is computed from, each once, in the order they are first
        reached; ``[tensor]`` for an input itself or a tensor with no recorded history. Anything that is not
        a KerasTensor is returned unchanged, as Keras does.

    >>> import highlevel as hl
    >>> inputs = hl.Input((3,), name="features")
    >>> outputs = hl.layers.Dense(2)(hl.layers.Dense(4)(inputs))
    >>> hl.utils.get_source_inputs(outputs)[0] is inputs
    True
    """
    from highlevel.keras_tensor import KerasTensor
    from highlevel.models.input_layer import InputLayer

    if not isinstance(tensor, KerasTensor):
        return tensor
    sources, seen_tensors, seen_nodes = [], set(), set()
    stack = [tensor]
    while stack:
        current = stack.pop()
        history = current._history
        if history is None or isinstance(history[0].operation, InputLayer):
            if id(current) not in seen_tensors:
                seen_tensors.add(id(current))
                sources.append(current)
            continue
        node = history[0]
        if id(node) in seen_nodes:
            continue
        seen_nodes.add(id(node))
        stack.extend(reversed(node.input_tensors))
    return sources
