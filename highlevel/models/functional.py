"""Functional models: a graph of layer and op calls between symbolic inputs and outputs, replayed on data.

>>> import highlevel as hl
>>> a = hl.Input((3,), name="a"); b = hl.Input((3,), name="b")
>>> shared = hl.layers.Dense(4, name="shared")
>>> out = hl.layers.Concatenate()([shared(a), shared(b)])
>>> model = hl.Model([a, b], out)
>>> model(([[1.0, 2.0, 3.0]], [[0.0, 1.0, 0.0]])).shape
(1, 8)
"""

import numpy as np

from highlevel.backends.contract import Variable, tree
from highlevel.config import current_backend

from ..host_text import is_text
from ..keras_tensor import KerasTensor
from ..layer import Layer
from ..masking import set_keras_mask
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


def zeros_like_outputs(outputs, x):
    """Zeros shaped like the symbolic ``outputs`` (a structure of KerasTensors) for a batch ``x``, in their structure.

    None where the shapes do not tell the values' shapes: an unknown size besides the batch axis, a sparse, ragged or
    string output, or a batch without a leading axis to read its size from.
    """
    sized = [leaf for leaf in tree.flatten(x)[0] if len(tuple(getattr(leaf, "shape", ()))) > 0]
    if not sized:
        return None
    batch = tuple(sized[0].shape)[0]
    if batch is None:
        return None
    flat, treedef = tree.flatten(outputs)
    zeros = []
    for kt in flat:
        shape = tuple(getattr(kt, "shape", ()) or ())
        if (
            not isinstance(kt, KerasTensor)
            or not shape
            or kt.sparse
            or kt.ragged
            or kt.dtype == "string"
            or any(d is None for d in shape[1:])
        ):
            return None
        zeros.append(current_backend().zeros((int(batch), *shape[1:]), dtype=kt.dtype))
    return tree.unflatten(treedef, zeros)


