"""TensorFlow's abstract evaluation: a graph trace with unknown dimensions left unknown (``tf.TensorSpec`` with None).

>>> from highlevel.backends import registry
>>> from highlevel.backends.contract import ShapeSpec
>>> import tensorflow as tf
>>> spec = ShapeSpec((None, 4), "float32")
>>> registry.get("tensorflow").abstract_call(lambda x: tf.reduce_sum(x, axis=-1), (spec,), {})
ShapeSpec(shape=(None,), dtype='float32')
"""

import tensorflow as tf

from highlevel.backends.contract import dtypes, tree
from highlevel.backends.contract.abstract_eval import AbstractEvalContract, ShapeSpec


def _spec_of(x):
    if isinstance(x, (tf.Tensor, tf.Variable)):
        return ShapeSpec(
            tuple(x.shape.as_list()) if x.shape.rank is not None else (), dtypes.standardize_dtype(x.dtype.name)
        )
    return None


class TensorFlowAbstractEvalMixin:
    def abstract_call(self, fn, args, kwargs):
        leaves, treedef = tree.flatten((args, kwargs))
        positions = [i for i, x in enumerate(leaves) if isinstance(x, ShapeSpec)]
        signature = [tf.TensorSpec(leaves[i].shape, dtypes.standardize_dtype(leaves[i].dtype)) for i in positions]
        captured = {}

        def run(*traced):
            filled = list(leaves)
            for i, t in zip(positions, traced):
                filled[i] = t
            a, k = tree.unflatten(treedef, filled)
            out = fn(*a, **k)
            out_leaves, out_def = tree.flatten(out)
            captured["result"] = ([_spec_of(x) or x for x in out_leaves], out_def)
            return [x for x in out_leaves if isinstance(x, (tf.Tensor, tf.Variable))]

        try:
            tf.function(run, input_signature=signature, autograph=False).get_concrete_function()
        except (TypeError, ValueError):
            # Python code that needs a known size where the graph has None: run on zeros of trial sizes instead.
            return AbstractEvalContract.abstract_call(self, fn, args, kwargs)
        out_leaves, out_def = captured["result"]
        return tree.unflatten(out_def, out_leaves)
