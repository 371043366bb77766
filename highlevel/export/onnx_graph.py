"""An ONNX graph written from a model's layer graph, with no framework: the path of engines without a converter.

The native engine (and JAX, whose converters to ONNX go through TensorFlow graphs that jax2tf no longer writes)
export this way. Each node of the functional graph (a Sequential model's too) becomes ONNX nodes computed from the
layer's configuration and its current weights, which go into the file as initializers; nested models are inlined.
A layer or op without a mapping raises an error that names it. Convolutions and pooling in ``channels_last`` are
wrapped in transposes, since ONNX computes them channels-first.

>>> import highlevel as hl
>>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, activation="relu")])
>>> proto = onnx_model(model, [("x", (None, 3), "float32")], opset_version=17)
>>> [node.op_type for node in proto.graph.node]
['MatMul', 'Add', 'Relu', 'Identity']
"""

import numpy as np

from highlevel import ops
from highlevel.backends.contract.interop import front_class

_BATCH = "batch"

# Activation functions with one ONNX op and no attributes.
_UNARY = {
    "relu": "Relu",
    "sigmoid": "Sigmoid",
    "tanh": "Tanh",
    "softplus": "Softplus",
    "softsign": "Softsign",
    "exponential": "Exp",
    "selu": "Selu",
}


