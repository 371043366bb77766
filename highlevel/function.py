"""``hl.Function``: the graph between symbolic inputs and outputs, callable on real tensors (no weights of its
own to train, no ``fit``: a functional model without the model).

>>> import numpy as np, highlevel as hl
>>> x = hl.Input((3,))
>>> double_relu = hl.Function(x, hl.ops.relu(x) * 2)
>>> hl.ops.convert_to_numpy(double_relu(np.array([[-1.0, 1.0, 2.0]], "float32")))
array([[0., 2., 4.]], dtype=float32)
"""


class Function:
    """A callable graph (``keras.Function``): calling it replays the layers and ops recorded between
    ``inputs`` and ``outputs`` on the given tensors.

    Args:
        inputs: symbolic tensors from ``hl.Input`` (one, a list or a dict).
        outputs: symbolic tensors computed from them (one, a list or a dict).
        name: a name for the function.

    Raises:
        ValueError: an output that does not depend on the inputs only.

    >>> import highlevel as hl
    >>> x = hl.Input((2,))
    >>> f = hl.Function(x, hl.ops.sum(x * 2.0, axis=-1))
    >>> hl.ops.convert_to_numpy(f(hl.ops.convert_to_tensor([[1.0, 2.0]]))).tolist()
    [6.0]
    """

    def __init__(self, inputs, outputs, name=None):
        from highlevel.models import Functional

        self._graph = Functional(inputs, outputs, name=name)
        self.name = self._graph.name

    @property
    def inputs(self):
        """The symbolic inputs, in the structure given."""
        return self._graph.inputs

    @property
    def outputs(self):
        """The symbolic outputs, in the structure given."""
        return self._graph.outputs

    @property
    def operations(self):
        """The layers and ops of the graph in the order they run (the input layers first)."""
        return [node.operation for node in self._graph._nodes]

    def __call__(self, inputs):
        return self._graph(inputs)

    def __repr__(self):
        return f"<Function name={self.name}>"
