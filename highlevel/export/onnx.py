"""``model.export(path, format="onnx")``: an ONNX file for serving, from any of the four engines.

An engine that lists ``"onnx"`` in its ``export_formats`` writes the file with its own converter (``export_onnx`` of
the backend contract: ``torch.onnx`` on PyTorch, tf2onnx on TensorFlow); both trace the model, so any layer
exports. On the others (the native engine; JAX, whose path through TensorFlow graphs jax2tf no longer writes)
the file is written from the model's layer graph (:mod:`highlevel.export.onnx_graph`), with no framework; a
subclassed model, which has no layer graph, is rebuilt from its config and weights on an engine with a converter
and traced there. Either way the file then gets the same interface: inputs named as the model's inputs, outputs
``output_0``, ``output_1``..., and a batch axis named ``"batch"`` that takes any size. ``onnx.checker`` checks the
file, and onnxruntime (when installed) runs it once on another batch size, before it is written.

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

#: The opset written when none is asked for (LayerNormalization needs 17).
DEFAULT_OPSET = 17


def _require_onnx():
    try:
        import onnx
    except ImportError:
        raise ImportError(
            "Exporting to ONNX needs the `onnx` package (and, per engine, onnxscript for PyTorch, tf2onnx for "
            "TensorFlow). Install them with `pip install highlevel[onnx]`."
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
        opset_version: the ONNX opset (default 17).
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
    fn = _inference_fn(model, len(specs))
    directory = os.path.dirname(os.path.abspath(filepath))
    os.makedirs(directory, exist_ok=True)
    backend = current_backend()
    if FORMAT in backend.export_formats:
        backend.export_onnx(model, fn, filepath, specs, opset)
        proto = onnx.load(filepath)
    else:
        from .onnx_graph import UnmappedLayerError, has_layer_graph, onnx_model

        try:
            if not has_layer_graph(model):
                raise UnmappedLayerError(f"the subclassed model {model.name!r} has no layer graph to write")
            proto = onnx_model(model, specs, opset)
        except UnmappedLayerError:
            # A subclassed model, or a layer the graph writer does not map (a recurrent layer, attention...): the
            # model is traced on an engine with a converter instead. (engines_writing imports every installed
            # engine: asked only here.)
            engines = engines_writing(FORMAT)
            if not engines:
                raise
            signature = [ShapeSpec(shape, dtype) for _, shape, dtype in specs]
            moved = rebuild_on(model, engines[0])
            with backend_scope(engines[0]):
                return export_onnx(moved, filepath, signature, verbose, opset_version)
    _standardize_interface(proto, specs)
    try:
        onnx.checker.check_model(proto)
    except onnx.checker.ValidationError as err:
        # The engine's converter left an operation ONNX lacks; another engine's may trace it out (torch unrolls the
        # loops of recurrent layers that tf2onnx keeps).
        others = [name for name in engines_writing(FORMAT) if name != backend.name]
        if others:
            signature = [ShapeSpec(shape, dtype) for _, shape, dtype in specs]
            try:
                moved = rebuild_on(model, others[0])
            except ValueError:
                moved = None  # an unregistered class: the converter's own reason below says more
            if moved is not None:
                with backend_scope(others[0]):
                    return export_onnx(moved, filepath, signature, verbose, opset_version)
        raise ValueError(
            f"The ONNX program written for model {model.name!r} on the {backend.name!r} backend is not valid ONNX "
            f"(opset {opset}): {err}. Its converter left an operation ONNX does not have (TensorFlow's loops of "
            "recurrent layers, for instance); export the model from another backend (torch traces loops out)."
        ) from None
    _check_open_batch(proto, specs)
    onnx.save(proto, filepath)
    if verbose is None or verbose:
        names = ", ".join(f"{n}: {tuple(s)} {d}" for n, s, d in specs)
        print(f"Saved an ONNX model (opset {opset}) at {filepath!r}; inputs: {names}.")
    return filepath
