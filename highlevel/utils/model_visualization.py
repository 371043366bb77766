"""``model_to_dot`` and ``plot_model``: a model's graph of layers as a Graphviz drawing.

``model_to_dot`` builds a ``pydot.Dot`` graph: one node per layer (and per ``hl.ops`` call recorded in a
functional model), one edge per tensor passed from one to the next. ``plot_model`` renders it to an image file
with Graphviz. Both need the optional ``pydot`` package (``pip install pydot``, or the ``plot`` extra:
``pip install -e ".[plot]"`` in a checkout); rendering also needs Graphviz's ``dot`` program, a system package
(``apt-get install graphviz``, ``brew install graphviz`` or ``conda install graphviz``). A ``.dot`` or ``.gv``
file is written without Graphviz.

>>> import importlib.util
>>> import highlevel as hl
>>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, name="hidden"), hl.layers.Dense(1, name="out")])
>>> if importlib.util.find_spec("pydot") is not None:
...     text = model_to_dot(model).to_string()
...     assert "hidden" in text and "out" in text and "->" in text
"""

import os
import shutil
import sys

_PYDOT_HELP = (
    'Install it with `pip install pydot` (or the plot extra: `pip install -e ".[plot]"` in a checkout of '
    "highlevel); rendering images also needs "
    "Graphviz's `dot` program (`apt-get install graphviz`, `brew install graphviz` or `conda install graphviz`)."
)
_GRAPHVIZ_HELP = (
    "Graphviz's `dot` program was not found on the PATH. Install Graphviz (`apt-get install graphviz`, "
    "`brew install graphviz` or `conda install graphviz`; see https://graphviz.org/download/), or write the graph "
    "as text with a `.dot` file name, which needs no Graphviz."
)


def _pydot(what):
    try:
        import pydot
    except ImportError:
        raise ImportError(f"{what} needs the `pydot` package, which is not installed. {_PYDOT_HELP}") from None
    return pydot


def _in_notebook():
    return "IPython.core.magics.namespace" in sys.modules


def _escape(text):
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _shape_text(tensors):
    from highlevel.backends.contract import tree

    shapes = [tuple(t.shape) for t in tree.flatten(tensors)[0] if hasattr(t, "shape")]
    if not shapes:
        return "?"
    text = ", ".join(str(s).replace(",)", ")") for s in shapes)
    return text if len(shapes) == 1 else f"[{text}]"


def _dtype_text(tensors):
    from highlevel.backends.contract import tree

    dtypes = [str(t.dtype) for t in tree.flatten(tensors)[0] if hasattr(t, "dtype")]
    return ", ".join(dtypes) if dtypes else "?"


def _activation_name(layer):
    activation = getattr(layer, "activation", None)
    if activation is None:
        return None
    return getattr(activation, "__name__", None) or getattr(activation, "name", None) or str(activation)


def _node_label(operation, node, options):
    """An HTML-like Graphviz label: a title row, then the rows the options ask for."""
    from highlevel.layer import Layer

    is_layer = isinstance(operation, Layer)
    kind = type(operation).__name__ if is_layer else "Operation"
    name = operation.name
    title = f"<b>{_escape(name)}</b> ({kind})" if options["show_layer_names"] else f"<b>{_escape(kind)}</b>"
    if not is_layer and not options["show_layer_names"]:
        title = f"<b>{_escape(name)}</b>"
    cells = []
    if options["show_shapes"]:
        if node is not None and type(operation).__name__ != "InputLayer":
            inputs = node.input_tensors
            cells.append(f"Input shape: <b>{_escape(_shape_text(inputs))}</b>")
        outputs = node.outputs if node is not None else None
        cells.append(f"Output shape: <b>{_escape(_shape_text(outputs)) if outputs is not None else '?'}</b>")
    if options["show_dtype"]:
        outputs = node.outputs if node is not None else None
        cells.append(f"Output dtype: <b>{_escape(_dtype_text(outputs)) if outputs is not None else '?'}</b>")
    trainable_cell = None
    if options["show_trainable"] and is_layer and operation.weights:
        trainable_cell = (
            '<td bgcolor="#2e7d32"><font color="white"><b>Trainable</b></font></td>'
            if operation.trainable
            else '<td bgcolor="#b71c1c"><font color="white"><b>Non-trainable</b></font></td>'
        )
    width = max(len(cells) + (trainable_cell is not None), 1)
    rows = [f'<tr><td colspan="{width}" bgcolor="#263238"><font color="white">{title}</font></td></tr>']
    activation = _activation_name(operation) if options["show_layer_activations"] and is_layer else None
    if activation:
        rows.append(f'<tr><td colspan="{width}">Activation: <b>{_escape(activation)}</b></td></tr>')
    if cells or trainable_cell:
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + (trainable_cell or "") + "</tr>")
    return '<<table border="0" cellborder="1" cellspacing="0" cellpadding="6">' + "".join(rows) + "</table>>"


