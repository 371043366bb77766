"""``model.export(path, format="onnx")``: an ONNX file for serving, from any of the four engines.

An engine that lists ``"onnx"`` in its ``export_formats`` writes the file with its own converter (``export_onnx`` of
the backend contract: ``torch.onnx`` on PyTorch, tf2onnx on TensorFlow, jax2onnx on JAX); each traces the model, so
any layer they map exports. The native engine, and any model a converter fails on, get the file written from the
model's layer graph (:mod:`highlevel.export.onnx_graph`), with no framework; a subclassed model, which has no layer
graph, is rebuilt from its config and weights on an engine with a converter and traced there. Whichever writer
succeeds, the file gets the same interface: inputs named as the model's inputs, outputs ``output_0``,
``output_1``..., and a batch axis named ``"batch"`` that takes any size. ``onnx.checker`` checks the file, and
onnxruntime (when installed) runs it once on another batch size, before it is written; a file that fails either
passes the model on to the next writer.

>>> import os, tempfile
>>> import highlevel as hl
>>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
>>> path = os.path.join(tempfile.mkdtemp(), "model.onnx")
>>> _ = export_onnx(model, path, verbose=False)
>>> os.path.getsize(path) > 0
True
"""

import os

from highlevel.backends.contract import ShapeSpec
from highlevel.config import backend_scope, current_backend

from .engines import engines_writing, rebuild_on

#: the name of the format in ``model.export`` and in an engine's ``export_formats``
FORMAT = "onnx"

#: The opset written when none is asked for (LayerNormalization needs 17; jax2onnx writes reductions with their axes
#: as an input, which is opset 18).
DEFAULT_OPSET = 18


def _require_onnx():
    try:
        import onnx
    except ImportError:
        from highlevel._extras import install_command

        raise ImportError(
            "Exporting to ONNX needs the `onnx` package (and, per engine, onnxscript for PyTorch, tf2onnx for "
            f"TensorFlow). Install them with the onnx extra: {install_command('onnx')}."
        ) from None
    return onnx


def input_specs(model, input_signature=None):
    """One ``(name, shape, dtype)`` per model input, batch axis open: from ``input_signature`` when given (one spec
    per input, or a structure of them), else from the model's inputs (the shapes it was built with for a
    subclassed model)."""
    from highlevel import tree

    from .input_signature import standardize_signature

    leaves = tree.flatten(standardize_signature(input_signature, model))
    for i, spec in enumerate(leaves):
        if not spec.shape:
            raise ValueError(
                f"input_signature: input {i} is a scalar (shape {spec.shape}); an exported model's inputs need a batch "
                "axis first, e.g. hl.InputSpec(shape=(None, 4))."
            )
    names = [getattr(kt, "name", None) for kt in (getattr(model, "inputs", None) or [])]
    if not (
        len(names) == len(leaves) and all(isinstance(n, str) and n for n in names) and len(set(names)) == len(names)
    ):
        names = [f"input_{i}" for i in range(len(leaves))]
    return [(name, (None,) + tuple(spec.shape[1:]), spec.dtype) for name, spec in zip(names, leaves)]


def _inference_fn(model, n_inputs):
    """A function of one tensor per input that calls the model in inference mode and returns a flat tuple."""
    from highlevel import tree

    def fn(*xs):
        out = model(xs[0] if n_inputs == 1 else list(xs), training=False)
        return tuple(tree.flatten(out))

    return fn


def _standardize_interface(proto, specs):
    """Names the outputs ``output_<i>`` and every open batch axis ``"batch"``, in place."""
    graph = proto.graph
    rename = {}
    for i, out in enumerate(graph.output):
        if out.name != f"output_{i}":
            rename[out.name] = f"output_{i}"
    if rename:
        for node in graph.node:
            for k, name in enumerate(node.output):
                if name in rename:
                    node.output[k] = rename[name]
            for k, name in enumerate(node.input):
                if name in rename:
                    node.input[k] = rename[name]
        for out in graph.output:
            out.name = rename.get(out.name, out.name)
    for value in list(graph.input) + list(graph.output):
        dims = value.type.tensor_type.shape.dim
        if dims and not dims[0].HasField("dim_value"):
            dims[0].dim_param = "batch"


#: the batch size the written file is run on once, to show that its batch axis is open (a tracer traces with 2)
CHECK_BATCH = 3


def _check_open_batch(proto, specs):
    """Runs the file once with onnxruntime (when installed) on a batch of :data:`CHECK_BATCH` rows: a program
    whose tracer turned the batch size into a constant (a layer that sizes a tensor from its input's batch) fails
    here, at export, not in the serving runtime."""
    try:
        import onnxruntime
    except ImportError:
        return
    import numpy as np

    feeds = {name: np.zeros((CHECK_BATCH,) + tuple(shape[1:]), dtype=np.dtype(dtype)) for name, shape, dtype in specs}
    try:
        session = onnxruntime.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
        outputs = session.run(None, feeds)
    except Exception as err:
        raise ValueError(
            f"The exported ONNX program does not run on a batch of {CHECK_BATCH} rows ({type(err).__name__}: {err}). "
            "A layer of the model most likely sizes a tensor from its input's batch size, which the tracer recorded "
            "as a constant. Export from an engine that writes the layer graph "
            "(native), or give that layer's sizes with -1 instead of the batch size."
        ) from None
    for i, out in enumerate(outputs):
        if np.ndim(out) and np.shape(out)[0] != CHECK_BATCH:
            raise ValueError(
                f"The exported ONNX program's output {i} has {np.shape(out)[0]} rows for a batch of {CHECK_BATCH}: "
                "its batch size was recorded as a constant. Export from an engine that writes the layer graph "
                "(native), or give the layer's sizes with -1 instead of the batch size."
            )


