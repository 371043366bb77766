"""Abstract evaluation: the shapes and dtypes a function of tensors returns, found by the engine itself.

A layer whose ``call()`` uses the framework's own functions (``jnp.*``, ``tf.*``, ``torch.*``) cannot run on the
front end's symbolic placeholders. When a model is built from ``Input``, such a call is evaluated through
:meth:`AbstractEvalContract.abstract_call` instead: the engine runs it on values of the given shapes and dtypes and
reports the shapes and dtypes that come out. The generic definition runs the function on zeros, once per trial
size when a dimension is unknown (a dimension of the result that changes with the trial size is unknown too);
an engine overrides it with its own abstract evaluation (JAX's ``eval_shape``, a TensorFlow graph trace).

>>> from highlevel.backends import registry
>>> native = registry.get("native")
>>> out = native.abstract_call(lambda x: native.concatenate([x, x], axis=1), (ShapeSpec((None, 3), "float32"),), {})
>>> out
ShapeSpec(shape=(None, 6), dtype='float32')
"""

import dataclasses

from . import dtypes, tree


@dataclasses.dataclass(frozen=True)
class ShapeSpec:
    """A tensor described by its shape (None for an unknown size) and dtype name, with no values."""

    shape: tuple
    dtype: str


#: The sizes an unknown dimension takes in the trial runs: two different ones, large enough for small kernels.
TRIAL_SIZES = (7, 11)


def has_unknown(structure):
    """True when a :class:`ShapeSpec` in ``structure`` has an unknown (None) dimension."""
    return any(isinstance(x, ShapeSpec) and None in x.shape for x in tree.flatten(structure)[0])


def trial_shape(spec, size):
    """``spec``'s shape with each unknown dimension set to ``size``."""
    return tuple(size if d is None else int(d) for d in spec.shape)


def merge_runs(runs, to_spec):
    """One output structure of :class:`ShapeSpec` from the flattened outputs of several trial runs: a dimension that
    differs between runs is unknown. ``to_spec(leaf)`` gives a leaf's ShapeSpec, or None for a non-tensor leaf, which
    is kept as the first run gave it."""
    leaves, treedef = runs[0]
    out = []
    for i, leaf in enumerate(leaves):
        spec = to_spec(leaf)
        if spec is None:
            out.append(leaf)
            continue
        shape = list(spec.shape)
        for other_leaves, _ in runs[1:]:
            other = to_spec(other_leaves[i]).shape
            if len(other) != len(shape):
                raise ValueError(
                    f"abstract evaluation: an output's rank depends on the size of an unknown input dimension "
                    f"({tuple(spec.shape)} vs {tuple(other)}); give the Input a fixed size for that dimension."
                )
            shape = [d if d == o else None for d, o in zip(shape, other)]
        out.append(ShapeSpec(tuple(shape), spec.dtype))
    return tree.unflatten(treedef, out)


class AbstractEvalContract:
    """The shapes and dtypes a function returns, without the front end's placeholders."""

    def abstract_call(self, fn, args, kwargs):
        """Evaluates ``fn(*args, **kwargs)`` for shapes and dtypes only.

        Args:
            fn: a function of this engine's tensors (a layer's ``call``).
            args, kwargs: its arguments; each :class:`ShapeSpec` leaf stands for a tensor of that shape and dtype
                (None dimensions unknown); other leaves (variables, tensors, Python values) are passed as they are.

        Returns:
            ``fn``'s output structure with a :class:`ShapeSpec` for each tensor (None where a dimension depends on
            an unknown input size) and other leaves as ``fn`` returned them.
        """
        sizes = TRIAL_SIZES if has_unknown((args, kwargs)) else TRIAL_SIZES[:1]
        runs = []
        for size in sizes:

            def materialize(x, size=size):
                if isinstance(x, ShapeSpec):
                    return self.zeros(trial_shape(x, size), x.dtype)
                return x

            a = tree.map_structure(materialize, args)
            k = tree.map_structure(materialize, kwargs)
            runs.append(tree.flatten(fn(*a, **k)))
        return merge_runs(runs, self._abstract_spec_of)

    def _abstract_spec_of(self, x):
        if self.is_tensor(x):
            return ShapeSpec(tuple(self.shape(x)), self.dtype(x))
        if hasattr(x, "shape") and hasattr(x, "dtype"):  # an array of the host (numpy) that the engine accepts
            return ShapeSpec(tuple(int(d) for d in x.shape), dtypes.standardize_dtype(str(x.dtype)))
        return None
