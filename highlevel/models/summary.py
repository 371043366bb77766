"""``model.summary()``: a rich table of layers, output shapes, parameter counts and connections."""

import io

from ..layer import Layer
from .input_layer import InputLayer


def _count(layer):
    total = 0
    for v in layer.weights:
        n = 1
        for d in v.shape:
            n *= d
        total += n
    return total


def _trainable(op):
    """The Trainable column: the layer's flag when it has weights; None ("-") for a layer or op without any."""
    weights = getattr(op, "weights", None) if isinstance(op, Layer) else None
    return bool(op.trainable) if weights else None


def _shape_text(struct):
    from highlevel.backends.contract import tree

    shapes = [t.shape for t in tree.flatten(struct)[0] if hasattr(t, "shape")]
    text = ", ".join(str(tuple(s)).replace(",)", ")") if s else "()" for s in shapes)
    return text if len(shapes) == 1 else f"[{text}]"


def _rows(model, functional):
    rows = []
    graph = getattr(model, "_graph", None) or (model if hasattr(model, "_nodes") else None)
    if graph is not None and hasattr(graph, "_nodes"):
        node_index = {}
        for node in graph._nodes:
            op = node.operation
            is_layer = isinstance(op, Layer)
            if isinstance(op, InputLayer) and not functional:
                continue
            name = f"{op.name} ({type(op).__name__})" if is_layer else f"{op.name} (Operation)"
            params = _count(op) if is_layer else 0
            parents = []
            for t in node.input_tensors:
                if t._history is not None:
                    parent_node, idx = t._history
                    pop = parent_node.operation
                    parents.append(f"{getattr(pop, 'name', '?')}[{node_index.get(id(parent_node), 0)}][{idx}]")
            if is_layer:
                node_index[id(node)] = sum(1 for n in op._inbound_nodes[: op._inbound_nodes.index(node)])
            rows.append((name, _shape_text(node.outputs), params, ", ".join(parents) or "-", _trainable(op)))
        return rows
    for layer in model.layers:
        params = _count(layer) if layer.built else "0 (unbuilt)"
        rows.append((f"{layer.name} ({type(layer).__name__})", "?", params, "-", _trainable(layer)))
    return rows


def _select(rows, layer_range):
    """The rows from the layer named ``layer_range[0]`` to the one named ``layer_range[1]``, both included."""
    if layer_range is None:
        return rows
    if (
        not isinstance(layer_range, (list, tuple))
        or len(layer_range) != 2
        or not all(isinstance(n, str) for n in layer_range)
    ):
        raise ValueError(f"summary(layer_range=...) takes two layer names [first, last]; received {layer_range!r}.")
    names = [row[0].split(" (", 1)[0] for row in rows]
    positions = []
    for wanted in layer_range:
        if wanted not in names:
            raise ValueError(
                f"summary(layer_range=...): no layer named {wanted!r} in this model; its layers are {names}."
            )
        positions.append(names.index(wanted))
    first, last = positions
    if last < first:
        raise ValueError(
            f"summary(layer_range={list(layer_range)!r}): {layer_range[1]!r} comes before "
            f"{layer_range[0]!r}; give the first layer first."
        )
    return rows[first : last + 1]


def _human_bytes(n):
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.2f} {unit}" if unit != "B" else f"{n} B"
        n /= 1024


def render_summary(model, line_length=None, print_fn=None, show_trainable=False, return_string=False, layer_range=None):
    from rich import box
    from rich.console import Console
    from rich.table import Table

    functional = hasattr(model, "_nodes")
    title = f'Model: "{model.name}"'
    table = Table(title=title, box=box.ROUNDED, title_justify="left")
    table.add_column("Layer (type)", overflow="fold")
    table.add_column("Output Shape", overflow="fold")
    table.add_column("Param #", justify="right")
    if functional:
        table.add_column("Connected to", overflow="fold")
    if show_trainable:
        table.add_column("Trainable")
    for name, shape, params, connected, trainable in _select(_rows(model, functional), layer_range):
        cells = [name, shape, params if isinstance(params, str) else f"{params:,}"]
        if functional:
            cells.append(connected)
        if show_trainable:
            cells.append("Y" if trainable is True else "N" if trainable is False else "-")
        table.add_row(*cells)

    def size_of(weights):
        count = total_bytes = 0
        for v in weights:
            n = 1
            for d in v.shape:
                n *= d
            count += n
            total_bytes += n * _itemsize(v.dtype)
        return count, total_bytes

    trainable = size_of(model.trainable_weights)
    non_trainable = size_of(model.non_trainable_weights)
    total = (trainable[0] + non_trainable[0], trainable[1] + non_trainable[1])
    footer = (
        f" Total params: {total[0]:,} ({_human_bytes(total[1])})\n"
        f" Trainable params: {trainable[0]:,} ({_human_bytes(trainable[1])})\n"
        f" Non-trainable params: {non_trainable[0]:,} ({_human_bytes(non_trainable[1])})"
    )
    width = line_length or 100
    if print_fn is not None or return_string:
        buf = io.StringIO()
        # force_jupyter=False: in a notebook, rich would otherwise display the table itself and write nothing
        # into buf (the string came back empty)
        console = Console(file=buf, width=width, force_terminal=False, force_jupyter=False, color_system=None)
        console.print(table)
        console.print(footer, highlight=False)
        text = buf.getvalue()
        if return_string:
            return text
        print_fn(text)
        return None
    console = Console(width=line_length) if line_length else Console()
    console.print(table)
    console.print(footer, highlight=False)
    return None


def _itemsize(dtype):
    import numpy as np

    if dtype == "bfloat16":
        return 2
    return np.dtype(dtype).itemsize
