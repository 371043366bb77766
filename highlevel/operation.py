"""``hl.Operation``: a computation on tensors that also works on symbolic tensors, as a node of a functional graph.

Subclass it and define ``call``; on symbolic tensors (``hl.Input``) the output's shape and dtype come from
``compute_output_spec``, which by default runs ``call`` once on placeholder arrays. Unlike a layer, an operation
holds no weights.

>>> import numpy as np, highlevel as hl
>>> class Clip01(hl.Operation):
...     def call(self, x):
...         return hl.ops.clip(x, 0.0, 1.0)
>>> hl.ops.convert_to_numpy(Clip01()(np.array([-1.0, 0.5, 2.0])))
array([0. , 0.5, 1. ])
>>> Clip01()(hl.Input((3,))).shape
(None, 3)
"""

from highlevel.backends.contract import tree

from . import naming
from .keras_tensor import KerasTensor, any_symbolic


class Operation:
    """The base class of user-defined operations (``keras.Operation``): a computation without weights.

    A subclass defines ``call`` (the computation on real tensors, with ``highlevel.ops``). Called on real tensors
    it runs ``call``; called on symbolic tensors it returns symbolic outputs (by default found by running ``call``
    once on placeholder values; override ``compute_output_spec`` when that cannot work) and records a node of a
    functional model.

    Args:
        name: the operation's name in graphs (default: its class name in snake case, made unique).

    Raises:
        TypeError: other constructor arguments are passed on to ``Operation.__init__`` (keep them in the
            subclass).

    >>> import highlevel as hl
    >>> class AddOne(hl.Operation):
    ...     def call(self, x):
    ...         return x + 1.0
    >>> hl.ops.convert_to_numpy(AddOne()(hl.ops.zeros((2,)))).tolist()
    [1.0, 1.0]
    >>> AddOne()(hl.Input((4,))).shape
    (None, 4)
    """

    def __init__(self, *args, name=None, **kwargs):
        if args or kwargs:
            raise TypeError(
                f"{type(self).__name__}: Operation.__init__ takes only name=...; received "
                f"{args!r} {sorted(kwargs)}. Keep your own arguments in your subclass's __init__."
            )
        self.name = name or naming.unique_name(naming.to_snake_case(type(self).__name__))
        self._inbound_nodes = []

    def call(self, *args, **kwargs):
        """The computation on real tensors; subclasses define it."""
        raise NotImplementedError(f"{type(self).__name__} must define call(...).")

    def compute_output_spec(self, *args, **kwargs):
        """The output as symbolic tensors (shape and dtype) for symbolic inputs: by default ``call`` run once on
        zero-filled arrays of the inputs' shapes. Override it for a ``call`` that cannot run on placeholders."""
        from highlevel.config import backend_scope, current_backend
        from highlevel.symbolic_exec import spec_of_function

        current = current_backend()

        def run(*a, **k):
            with backend_scope("native"):
                return self.call(*a, **k)

        return spec_of_function(run, args, kwargs, current)

    def __call__(self, *args, **kwargs):
        if not hasattr(self, "_inbound_nodes"):
            raise RuntimeError(f"{type(self).__name__}.__init__ must call super().__init__().")
        if any_symbolic(args, kwargs):
            from .node import Node

            outputs = self.compute_output_spec(*args, **kwargs)
            if not all(isinstance(t, KerasTensor) for t in tree.flatten(outputs)[0]):
                raise TypeError(
                    f"{type(self).__name__}.compute_output_spec must return KerasTensors; received {outputs!r}."
                )
            Node(self, args, kwargs, outputs)
            return outputs
        return self.call(*args, **kwargs)

    def get_config(self):
        """The constructor's arguments (only ``name`` for the base class)."""
        return {"name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"