class _Writer:
    """Collects nodes and initializers; gives every value a unique name."""

    def __init__(self, helper, numpy_helper, opset=17):
        self.helper = helper
        self.opset = opset
        self.numpy_helper = numpy_helper
        self.nodes = []
        self.initializers = []
        self.count = 0
        self.in_shapes = []  # the static shapes of the inputs of the node being written

    def fresh(self, hint):
        self.count += 1
        return f"{hint}_{self.count}"

    def const(self, array, hint):
        name = self.fresh(hint)
        self.initializers.append(self.numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(self, op_type, inputs, hint=None, **attrs):
        out = self.fresh(hint or op_type.lower())
        self.nodes.append(self.helper.make_node(op_type, list(inputs), [out], **attrs))
        return out

    def weight(self, variable, hint):
        return self.const(np.asarray(ops.convert_to_numpy(variable)), hint)


class UnmappedLayerError(ValueError):
    """The layer graph holds something the ONNX graph writer has no mapping for (``export_onnx`` then traces the
    model on an engine with a converter of its own, when one is installed)."""


def _unsupported(what, name):
    return UnmappedLayerError(
        f"ONNX export has no mapping for {what} (in {name!r}) on an engine without an ONNX converter of its own. "
        "The layers it maps: Dense, Embedding, Conv1D/2D/3D, DepthwiseConv1D/2D, max and average pooling (also "
        "global), ZeroPadding, UpSampling (nearest), BatchNormalization, LayerNormalization, Rescaling, Flatten, "
        "Reshape, Permute, Dropout-like layers, the activation layers and "
        "activations relu/sigmoid/tanh/softmax/elu/selu/softplus/softsign/swish/relu6/hard_sigmoid/leaky_relu, and "
        "the merging layers. Export from the torch or tensorflow backend, whose converters trace any layer."
    )


def activation(w, x, fn, where):
    """The nodes of an activation function (a callable of ``hl.activations`` or its name)."""
    name = fn if isinstance(fn, str) else getattr(fn, "__name__", repr(fn))
    if name in ("linear", None):
        return x
    if name in _UNARY:
        return w.node(_UNARY[name], [x])
    if name == "softmax":
        return w.node("Softmax", [x], axis=-1)
    if name == "log_softmax":
        return w.node("LogSoftmax", [x], axis=-1)
    if name == "elu":
        return w.node("Elu", [x], alpha=1.0)
    if name == "leaky_relu":
        return w.node("LeakyRelu", [x], alpha=0.2)
    if name in ("swish", "silu"):
        return w.node("Mul", [x, w.node("Sigmoid", [x])])
    if name == "relu6":
        return w.node("Clip", [x, w.const(np.float32(0), "zero"), w.const(np.float32(6), "six")])
    if name == "hard_sigmoid":
        return w.node("HardSigmoid", [x], alpha=1.0 / 6.0, beta=0.5)
    raise _unsupported(f"the activation {name!r}", where)


def _to_channels_first(w, x, rank):
    return w.node("Transpose", [x], perm=[0, rank + 1, *range(1, rank + 1)])


def _to_channels_last(w, x, rank):
    return w.node("Transpose", [x], perm=[0, *range(2, rank + 2), 1])


def _spatial(layer, w, x, rank, op_type, weights=(), **attrs):
    """A channels-first ONNX op on ``x``, wrapped in transposes when the layer is channels-last."""
    last = layer.data_format == "channels_last"
    if last:
        x = _to_channels_first(w, x, rank)
    attrs["auto_pad"] = "SAME_UPPER" if layer.padding == "same" else "VALID"
    y = w.node(op_type, [x, *weights], **attrs)
    return _to_channels_last(w, y, rank) if last else y


def _dense(layer, w, xs):
    y = w.node("MatMul", [xs[0], w.weight(layer.kernel, "kernel")])
    if layer.use_bias:
        y = w.node("Add", [y, w.weight(layer.bias, "bias")])
    return activation(w, y, layer.activation, layer.name)


def _conv(layer, w, xs):
    rank = len(layer.kernel_size)
    if layer.padding not in ("valid", "same"):
        raise _unsupported(f"padding={layer.padding!r}", layer.name)
    kernel = np.asarray(ops.convert_to_numpy(layer.kernel))  # (*window, in / groups, out)
    kernel = np.transpose(kernel, (rank + 1, rank, *range(rank)))
    weights = [w.const(kernel, "kernel")]
    if layer.use_bias:
        weights.append(w.weight(layer.bias, "bias"))
    y = _spatial(
        layer,
        w,
        xs[0],
        rank,
        "Conv",
        weights,
        kernel_shape=list(layer.kernel_size),
        strides=list(layer.strides),
        dilations=list(layer.dilation_rate),
        group=int(layer.groups),
    )
    return activation(w, y, layer.activation, layer.name)


def _depthwise_conv(layer, w, xs):
    rank = len(layer.kernel_size)
    if layer.padding not in ("valid", "same"):
        raise _unsupported(f"padding={layer.padding!r}", layer.name)
    kernel = np.asarray(ops.convert_to_numpy(layer.kernel))  # (*window, in, multiplier)
    channels, multiplier = kernel.shape[-2:]
    # output channel c * multiplier + m reads input channel c: ONNX's grouped convolution with one group per channel
    kernel = np.transpose(kernel, (rank, rank + 1, *range(rank))).reshape(
        channels * multiplier, 1, *kernel.shape[:rank]
    )
    weights = [w.const(kernel, "kernel")]
    if layer.use_bias:
        weights.append(w.weight(layer.bias, "bias"))
    y = _spatial(
        layer,
        w,
        xs[0],
        rank,
        "Conv",
        weights,
        kernel_shape=list(layer.kernel_size),
        strides=list(layer.strides),
        dilations=list(layer.dilation_rate),
        group=int(channels),
    )
    return activation(w, y, layer.activation, layer.name)


def _pool(op_type):
    def convert(layer, w, xs):
        rank = len(layer.pool_size)
        return _spatial(layer, w, xs[0], rank, op_type, kernel_shape=list(layer.pool_size), strides=list(layer.strides))

    return convert


def _global_pool(op_type):
    def convert(layer, w, xs):
        rank = len(w.in_shapes[0]) - 2
        axes = list(range(1, rank + 1)) if layer.data_format == "channels_last" else list(range(2, rank + 2))
        keepdims = int(bool(layer.keepdims))
        if w.opset >= 18:  # from opset 18 on, a reduction takes its axes as an input
            return w.node(op_type, [xs[0], w.const(np.asarray(axes, np.int64), "axes")], keepdims=keepdims)
        return w.node(op_type, [xs[0]], axes=axes, keepdims=keepdims)

    return convert


def _batch_norm(layer, w, xs):
    mean = np.asarray(ops.convert_to_numpy(layer.moving_mean), np.float64)
    var = np.asarray(ops.convert_to_numpy(layer.moving_variance), np.float64)
    scale = 1.0 / np.sqrt(var + layer.epsilon)
    if layer.scale:
        scale = scale * np.asarray(ops.convert_to_numpy(layer.gamma), np.float64)
    shift = -mean * scale
    if layer.center:
        shift = shift + np.asarray(ops.convert_to_numpy(layer.beta), np.float64)
    rank = len(w.in_shapes[0])
    axis = layer.axis % rank
    shape = [-1] + [1] * (rank - 1 - axis)  # broadcast along the normalized axis
    dtype = np.dtype(layer.moving_mean.dtype)
    y = w.node("Mul", [xs[0], w.const(scale.reshape(shape).astype(dtype), "bn_scale")])
    return w.node("Add", [y, w.const(shift.reshape(shape).astype(dtype), "bn_shift")])


def _layer_norm(layer, w, xs):
    axes = layer.axis if isinstance(layer.axis, (list, tuple)) else [layer.axis]
    rank = len(w.in_shapes[0])
    axes = sorted(a % rank for a in axes)
    if layer.rms_scaling or axes != list(range(axes[0], rank)):
        raise _unsupported("LayerNormalization over axes that do not end at the last one, or rms_scaling", layer.name)
    shape = tuple(w.in_shapes[0][axes[0] :])
    dtype = np.float32
    gamma = w.weight(layer.gamma, "gamma") if layer.scale else w.const(np.ones(shape, dtype), "gamma")
    beta = w.weight(layer.beta, "beta") if layer.center else w.const(np.zeros(shape, dtype), "beta")
    return w.node("LayerNormalization", [xs[0], gamma, beta], axis=axes[0], epsilon=float(layer.epsilon))


def _flatten(layer, w, xs):
    x = xs[0]
    rank = len(w.in_shapes[0])
    if layer.data_format == "channels_first" and rank > 2:
        x = w.node("Transpose", [x], perm=[0, *range(2, rank), 1])
    return w.node("Flatten", [x], axis=1)


def _reshape(layer, w, xs):
    shape = np.asarray([0, *layer.target_shape], np.int64)  # 0: the batch axis as it is
    return w.node("Reshape", [xs[0], w.const(shape, "shape")])


def _embedding(layer, w, xs):
    ids = w.node("Cast", [xs[0]], to=7)  # int64
    return w.node("Gather", [w.weight(layer.embeddings, "embeddings"), ids], axis=0)


def _rescaling(layer, w, xs):
    dtype = np.float32
    y = w.node("Mul", [xs[0], w.const(np.asarray(layer.scale, dtype), "scale")])
    return w.node("Add", [y, w.const(np.asarray(layer.offset, dtype), "offset")])


def _zero_padding(layer, w, xs):
    padding = layer.padding
    if isinstance(padding[0], int):  # ZeroPadding1D: one (before, after) pair
        padding = (tuple(padding),)
    rank = len(w.in_shapes[0])
    spatial = list(range(1, rank - 1)) if layer.data_format == "channels_last" else list(range(2, rank))
    begin, end = [0] * rank, [0] * rank
    for axis, (before, after) in zip(spatial, padding):
        begin[axis], end[axis] = int(before), int(after)
    return w.node("Pad", [xs[0], w.const(np.asarray(begin + end, np.int64), "pads")], mode="constant")


def _permute(layer, w, xs):
    return w.node("Transpose", [xs[0]], perm=[0, *(int(d) for d in layer.dims)])


def _upsampling(layer, w, xs):
    if getattr(layer, "interpolation", "nearest") != "nearest":
        raise _unsupported(f"interpolation={layer.interpolation!r}", layer.name)
    rank = len(w.in_shapes[0])
    scales = [1.0] * rank
    first = 1 if layer.data_format == "channels_last" else 2
    for i, factor in enumerate(layer.factors):
        scales[first + i] = float(factor)
    # Each value repeated ``factor`` times along its axis: nearest neighbour, source index floor(i / factor).
    return w.node(
        "Resize",
        [xs[0], "", w.const(np.asarray(scales, np.float32), "scales")],
        mode="nearest",
        coordinate_transformation_mode="asymmetric",
        nearest_mode="floor",
    )


def _identity(layer, w, xs):
    return xs[0]


def _activation_layer(layer, w, xs):
    return activation(w, xs[0], layer.activation, layer.name)


def _relu_layer(layer, w, xs):
    if layer.threshold != 0 or (layer.max_value is not None and layer.negative_slope != 0):
        raise _unsupported("ReLU with a threshold, or with both max_value and negative_slope", layer.name)
    if layer.negative_slope:
        return w.node("LeakyRelu", [xs[0]], alpha=float(layer.negative_slope))
    y = w.node("Relu", [xs[0]])
    if layer.max_value is not None:
        y = w.node("Clip", [y, w.const(np.float32(0), "zero"), w.const(np.float32(layer.max_value), "max")])
    return y


def _softmax_layer(layer, w, xs):
    if isinstance(layer.axis, (list, tuple)) and len(layer.axis) != 1:
        raise _unsupported("Softmax over several axes", layer.name)
    axis = layer.axis[0] if isinstance(layer.axis, (list, tuple)) else layer.axis
    return w.node("Softmax", [xs[0]], axis=int(axis))


def _variadic(op_type):
    def convert(layer, w, xs):
        return w.node(op_type, xs)

    return convert


def _chain(op_type):
    def convert(layer, w, xs):
        y = xs[0]
        for x in xs[1:]:
            y = w.node(op_type, [y, x])
        return y

    return convert


def _concatenate(layer, w, xs):
    return w.node("Concat", xs, axis=int(layer.axis))


def _converters():
    from highlevel import layers as L

    table = {
        L.Dense: _dense,
        L.Conv1D: _conv,
        L.Conv2D: _conv,
        L.Conv3D: _conv,
        L.MaxPooling1D: _pool("MaxPool"),
        L.MaxPooling2D: _pool("MaxPool"),
        L.MaxPooling3D: _pool("MaxPool"),
        L.AveragePooling1D: _pool("AveragePool"),
        L.AveragePooling2D: _pool("AveragePool"),
        L.AveragePooling3D: _pool("AveragePool"),
        L.GlobalAveragePooling1D: _global_pool("ReduceMean"),
        L.GlobalAveragePooling2D: _global_pool("ReduceMean"),
        L.GlobalAveragePooling3D: _global_pool("ReduceMean"),
        L.GlobalMaxPooling1D: _global_pool("ReduceMax"),
        L.GlobalMaxPooling2D: _global_pool("ReduceMax"),
        L.GlobalMaxPooling3D: _global_pool("ReduceMax"),
        L.DepthwiseConv1D: _depthwise_conv,
        L.DepthwiseConv2D: _depthwise_conv,
        L.Embedding: _embedding,
        L.Rescaling: _rescaling,
        L.ZeroPadding1D: _zero_padding,
        L.ZeroPadding2D: _zero_padding,
        L.ZeroPadding3D: _zero_padding,
        L.Permute: _permute,
        L.UpSampling1D: _upsampling,
        L.UpSampling2D: _upsampling,
        L.UpSampling3D: _upsampling,
        L.Identity: _identity,
        L.BatchNormalization: _batch_norm,
        L.LayerNormalization: _layer_norm,
        L.Flatten: _flatten,
        L.Reshape: _reshape,
        L.Activation: _activation_layer,
        L.ReLU: _relu_layer,
        L.Softmax: _softmax_layer,
        L.Add: _variadic("Sum"),
        L.Average: _variadic("Mean"),
        L.Maximum: _variadic("Max"),
        L.Minimum: _variadic("Min"),
        L.Subtract: _chain("Sub"),
        L.Multiply: _chain("Mul"),
        L.Concatenate: _concatenate,
    }
    for name in ("Dropout", "SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D", "GaussianNoise"):
        table[getattr(L, name)] = _identity
    for name in ("GaussianDropout", "AlphaDropout", "ActivityRegularization"):
        if hasattr(L, name):
            table[getattr(L, name)] = _identity
    table[L.LeakyReLU] = lambda layer, w, xs: w.node("LeakyRelu", [xs[0]], alpha=float(layer.negative_slope))
    table[L.ELU] = lambda layer, w, xs: w.node("Elu", [xs[0]], alpha=float(layer.alpha))
    return table


# hl.ops functions called on symbolic tensors in a functional model: (ONNX op, variadic)
_OPS = {"add": "Add", "subtract": "Sub", "multiply": "Mul", "divide": "Div", "relu": "Relu", "sigmoid": "Sigmoid"}


def _graph_of(model):
    """The functional graph behind ``model`` (a Sequential's own), or None."""
    graph = getattr(model, "_graph", None)
    if graph is not None and hasattr(graph, "_nodes"):
        return graph
    return model if hasattr(model, "_nodes") else None


def has_layer_graph(model):
    """Whether ``model`` has a layer graph (Sequential, functional) this module can write."""
    return _graph_of(model) is not None


def _write_model(model, w, input_names, table):
    """Writes the nodes of ``model`` on ONNX values ``input_names``; returns the names of its outputs."""
    from highlevel.layers import InputLayer
    from highlevel.node import OpCall

    graph = _graph_of(model)
    if graph is None:
        raise UnmappedLayerError(
            f"ONNX export on an engine without an ONNX converter of its own needs a Sequential or functional "
            f"model (its layer graph is what is written); received a subclassed model "
            f"{front_class(type(model)).__name__} ({model.name!r}). Export it from the torch or tensorflow "
            "backend, or build it as a functional model."
        )
    values = {id(kt): name for kt, name in zip(graph.inputs, input_names)}
    for node in graph._nodes:
        op = node.operation
        if isinstance(op, InputLayer):
            continue
        xs = [values[id(t)] for t in node.input_tensors]
        w.in_shapes = [tuple(t.shape) for t in node.input_tensors]
        if isinstance(op, OpCall):
            if op.name not in _OPS or op.fn is not None:
                raise _unsupported(f"the op hl.ops.{op.name}", graph.name)
            outs = [_chain(_OPS[op.name])(None, w, xs) if len(xs) > 1 else w.node(_OPS[op.name], xs)]
        elif _graph_of(op) is not None:
            outs = _write_model(op, w, xs, table)
        else:
            convert = table.get(front_class(type(op)))
            if convert is None:
                raise _unsupported(f"the layer {front_class(type(op)).__name__}", op.name)
            outs = [convert(op, w, xs)]
        for kt, name in zip(node.output_tensors, outs):
            values[id(kt)] = name
    return [values[id(t)] for t in graph.outputs]


def onnx_model(model, input_specs, opset_version):
    """The ONNX ``ModelProto`` of ``model`` written from its layer graph.

    Args:
        model: a built Sequential or functional model.
        input_specs: one ``(name, shape, dtype)`` per model input; ``None`` in a shape stays open (``"batch"``).
        opset_version: the ONNX opset of the file.

    Returns:
        An ``onnx.ModelProto`` whose outputs are named ``output_0``, ``output_1``...
    """
    from onnx import helper, numpy_helper

    w = _Writer(helper, numpy_helper, opset_version)
    names = [name for name, _, _ in input_specs]
    outs = _write_model(model, w, names, _converters())
    final = []
    for i, name in enumerate(outs):
        final.append(f"output_{i}")
        w.nodes.append(helper.make_node("Identity", [name], [final[-1]]))

    def value_info(name, shape, dtype):
        elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
        dims = [_BATCH if d is None else int(d) for d in shape] if shape is not None else None
        return helper.make_tensor_value_info(name, elem, dims)

    graph_outputs = []
    for name, kt in zip(final, _graph_of(model).outputs):
        shape = [None if d is None else d for d in kt.shape]
        graph_outputs.append(value_info(name, shape, kt.dtype))
    graph = helper.make_graph(
        w.nodes,
        front_class(type(model)).__name__,
        [value_info(*spec) for spec in input_specs],
        graph_outputs,
        initializer=w.initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset_version)], producer_name="highlevel")