class Functional(Model):
    """A model defined by ``hl.Model(inputs, outputs)``.

    Args:
        inputs: a KerasTensor from ``hl.Input``, or a list or dict of them.
        outputs: KerasTensors computed from ``inputs``, as one tensor or a list or dict.
        name: the model's name.
        trainable: whether the model's weights are trained (default True).

    Raises:
        ValueError: if the same input tensor appears twice in ``inputs``, or two layers of the model share a name.

    >>> import highlevel as hl
    >>> inputs = hl.Input((3,))
    >>> outputs = hl.layers.Dense(2)(inputs)
    >>> model = hl.models.Functional(inputs, outputs)  # what hl.Model(inputs, outputs) builds
    >>> type(model).__name__, model.output_shape
    ('Functional', (None, 2))
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
        layers = [op for op in self._operations_in_keras_order() if isinstance(op, Layer)]
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

    def _operations_in_keras_order(self):
        """Each operation once, in Keras's order: the farthest from the outputs first (the depth of an operation is
        the longest path from it to an output), operations at one depth in the order a depth-first walk from the
        outputs (first input first) reaches them. Keras's ``.weights.h5`` paths of a branched model depend on it."""
        input_ids = {id(t) for t in self._flat_inputs}
        node_ids = {id(n) for n in self._nodes}
        first_seen, visited = {}, set()
        for out in self._flat_outputs:
            stack = [out]
            while stack:
                tensor = stack.pop()
                node = tensor._history[0] if tensor._history else None
                if node is None or id(node) not in node_ids or id(node) in visited:
                    continue
                visited.add(id(node))
                if id(tensor) in input_ids and not isinstance(node.operation, InputLayer):
                    continue  # an intermediate tensor given as an input: its producer is outside the model
                first_seen.setdefault(id(node.operation), len(first_seen))
                stack.extend(reversed(node.input_tensors))
        depth_of_node, depth_of_op, ops = {}, {}, {}
        for node in reversed(self._nodes):  # outputs first: a node's depth is final before its parents are seen
            op = node.operation
            depth = max(depth_of_node.setdefault(id(node), 0), depth_of_op.get(id(op), 0))
            depth_of_op[id(op)], depth_of_node[id(node)], ops[id(op)] = depth, depth, op
            if isinstance(op, InputLayer):
                continue
            for t in node.input_tensors:
                parent = t._history[0] if t._history else None
                if parent is not None and id(parent) in node_ids:
                    depth_of_node[id(parent)] = max(depth + 1, depth_of_node.get(id(parent), 0))
        order = sorted(ops, key=lambda k: (-depth_of_op[k], first_seen.get(k, len(first_seen))))
        return [ops[k] for k in order]

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
        return [
            t._history[0].operation.name if t._history and isinstance(t._history[0].operation, Layer) else t.name
            for t in self._flat_outputs
        ]

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
            if isinstance(inputs, (list, tuple)) and inputs and all(_is_array_like(v) for v in inputs):
                if len(inputs) != 1:
                    raise ValueError(
                        f"Model '{self.name}' expects 1 input ({self.input_names[0]}), but it received "
                        f"{len(inputs)} input tensors."
                    )
                return [inputs[0]]
            return [inputs]
        if not isinstance(inputs, (list, tuple)) or len(inputs) != n:
            got = len(inputs) if isinstance(inputs, (list, tuple)) else 1
            raise ValueError(f"Model '{self.name}' expects {n} inputs ({self.input_names}), but received {got}.")
        return list(inputs)

    @staticmethod
    def _adjust_input_rank(kt, value):
        """Keras's one-axis rank adaptation: data one rank short of an Input whose last size is 1 gains that axis
        (``(N, 28, 28)`` for ``Input((28, 28, 1))``); data one rank over it with a last size of 1 loses that axis.
        Any other mismatch is left for the shape check to report."""
        rank, expected = len(value.shape), len(kt.shape)
        if rank == expected - 1 and kt.shape[-1] == 1:
            from highlevel import ops

            return ops.expand_dims(value, -1)
        if rank == expected + 1 and value.shape[-1] == 1:
            from highlevel import ops

            return ops.squeeze(value, -1)
        return value

    def _check_input_shape(self, index, kt, shape):
        expected = kt.shape
        if len(shape) != len(expected) or any(
            e is not None and d is not None and e != d for e, d in zip(expected, shape)
        ):
            raise ValueError(
                f"Input {index} ('{kt.name}') of model '{self.name}' is incompatible with the model: expected "
                f"shape {expected}, but received input with shape {tuple(shape)}. Check the data's shape and, for "
                "several inputs, their order (or pass a dict keyed by input name)."
            )

    def _outputs_for_building(self, x):
        if type(self).call is not Functional.call:
            return None  # a subclass's own call may return something else than the graph's outputs
        return zeros_like_outputs(self._outputs_struct, x)

    def call(self, inputs, training=None, mask=None):
        flat = self._standardize_inputs(inputs)
        backend = current_backend()
        values, masks = {}, {}
        # The masks of the inputs (given, or carried by a nested model's inputs) start the graph's masks.
        if isinstance(mask, (list, tuple)) and len(mask) == len(self._flat_inputs):
            input_masks = list(mask)
        else:
            input_masks = [mask] + [None] * (len(self._flat_inputs) - 1)
        for kt, m in zip(self._flat_inputs, input_masks):
            if m is not None:
                masks[id(kt)] = m
        for i, (kt, value) in enumerate(zip(self._flat_inputs, flat)):
            if kt.dtype == "string" and not isinstance(value, KerasTensor):
                value = host_text_input(kt, value, backend)
            elif not isinstance(value, KerasTensor) and not isinstance(value, Variable):
                if not backend.is_tensor(value):
                    value = backend.convert_to_tensor(value, dtype=kt.dtype)
                elif backend.dtype(value) != kt.dtype:
                    value = backend.cast(value, kt.dtype)
            value = self._adjust_input_rank(kt, value)
            self._check_input_shape(i, kt, value.shape)
            values[id(kt)] = value
        for node in self._nodes:
            op = node.operation
            if isinstance(op, InputLayer):
                continue
            if isinstance(op, Layer) and op._call_has_mask:
                in_masks = [masks.get(id(t)) for t in node.input_tensors]
                if any(m is not None for m in in_masks) and "mask" not in node.call_kwargs:
                    mask_arg = in_masks[0] if len(in_masks) == 1 else in_masks
                    outs = op(
                        *tree.map_structure(
                            lambda x: values[id(x)] if isinstance(x, KerasTensor) else x, node.call_args
                        ),
                        mask=mask_arg,
                        **tree.map_structure(
                            lambda x: values[id(x)] if isinstance(x, KerasTensor) else x, node.call_kwargs
                        ),
                    )
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
                m = op.compute_mask(
                    in_vals[0] if len(in_vals) == 1 else in_vals, in_masks[0] if len(in_masks) == 1 else in_masks
                )
                if m is not None:
                    for kt in node.output_tensors:
                        masks[id(kt)] = m
        outputs = [values[id(t)] for t in self._flat_outputs]
        for kt, value in zip(self._flat_outputs, outputs):
            set_keras_mask(value, masks.get(id(kt)))  # the compiled loss and metrics count only what it keeps
        return tree.unflatten(tree.flatten(self._outputs_struct)[1], outputs)

    def compute_output_spec(self, *args, **kwargs):
        return Layer.compute_output_spec(self, *args, **kwargs)

    def get_config(self):
        """The graph as plain data: every layer's config once, then every call in order.

        Tensors are referred to as ``[node index, output index]``; op calls name an ``hl.ops`` function.
        """
        from highlevel.layers import serialize

        refs = {}
        nodes = []
        for i, node in enumerate(self._nodes):
            op = node.operation
            encode = lambda x: _encode(x, refs, self.name)  # noqa: E731
            if isinstance(op, InputLayer):
                nodes.append({"input": serialize(op)})
            elif isinstance(op, Layer):
                nodes.append(
                    {"layer": op.name, "args": encode(list(node.call_args)), "kwargs": encode(node.call_kwargs)}
                )
            else:
                nodes.append({"op": op.name, "args": encode(list(node.call_args)), "kwargs": encode(node.call_kwargs)})
            for j, kt in enumerate(node.output_tensors):
                refs[id(kt)] = [i, j]
        layers = [
            dict(serialize(layer), name=layer.name)
            for layer in self._functional_layers
            if not isinstance(layer, InputLayer)
        ]
        return {
            "name": self.name,
            "trainable": self.trainable,
            "layers": layers,
            "nodes": nodes,
            "inputs": _encode(self._inputs_struct, refs, self.name),
            "outputs": _encode(self._outputs_struct, refs, self.name),
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Rebuilds the graph: layers from their configs (an allow-list), ops only from ``hl.ops``."""
        inputs, outputs, name, trainable = Functional._graph_from_config(config, custom_objects)
        return cls(inputs, outputs, name=name, trainable=trainable)

    @staticmethod
    def _graph_from_config(config, custom_objects=None):
        """``(inputs, outputs, name, trainable)`` of a functional config: its layers rebuilt and called again."""
        from highlevel import ops
        from highlevel.layers import deserialize

        layers = {}
        for layer_config in config["layers"]:
            layer = deserialize(layer_config, custom_objects=custom_objects)
            # Calls name the layer as it was saved: a custom layer whose get_config() leaves out `name` gets a new
            # name when rebuilt, and is still found.
            saved = layer_config.get("name") if isinstance(layer_config, dict) else None
            layers[saved if isinstance(saved, str) else layer.name] = layer
        outputs_of = []
        for node in config["nodes"]:
            if "input" in node:
                layer = deserialize(node["input"], custom_objects=custom_objects)
                outputs_of.append([layer.output_tensor])
                continue
            args = _decode(node["args"], outputs_of)
            kwargs = _decode(node["kwargs"], outputs_of)
            if "layer" in node:
                if node["layer"] not in layers:
                    raise ValueError(f"The model config calls an unknown layer {node['layer']!r}.")
                out = layers[node["layer"]](*args, **kwargs)
            else:
                name = node["op"]
                space, _, short = name.rpartition(".")
                if space == "image" and short in ops.image.__all__:
                    out = getattr(ops.image, short)(*args, **kwargs)
                elif not space and name in ops.__all__:
                    out = getattr(ops, name)(*args, **kwargs)
                else:
                    raise ValueError(f"The model config calls {name!r}, which is not an hl.ops function.")
            outputs_of.append([t for t in tree.flatten(out)[0] if isinstance(t, KerasTensor)])
        return (
            _decode(config["inputs"], outputs_of),
            _decode(config["outputs"], outputs_of),
            config.get("name"),
            config.get("trainable", True),
        )


def _encode(x, refs, model_name):
    """JSON-able form of a call argument; tensors become references to earlier node outputs."""
    if isinstance(x, KerasTensor):
        if id(x) not in refs:
            raise ValueError(f"Model '{model_name}': a tensor in the graph was not produced by any recorded node.")
        return {"__tensor__": refs[id(x)]}
    if isinstance(x, tuple):
        return {"__tuple__": [_encode(v, refs, model_name) for v in x]}
    if isinstance(x, list):
        return [_encode(v, refs, model_name) for v in x]
    if isinstance(x, dict):
        return {"__dict__": {str(k): _encode(v, refs, model_name) for k, v in x.items()}}
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        import numpy as np

        array = np.asarray(x)
        return {"__array__": array.tolist(), "dtype": str(array.dtype)}
    raise ValueError(
        f"Model '{model_name}' cannot be described as a config: a call in its graph takes a {type(x).__name__} "
        "argument. Use layers (or hl.ops calls) with plain arguments, or save the weights only."
    )


def _decode(x, outputs_of):
    if isinstance(x, list):
        return [_decode(v, outputs_of) for v in x]
    if isinstance(x, dict):
        if "__tensor__" in x:
            i, j = x["__tensor__"]
            return outputs_of[i][j]
        if "__tuple__" in x:
            return tuple(_decode(v, outputs_of) for v in x["__tuple__"])
        if "__dict__" in x:
            return {k: _decode(v, outputs_of) for k, v in x["__dict__"].items()}
        if "__array__" in x:
            import numpy as np

            return np.asarray(x["__array__"], dtype=x["dtype"])
    return x


def host_text_input(kt, value, backend):
    """A string input's value: text stays on the host as a numpy array (an engine's own string tensor, such as
    TensorFlow's, is kept as it is), with Keras's one-axis rank adaptation."""
    if backend.is_tensor(value):
        try:
            backend.dtype(value)  # a number dtype: not text
        except ValueError:
            return value  # the engine's own string tensor (TensorFlow)
    elif is_text(value):
        value = np.asarray(value, dtype=object) if not isinstance(value, np.ndarray) else value
        rank, expected = value.ndim, len(kt.shape)
        if rank == expected - 1 and kt.shape[-1] == 1:
            return value[..., None]
        if rank == expected + 1 and value.shape[-1] == 1:
            return value[..., 0]
        return value
    raise TypeError(
        f"Input '{kt.name}' has dtype 'string', but received {type(value).__name__} data that is not text "
        f"({getattr(value, 'dtype', None) or type(value).__name__}). Pass strings (a list of str or a numpy "
        "array of str/bytes), or declare the Input with the dtype of the data."
    )


def _is_array_like(x):
    """A tensor, Variable, KerasTensor or array (not a nested list of numbers)."""
    return hasattr(x, "shape") and hasattr(x, "dtype")
