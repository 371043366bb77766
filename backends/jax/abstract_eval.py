"""JAX's abstract evaluation: ``jax.eval_shape`` traces a function without computing anything.

>>> from highlevel.backends import registry
>>> from highlevel.backends.contract import ShapeSpec
>>> import jax.numpy as jnp
>>> registry.get("jax").abstract_call(lambda x: jnp.sum(x, axis=-1), (ShapeSpec((None, 4), "float32"),), {})
ShapeSpec(shape=(None,), dtype='float32')
"""

import jax

from highlevel.backends.contract import dtypes, tree
from highlevel.backends.contract.abstract_eval import TRIAL_SIZES, ShapeSpec, has_unknown, merge_runs, trial_shape


def _spec_of(x):
    if isinstance(x, jax.ShapeDtypeStruct):
        return ShapeSpec(tuple(x.shape), dtypes.standardize_dtype(str(x.dtype)))
    return None


class JaxAbstractEvalMixin:
    def abstract_call(self, fn, args, kwargs):
        # Only the ShapeSpec leaves become traced arguments; everything else (variables, Python values) is closed
        # over, so that a layer's Python code sees its own objects.
        leaves, treedef = tree.flatten((args, kwargs))
        positions = [i for i, x in enumerate(leaves) if isinstance(x, ShapeSpec)]
        sizes = TRIAL_SIZES if has_unknown((args, kwargs)) else TRIAL_SIZES[:1]

        def run(*traced):
            filled = list(leaves)
            for i, t in zip(positions, traced):
                filled[i] = t
            a, k = tree.unflatten(treedef, filled)
            return fn(*a, **k)

        runs = []
        for size in sizes:
            structs = [
                jax.ShapeDtypeStruct(trial_shape(leaves[i], size), dtypes.standardize_dtype(leaves[i].dtype))
                for i in positions
            ]
            runs.append(tree.flatten(jax.eval_shape(run, *structs)))
        return merge_runs(runs, _spec_of)
