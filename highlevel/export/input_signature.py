"""The input signature of an export: what a model's serving function takes, with the batch size left free.

A signature is a list with one entry per positional argument of the function; each entry is a structure (a
tensor, a list, a dict, ...) of :class:`~highlevel.backends.contract.ShapeSpec`, whose ``None`` sizes stay free in
the artifact.

>>> import highlevel as hl
>>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
>>> model_signature(model)
[ShapeSpec(shape=(None, 3), dtype='float32')]
"""

from highlevel import tree
from highlevel.backends.contract import ShapeSpec
from highlevel.backends.contract import dtypes as _dtypes


def to_spec(value, where="input_signature"):
    """One :class:`ShapeSpec` from anything with a ``shape`` and a ``dtype``: an ``hl.InputSpec``, a symbolic
    tensor (``hl.Input``), a ``tf.TensorSpec``, a tensor or an array."""
    shape = getattr(value, "shape", None)
    dtype = getattr(value, "dtype", None)
    if shape is None or isinstance(value, (str, bytes)):
        raise ValueError(
            f"{where}: each input must be described by an object with a shape and a dtype (hl.InputSpec(shape=..., "
            f"dtype=...), hl.Input(...), tf.TensorSpec, a tensor or an array); received {value!r} of type "
            f"{type(value).__name__}. Give the shape with None for the batch size, e.g. "
            "hl.InputSpec(shape=(None, 4), dtype='float32')."
        )
    try:
        dims = tuple(None if d is None else int(d) for d in shape)
    except TypeError as err:
        raise ValueError(f"{where}: the shape {shape!r} of {value!r} is not a sequence of sizes and None.") from err
    return ShapeSpec(dims, _dtypes.standardize_dtype(dtype if dtype is not None else "float32"))


def _is_shape(value):
    return isinstance(value, (tuple, list)) and all(d is None or isinstance(d, int) for d in value)


def model_signature(model):
    """The signature of ``model``'s call, the batch size free: one argument, the structure of its inputs (a graph
    model's ``hl.Input`` tensors, or the shapes a subclassed model was built with)."""
    if not getattr(model, "built", False):
        raise ValueError(
            f"The model {model.name!r} has not been built yet, so its input shapes are unknown. Call it once on "
            "data (or build it, or give it an hl.Input) before exporting it, or pass input_signature=."
        )
    structure = getattr(model, "_inputs_struct", None)  # a functional model's hl.Input structure
    if structure is None and getattr(model, "_graph", None) is not None:  # a Sequential model given an hl.Input
        inputs = model.inputs
        structure = inputs[0] if len(inputs) == 1 else list(inputs)
    if structure is not None:
        spec = tree.map_structure(to_spec, structure)
    else:
        shapes = getattr(model, "_build_shapes", None)
        if shapes is None:
            raise ValueError(
                f"The input shapes of the model {model.name!r} are unknown (it was built without being called). Call "
                "it once on data before exporting it, or pass input_signature=."
            )
        dtype = getattr(model, "input_dtype", None) or "float32"
        spec = _shapes_to_specs(shapes, dtype)
    return [_free_batch(spec)]


def _shapes_to_specs(shapes, dtype):
    if _is_shape(shapes):
        return ShapeSpec(tuple(shapes), _dtypes.standardize_dtype(dtype))
    if isinstance(shapes, dict):
        return {k: _shapes_to_specs(v, dtype) for k, v in shapes.items()}
    if isinstance(shapes, (tuple, list)):
        return type(shapes)(_shapes_to_specs(v, dtype) for v in shapes)
    raise ValueError(f"Cannot read an input shape from {shapes!r}; pass input_signature= to export.")


def _free_batch(spec):
    return tree.map_structure(lambda s: ShapeSpec((None,) + tuple(s.shape[1:]), s.dtype) if s.shape else s, spec)


def standardize_signature(input_signature, model=None):
    """The signature an export uses: ``model``'s own when ``input_signature`` is None; otherwise the given one, a
    list or tuple of positional arguments (a single spec counts as one argument)."""
    if input_signature is None:
        if model is None:
            raise ValueError("input_signature is required here: a list of hl.InputSpec, one per argument.")
        return model_signature(model)
    if not isinstance(input_signature, (list, tuple)):
        input_signature = [input_signature]
    return [tree.map_structure(to_spec, arg) for arg in input_signature]
