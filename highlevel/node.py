"""Graph nodes: one recorded call of a layer or an op on symbolic tensors.

A functional model is the set of nodes between its inputs and outputs; calling it replays them in
topological order on real tensors.
"""

from highlevel.backends.contract import tree

from .keras_tensor import KerasTensor


class OpCall:
    """The operation of a node made by an ``hl.ops`` function called on symbolic tensors.

    ``name`` is the function's name in ``hl.ops``, or a dotted name for one that lives only in a namespace
    (``"image.elastic_transform"``).
    """

    def __init__(self, name, fn=None):
        self.name = name
        self.fn = fn  # the function to call instead of hl.ops.<name> (one made by hl.ops.custom_gradient)

    def __call__(self, *args, **kwargs):
        if self.fn is not None:
            return self.fn(*args, **kwargs)
        from highlevel import ops

        fn = ops
        for part in self.name.split("."):
            fn = getattr(fn, part)
        return fn(*args, **kwargs)

    def __repr__(self):
        return f"<op {self.name}>"


class Node:
    """One call of ``operation`` (a Layer or an :class:`OpCall`) on symbolic arguments.

    Args:
        operation: what was called.
        call_args, call_kwargs: the arguments, KerasTensors included, as passed.
        outputs: the output structure of KerasTensors; each gets this node as its history.
    """

    def __init__(self, operation, call_args, call_kwargs, outputs):
        self.operation = operation
        self.call_args = call_args
        self.call_kwargs = call_kwargs
        self.outputs = outputs
        leaves, _ = tree.flatten((call_args, call_kwargs))
        self.input_tensors = [x for x in leaves if isinstance(x, KerasTensor)]
        self.output_tensors = [x for x in tree.flatten(outputs)[0] if isinstance(x, KerasTensor)]
        for i, t in enumerate(self.output_tensors):
            t._history = (self, i)
        inbound = getattr(operation, "_inbound_nodes", None)
        if inbound is not None:
            inbound.append(self)

    @property
    def parent_nodes(self):
        return [t._history[0] for t in self.input_tensors if t._history is not None]

    def replay(self, values):
        """Runs the operation with every KerasTensor replaced by ``values[id(tensor)]``."""

        def resolve(x):
            return values[id(x)] if isinstance(x, KerasTensor) else x

        args = tree.map_structure(resolve, self.call_args)
        kwargs = tree.map_structure(resolve, self.call_kwargs)
        return self.operation(*args, **kwargs)