def _graph_nodes(model):
    """The recorded calls of a built functional or Sequential model, in graph order (None for other models)."""
    graph = getattr(model, "_graph", None)
    if graph is not None and hasattr(graph, "_nodes"):
        return graph._nodes, True
    if hasattr(model, "_nodes") and hasattr(model, "_functional_layers"):
        return model._nodes, False
    return None, False


def _is_graph_model(layer):
    return _graph_nodes(layer)[0] is not None


def _entry(model, nodes, skip_inputs):
    """The operation where edges into a nested model arrive (its first layer)."""
    from highlevel.models.input_layer import InputLayer

    for node in nodes:
        if skip_inputs and isinstance(node.operation, InputLayer):
            continue
        return node.operation
    return model


def _exit_operation(op, expand_nested):
    """Where edges out of ``op`` leave from: the last layer of a nested model when it is expanded."""
    while expand_nested and _is_graph_model(op):
        nodes, _ = _graph_nodes(op)
        op = nodes[-1].operation
    return op


def _entry_operation(op, expand_nested):
    while expand_nested and _is_graph_model(op):
        nodes, sequential = _graph_nodes(op)
        op = _entry(op, nodes, sequential)
    return op


def _fill(dot, pydot, model, options, expand_nested):
    from highlevel.models.input_layer import InputLayer

    nodes, sequential = _graph_nodes(model)
    if nodes is None:  # a subclassed model: one box
        dot.add_node(pydot.Node(str(id(model)), label=_node_label(model, None, options)))
        return
    drawn = set()
    for node in nodes:
        op = node.operation
        if sequential and isinstance(op, InputLayer):
            continue
        if id(op) in drawn:
            continue  # a shared layer is drawn once
        drawn.add(id(op))
        if expand_nested and _is_graph_model(op):
            cluster = pydot.Cluster(str(id(op)), label=op.name, style="dashed", labeljust="l")
            _fill(cluster, pydot, op, options, expand_nested)
            dot.add_subgraph(cluster)
        else:
            dot.add_node(pydot.Node(str(id(op)), label=_node_label(op, node, options), shape="plaintext"))
    edges = set()
    for node in nodes:
        op = node.operation
        if sequential and isinstance(op, InputLayer):
            continue
        for tensor in node.input_tensors:
            if tensor._history is None:
                continue
            source = tensor._history[0].operation
            if sequential and isinstance(source, InputLayer):
                continue
            key = (id(_exit_operation(source, expand_nested)), id(_entry_operation(op, expand_nested)))
            if key not in edges:
                edges.add(key)
                dot.add_edge(pydot.Edge(str(key[0]), str(key[1]), penwidth="2"))


def _check_built(model):
    if not getattr(model, "built", False):
        raise ValueError(
            f"Model '{model.name}' has not been built yet, so it has no graph to draw. Build it first: give it an "
            "hl.Input (or an input_shape), call model.build(input_shape), or call it on a batch of data."
        )


def model_to_dot(
    model,
    show_shapes=False,
    show_dtype=False,
    show_layer_names=True,
    rankdir="TB",
    expand_nested=False,
    dpi=200,
    subgraph=False,
    show_layer_activations=False,
    show_trainable=False,
    splines="ortho",
    **kwargs,
):
    """Builds a Graphviz graph of ``model`` as a ``pydot.Dot``.

    Args:
        model: a built model (functional, Sequential, or subclassed: one box).
        show_shapes: show each layer's input and output shapes.
        show_dtype: show each layer's output dtype.
        show_layer_names: show layer names (else class names only).
        rankdir: the direction of the drawing: ``"TB"`` (top to bottom) or ``"LR"`` (left to right).
        expand_nested: draw the layers of nested models inside dashed boxes.
        dpi: the resolution of rendered images.
        subgraph: return a ``pydot.Cluster`` (for drawing inside another graph) instead of a ``pydot.Dot``.
        show_layer_activations: show the activation of layers that have one.
        show_trainable: mark each layer with weights as trainable or not.
        splines: how edges are drawn (``"ortho"``, ``"curved"``, ``"polyline"``, ``"spline"``, ``"line"``).

    Returns:
        A ``pydot.Dot`` (or ``pydot.Cluster``); ``.to_string()`` gives its dot text.

    Raises:
        ImportError: when pydot is not installed (the message says how to install it).
        ValueError: for a model that is not built, or an unknown keyword argument.

    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
    >>> graph = hl.utils.model_to_dot(model, show_shapes=True)
    >>> type(graph).__name__
    'Dot'
    """
    if kwargs.pop("layer_range", None) is not None:
        raise ValueError("`layer_range` is not supported (Keras 3 dropped it too); plot a sub-model instead.")
    if kwargs:
        raise ValueError(f"model_to_dot got unexpected keyword arguments: {sorted(kwargs)}.")
    if rankdir not in ("TB", "LR", "BT", "RL"):
        raise ValueError(f'`rankdir` must be "TB", "LR", "BT" or "RL"; received rankdir={rankdir!r}.')
    _check_built(model)
    pydot = _pydot("model_to_dot")
    options = {
        "show_shapes": show_shapes,
        "show_dtype": show_dtype,
        "show_layer_names": show_layer_names,
        "show_layer_activations": show_layer_activations,
        "show_trainable": show_trainable,
    }
    if subgraph:
        dot = pydot.Cluster(str(id(model)), label=model.name, style="dashed", labeljust="l")
    else:
        dot = pydot.Dot(graph_type="digraph", rankdir=rankdir, concentrate=True, dpi=dpi, splines=splines)
        dot.set_node_defaults(shape="plaintext", fontname="Helvetica")
    _fill(dot, pydot, model, options, expand_nested)
    return dot


