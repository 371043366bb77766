"""Shape and dtype inference for ops on symbolic tensors, by running the op on placeholder values.

Rather than a shape rule per op, an op called on KerasTensors runs once on the native engine (numpy, always
installed) with zero-filled placeholders. Unknown dimensions (None) are tried with two different sizes;
an output dimension that follows them is unknown too. This keeps "one function per op" true for symbolic
tensors: adding an op needs no separate shape rule.

A layer whose ``call()`` uses the framework's own functions (``jnp.*``, ``tf.*``, ``torch.*``) cannot run on
placeholders of the front end: :func:`engine_output_spec` then has the current engine evaluate it abstractly
(its ``abstract_call``) and turns the shapes it reports back into KerasTensors.
"""

import numpy as np

from highlevel.backends import registry
from highlevel.backends.contract import ShapeSpec, Variable, tree
from highlevel.config import current_backend

from .keras_tensor import FrameworkConversion, KerasTensor

_TRIAL_SIZES = (2, 3)


def _placeholders(structure, fill, current):
    def convert(x):
        if isinstance(x, KerasTensor):
            shape = tuple(fill if d is None else d for d in x.shape)
            return np.zeros(shape, dtype=_np_dtype(x.dtype))
        if isinstance(x, Variable):
            return x.numpy()
        if current is not None and current.is_tensor(x):
            return current.to_numpy(x)
        return x

    return tree.map_structure(convert, structure)


def _np_dtype(name):
    if name == "bfloat16":
        import ml_dtypes  # present wherever bfloat16 tensors exist

        return ml_dtypes.bfloat16
    return np.dtype(name)


def _has_unknown(structure):
    leaves, _ = tree.flatten(structure)
    return any(isinstance(x, KerasTensor) and None in x.shape for x in leaves)


def compute_output_spec(method_name, args, kwargs, current=None):
    """Returns KerasTensors (in the op's output structure) describing ``method_name(*args, **kwargs)``."""
    return spec_of_function(getattr(registry.get("native"), method_name), args, kwargs, current)


def spec_of_function(method, args, kwargs, current=None):
    """Returns KerasTensors describing ``method(*args, **kwargs)``, ``method`` being a function that computes on
    the native engine's arrays (a contract method, or a user's ``call`` run inside the native engine's scope)."""
    native = registry.get("native")
    runs = []
    sizes = _TRIAL_SIZES if _has_unknown((args, kwargs)) else _TRIAL_SIZES[:1]
    with np.errstate(all="ignore"):
        for fill in sizes:
            a = _placeholders(args, fill, current)
            k = _placeholders(kwargs, fill, current)
            out = method(*a, **k)
            runs.append(tree.flatten(out))
    leaves, treedef = runs[0]
    specs = []
    for i, leaf in enumerate(leaves):
        shape = list(native.shape(leaf))
        for other_leaves, _ in runs[1:]:
            other = native.shape(other_leaves[i])
            shape = [d if d == o else None for d, o in zip(shape, other)]
        specs.append(KerasTensor(tuple(shape), native.dtype(leaf)))
    return tree.unflatten(treedef, specs)


def _framework_signal(err):
    # Some frameworks report a conversion of a foreign object in their own words (JAX: "__jax_array__").
    return isinstance(err, FrameworkConversion) or "__jax_array__" in str(err) or "KerasTensor" in str(err)


def engine_output_spec(fn, args, kwargs, error):
    """KerasTensors describing ``fn(*args, **kwargs)`` as the current engine evaluates it abstractly.

    ``error`` is what running ``fn`` on symbolic placeholders raised; when the engine cannot evaluate ``fn`` either,
    the more telling of the two errors is raised: the engine's when ``error`` was a framework meeting a symbolic
    tensor, ``error`` itself otherwise.
    """
    engine = current_backend()
    to_spec = lambda x: ShapeSpec(x.shape, x.dtype) if isinstance(x, KerasTensor) else x
    try:
        out = engine.abstract_call(fn, tree.map_structure(to_spec, args), tree.map_structure(to_spec, kwargs))
    except Exception as engine_error:
        if _framework_signal(error):
            raise engine_error from error
        raise error from None
    return tree.map_structure(lambda x: KerasTensor(x.shape, x.dtype) if isinstance(x, ShapeSpec) else x, out)