def export_onnx(model, filepath, input_signature=None, verbose=None, opset_version=None, **kwargs):
    """Writes ``model`` as an ONNX file that runs its inference on any batch size.

    Args:
        model: a built highlevel model (any kind on the torch and tensorflow backends; Sequential or functional on
            native and JAX, see the module docstring).
        filepath: the ``.onnx`` file to write.
        input_signature: one spec per model input (``hl.InputSpec``, a KerasTensor, a ``tf.TensorSpec``...); the
            default takes the model's own inputs. The first axis is the batch axis and is left open.
        verbose: print where the file went (None: yes).
        opset_version: the ONNX opset (default 18).
        **kwargs: none are used; an unknown one is an error.

    Returns:
        ``filepath``.

    Example:

    >>> import os, tempfile
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(1)])
    >>> export_onnx(model, os.path.join(tempfile.mkdtemp(), "m.onnx"), verbose=False).endswith("m.onnx")
    True
    """
    if kwargs:
        raise TypeError(
            f"export_onnx got unexpected keyword arguments {sorted(kwargs)}; it takes input_signature, verbose and "
            "opset_version."
        )
    onnx = _require_onnx()
    filepath = os.fspath(filepath)
    opset = DEFAULT_OPSET if opset_version is None else int(opset_version)
    specs = input_specs(model, input_signature)
    directory = os.path.dirname(os.path.abspath(filepath))
    os.makedirs(directory, exist_ok=True)
    reasons = []
    written = _write_from_any_engine(onnx, model, filepath, specs, opset, tried=set(), reasons=reasons)
    if written is None:
        raise ValueError(
            f"No writer could export model {model.name!r} to ONNX (opset {opset}): "
            + "; ".join(reasons)
            + ". Register the model's custom classes (hl.saving.register_keras_serializable) so that it can be "
            "rebuilt on an engine whose converter traces any layer (torch), or build it there and export it."
        )
    proto, _ = written
    onnx.save(proto, filepath)
    if verbose is None or verbose:
        names = ", ".join(f"{n}: {tuple(s)} {d}" for n, s, d in specs)
        print(f"Saved an ONNX model (opset {opset}) at {filepath!r}; inputs: {names}.")
    return filepath


def _checked(onnx, proto, specs):
    """``proto`` with the standard interface, once it passes ``onnx.checker`` and runs on an open batch."""
    _standardize_interface(proto, specs)
    onnx.checker.check_model(proto)
    _check_open_batch(proto, specs)
    return proto


def _write_from_any_engine(onnx, model, filepath, specs, opset, tried, reasons):
    """``(proto, engine)``: the ONNX program of ``model`` from the first writer that gives a valid, runnable file,
    or None when none does (``reasons`` then says why, writer by writer).

    The order: the current engine's own converter (torch.onnx, tf2onnx, jax2onnx), then the layer-graph writer
    (no framework), then the model rebuilt on each other engine with a converter. A converter that fails or writes a
    file ONNX or onnxruntime refuses (TensorFlow's loops of recurrent layers, a pooling window jax2onnx maps to a
    4-d MaxPool...) hands over to the next; when none succeeds, the error lists every writer's reason.
    """
    from .onnx_graph import UnmappedLayerError, has_layer_graph, onnx_model

    backend = current_backend()
    tried.add(backend.name)
    if FORMAT in backend.export_formats:
        try:
            backend.export_onnx(model, _inference_fn(model, len(specs)), filepath, specs, opset)
            return _checked(onnx, onnx.load(filepath), specs), backend
        except Exception as err:  # any converter failure hands over to the next writer, and is reported if all fail
            reasons.append(f"the {backend.name} converter: {type(err).__name__}: {_short(err)}")
    if "graph" not in tried:
        tried.add("graph")
        try:
            if not has_layer_graph(model):
                raise UnmappedLayerError(f"the subclassed model {model.name!r} has no layer graph to write")
            return _checked(onnx, onnx_model(model, specs, opset), specs), backend
        except (UnmappedLayerError, onnx.checker.ValidationError, ValueError) as err:
            reasons.append(f"the layer-graph writer: {_short(err)}")
    # engines_writing imports every installed engine: asked only here.
    signature = [ShapeSpec(shape, dtype) for _, shape, dtype in specs]
    for name in [name for name in engines_writing(FORMAT) if name not in tried]:
        if name in tried:  # a nested attempt has tried it meanwhile
            continue
        try:
            moved = rebuild_on(model, name)
        except ValueError as err:
            reasons.append(_short(err, 600))
            break  # the same classes cannot move to any other engine either
        with backend_scope(name):
            moved_specs = input_specs(moved, signature)
            written = _write_from_any_engine(onnx, moved, filepath, moved_specs, opset, tried, reasons)
        if written is not None:
            return written
    return None


def _short(err, limit=400):
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return text if len(text) <= limit else text[:limit] + "..."