def plot_model(
    model,
    to_file="model.png",
    show_shapes=False,
    show_dtype=False,
    show_layer_names=False,
    rankdir="TB",
    expand_nested=False,
    dpi=200,
    show_layer_activations=False,
    show_trainable=False,
    splines="ortho",
    **kwargs,
):
    """Draws ``model``'s graph (see :func:`model_to_dot`) into an image file.

    Args:
        model: a built model.
        to_file: the file to write; its extension picks the format (``.png`` by default, ``.svg``, ``.pdf``,
            ``.jpg``, ...; ``.dot``/``.gv`` write the graph's text, without Graphviz).
        show_shapes: show each layer's input and output shapes (default False).
        show_dtype: show each layer's output dtype (default False).
        show_layer_names: show layer names, not only class names (default False).
        rankdir: ``"TB"`` (top to bottom, default) or ``"LR"`` (left to right).
        expand_nested: draw the layers of nested models inside dashed boxes (default False).
        dpi: the resolution of bitmap images (default 200).
        show_layer_activations: show the activation of layers that have one (default False).
        show_trainable: mark each layer with weights as trainable or not (default False).
        splines: how edges are drawn (default ``"ortho"``; see :func:`model_to_dot`).

    Returns:
        An ``IPython.display.Image`` of the file when IPython is installed and the format is a bitmap (so that a
        notebook shows it), else None.

    Raises:
        ImportError: when pydot, or Graphviz for an image format, is missing (the message says how to install
            them). In a notebook the message is printed instead and nothing is drawn, as Keras does.

    >>> import os, tempfile
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.dot")  # the graph's text: no Graphviz needed
    >>> hl.utils.plot_model(model, to_file=path, show_shapes=True)
    >>> open(path).read().startswith("digraph")
    True
    """
    if kwargs.pop("layer_range", None) is not None:
        raise ValueError("`layer_range` is not supported (Keras 3 dropped it too); plot a sub-model instead.")
    if kwargs:
        raise ValueError(f"plot_model got unexpected keyword arguments: {sorted(kwargs)}.")
    _check_built(model)
    to_file = os.fspath(to_file)
    extension = os.path.splitext(to_file)[1][1:].lower() or "png"
    try:
        _pydot("plot_model")
        if extension not in ("dot", "gv") and shutil.which("dot") is None:
            raise ImportError(f"plot_model needs Graphviz to render a .{extension} file. {_GRAPHVIZ_HELP}")
    except ImportError as error:
        if _in_notebook():
            print(error)
            return None
        raise
    dot = model_to_dot(
        model,
        show_shapes=show_shapes,
        show_dtype=show_dtype,
        show_layer_names=show_layer_names,
        rankdir=rankdir,
        expand_nested=expand_nested,
        dpi=dpi,
        show_layer_activations=show_layer_activations,
        show_trainable=show_trainable,
        splines=splines,
    )
    directory = os.path.dirname(os.path.abspath(to_file))
    os.makedirs(directory, exist_ok=True)
    # Render to a temporary name, then rename: a failed render leaves no broken file behind.
    partial = os.path.join(directory, f".{os.path.basename(to_file)}.partial")
    try:
        if extension in ("dot", "gv"):
            with open(partial, "w", encoding="utf-8") as f:
                f.write(dot.to_string())
        else:
            dot.write(partial, format=extension)
        os.replace(partial, to_file)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
    if extension in ("png", "jpg", "jpeg", "gif"):
        try:
            from IPython import display
        except ImportError:
            return None
        return display.Image(filename=to_file)
    return None
