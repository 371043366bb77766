"""Functional models: a graph of layer and op calls between symbolic inputs and outputs, replayed on data.

>>> import highlevel as hl
>>> a = hl.Input((3,), name="a"); b = hl.Input((3,), name="b")
>>> shared = hl.layers.Dense(4, name="shared")
>>> out = hl.layers.Concatenate()([shared(a), shared(b)])
>>> model = hl.Model([a, b], out)
>>> model(([[1.0, 2.0, 3.0]], [[0.0, 1.0, 0.0]])).shape
(1, 8)
"""

from highlevel.backends.contract import Variable, tree
from highlevel.config import current_backend

from ..keras_tensor import KerasTensor
from ..layer import Layer
from .input_layer import InputLayer
from .model import Model


def _flat_tensors(struct, what):
    leaves = tree.flatten(struct)[0]
    for x in leaves:
        if not isinstance(x, KerasTensor):
            raise TypeError(
                f"All model {what} must be symbolic tensors from hl.Input or from layers called on them; "
                f"received {type(x).__name__}: {x!r}."
            )
    return leaves


class Functional(Model):
    """A model defined by ``hl.Model(inputs, outputs)``.

    Args:
        inputs: a KerasTensor from ``hl.Input``, or a list or dict of them.
        outputs: KerasTensors computed from ``inputs``, as one tensor or a list or dict.
        name: the model's name.
    """

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        Layer.__init__(self, name=name, trainable=trainable, **kwargs)
        if isinstance(inputs, tuple):
            inputs = list(inputs)
        if isinstance(outputs, tuple):
            outputs = list(outputs)
        self._inputs_struct = inputs
        self._outputs_struct = outputs
        self._flat_inputs = _flat_tensors(inputs, "inputs")
        self._flat_outputs = _flat_tensors(outputs, "outputs")
        if len({id(t) for t in self._flat_inputs}) != len(self._flat_inputs):
            raise ValueError("The same input tensor appears twice in the model's inputs.")
        self._nodes = self._discover_nodes()
        layers, seen = [], set()
        for node in self._nodes:
            op = node.operation
            if isinstance(op, Layer) and id(op) not in seen:
                seen.add(id(op))
                layers.append(op)
        names = [l.name for l in layers]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(
                f"The name {dupes[0]!r} is used by more than one layer in model '{self.name}'; all layer names "
                f"must be unique. Layer names: {names}. Give each layer its own `name`."
            )
        self._functional_layers = layers
        self.built = True

    def _discover_nodes(self):
        """The nodes between inputs and outputs, in an order where each node follows its parents."""
        input_ids = {id(t) for t in self._flat_inputs}
        order, state = [], {}
        for t in self._flat_inputs:  # input layers first, in input order, as Keras lists them
            node = t._history[0] if t._history else None
            if node is not None and isinstance(node.operation, InputLayer) and id(node) not in state:
                state[id(node)] = "done"
                order.append(node)
        for out in self._flat_outputs:
            stack = [(out, False)]
            while stack:
                tensor, expanded = stack.pop()
                if id(tensor) in input_ids and not expanded:
                    node = tensor._history[0] if tensor._history else None
                    if node is not None and id(node) not in state:
                        state[id(node)] = "done"
                        order.append(node)
                    continue
                if tensor._history is None:
                    raise ValueError(self._disconnected(tensor))
                node = tensor._history[0]
                if expanded:
                    if state.get(id(node)) != "done":
                        state[id(node)] = "done"
                        order.append(node)
                    continue
                if state.get(id(node)) == "done":
                    continue
                if isinstance(node.operation, InputLayer):
                    raise ValueError(self._disconnected(tensor))
                stack.append((tensor, True))
                for parent in reversed(node.input_tensors):
                    stack.append((parent, False))
        return order

    def _disconnected(self, tensor):
        return (
            f"Graph disconnected in model '{self.name}': the output cannot be computed from the given inputs, "
            f"because {tensor.name} (shape {tensor.shape}) is not reachable from them. Inputs given: "
            f"{[t.name for t in self._flat_inputs]}. Add the missing hl.Input to the model's inputs."
        )

    def _sublayers(self):
        return list(self._functional_layers)

    @property
    def layers(self):
        return list(self._functional_layers)

    @property
    def inputs(self):
        return list(self._flat_inputs)

    @property
    def outputs(self):
        return list(self._flat_outputs)

    @property
    def input(self):
        return self._inputs_struct

    @property
    def output(self):
        return self._outputs_struct

    @property
    def input_names(self):
        return [t.name for t in self._flat_inputs]

    @property
    def output_names(self):
        return [t._history[0].operation.name if t._history and isinstance(t._history[0].operation, Layer)
                else t.name for t in self._flat_outputs]

    def _maybe_build(self, inputs):
        self.built = True

    def _standardize_inputs(self, inputs):
        """Matches the data given to the model's inputs: by position, or by input name for a dict."""
        n = len(self._flat_inputs)
        if isinstance(inputs, dict):
            if isinstance(self._inputs_struct, dict):
                keys = sorted(self._inputs_struct)
                missing = [k for k in keys if k not in inputs]
                if missing:
                    raise ValueError(f"Model '{self.name}' expects inputs named {keys}; missing {missing}.")
                return [inputs[k] for k in keys]
            names = self.input_names
            missing = [k for k in names if k not in inputs]
            if missing:
                raise ValueError(
                    f"Model '{self.name}' received a dict of inputs with keys {sorted(inputs)}, but its inputs "
                    f"are named {names}; missing {missing}."
                )
            return [inputs[k] for k in names]
        if n == 1:
            if isinstance(inputs, (list, tuple)) and len(inputs) == 1 and _is_array_like(inputs[0]):
                return [inputs[0]]
            return [inputs]
        if not isinstance(inputs, (list, tuple)) or len(inputs) != n:
            got = len(inputs) if isinstance(inputs, (list, tuple)) else 1
            raise ValueError(f"Model '{self.name}' expects {n} inputs ({self.input_names}), but received {got}.")
        return list(inputs)

    def call(self, inputs, training=None, mask=None):
        flat = self._standardize_inputs(inputs)
        backend = current_backend()
        values, masks = {}, {}
        for kt, value in zip(self._flat_inputs, flat):
            if not isinstance(value, KerasTensor) and not isinstance(value, Variable):
                if not backend.is_tensor(value):
                    value = backend.convert_to_tensor(value, dtype=kt.dtype)
                elif backend.dtype(value) != kt.dtype:
                    value = backend.cast(value, kt.dtype)
            values[id(kt)] = value
        for node in self._nodes:
            op = node.operation
            if isinstance(op, InputLayer):
                continue
            if isinstance(op, Layer) and op._call_has_mask:
                in_masks = [masks.get(id(t)) for t in node.input_tensors]
                if any(m is not None for m in in_masks) and "mask" not in node.call_kwargs:
                    mask_arg = in_masks[0] if len(in_masks) == 1 else in_masks
                    outs = op(*tree.map_structure(lambda x: values[id(x)] if isinstance(x, KerasTensor) else x,
                                                   node.call_args),
                              mask=mask_arg,
                              **tree.map_structure(lambda x: values[id(x)] if isinstance(x, KerasTensor) else x,
                                                   node.call_kwargs))
                else:
                    outs = node.replay(values)
            else:
                outs = node.replay(values)
            out_leaves = tree.flatten(outs)[0]
            for kt, value in zip(node.output_tensors, out_leaves):
                values[id(kt)] = value
            if isinstance(op, Layer) and (op.supports_masking or type(op).compute_mask is not Layer.compute_mask):
                in_masks = [masks.get(id(t)) for t in node.input_tensors]
                in_vals = [values[id(t)] for t in node.input_tensors]
                m = op.compute_mask(in_vals[0] if len(in_vals) == 1 else in_vals,
                                    in_masks[0] if len(in_masks) == 1 else in_masks)
                if m is not None:
                    for kt in node.output_tensors:
                        masks[id(kt)] = m
        return tree.unflatten(tree.flatten(self._outputs_struct)[1], [values[id(t)] for t in self._flat_outputs])

    def compute_output_spec(self, *args, **kwargs):
        return Layer.compute_output_spec(self, *args, **kwargs)

    def get_config(self):
        config = {"name": self.name, "trainable": self.trainable}
        return config


def _is_array_like(x):
    """A tensor, Variable, KerasTensor or array (not a nested list of numbers)."""
    return hasattr(x, "shape") and hasattr(x, "dtype")
