"""Serving artifacts from JAX: a ``jax.export`` program (StableHLO), and a TensorFlow SavedModel through ``jax2tf``.

Both trace the model's function with symbolic sizes where the signature says ``None``: ``b`` for the batch (the
first axis), ``d<arg>_<axis>`` for any other.

>>> polymorphic_shape(ShapeSpecLike((None, 3)), 0)
'(b, 3)'
"""

import collections
import importlib.util

import numpy as np

from highlevel.backends.contract import StatelessScope

ShapeSpecLike = collections.namedtuple("ShapeSpecLike", "shape dtype", defaults=("float32",))


def polymorphic_shape(spec, position):
    """The shape of ``spec`` as ``jax.export`` writes a symbolic one: ``None`` becomes ``b`` on axis 0."""
    dims = [
        str(d) if d is not None else ("b" if axis == 0 else f"d{position}_{axis}") for axis, d in enumerate(spec.shape)
    ]
    return "(" + ", ".join(dims) + (",)" if len(dims) == 1 else ")")


def _leaves_with_positions(tree_util, signature):
    leaves, treedef = tree_util.tree_flatten(list(signature), is_leaf=lambda s: hasattr(s, "shape"))
    return leaves, treedef


class JaxExportOps:
    export_formats = {"jax_export": "graph", "tf_saved_model": "converted"}
    if importlib.util.find_spec("jax2onnx") is not None:  # the onnx extra's converter for JAX (onnx_export.py)
        export_formats["onnx"] = "converted"

    def export_stablehlo(self, filepath, fn, signature, options):
        import jax
        from jax import export

        options = dict(options)
        leaves, treedef = _leaves_with_positions(jax.tree_util, signature)
        scope = export.SymbolicScope()
        structs = [
            jax.ShapeDtypeStruct(export.symbolic_shape(polymorphic_shape(s, i), scope=scope), s.dtype)
            for i, s in enumerate(leaves)
        ]
        args = jax.tree_util.tree_unflatten(treedef, structs)
        exported = export.export(jax.jit(lambda *a: fn(*a)), **options)(*args)
        with open(filepath, "wb") as f:
            f.write(exported.serialize())

    def export_saved_model(self, filepath, endpoints, variables, collections, options):
        import jax
        import tensorflow as tf
        from jax.experimental import jax2tf

        options = dict(options)
        save_options = options.pop("options", None)
        jax2tf_kwargs = dict(options.pop("jax2tf_kwargs", None) or {})
        options.pop("is_static", None)  # reads of the variables are all the function does here
        if options:
            raise ValueError(
                f"Unknown options for a SavedModel written from JAX: {sorted(options)}. Accepted: jax2tf_kwargs, "
                "is_static, options."
            )
        every = list(variables)
        for group in collections.values():
            every += [v for v in group if all(v is not w for w in every)]
        tf_variables = [
            tf.Variable(np.asarray(v.value), trainable=v.trainable, name=v.name.replace("/", "_")) for v in every
        ]
        by_id = {id(v): t for v, t in zip(every, tf_variables)}
        root = tf.__internal__.tracking.AutoTrackable()  # unlike tf.Module, its ``variables`` can be set
        root.variables = [by_id[id(v)] for v in variables]
        root.trainable_variables = [by_id[id(v)] for v in variables if v.trainable]
        root.non_trainable_variables = [by_id[id(v)] for v in variables if not v.trainable]
        for name, group in collections.items():
            setattr(root, name, [by_id[id(v)] for v in group])
        serving_default = None
        for name, fn, signature in endpoints:
            function = self._converted_endpoint(jax, tf, jax2tf, fn, signature, every, tf_variables, jax2tf_kwargs)
            setattr(root, name, function)
            if serving_default is None:
                serving_default = function
        tf.saved_model.save(root, filepath, signatures={"serving_default": serving_default}, options=save_options)

    @staticmethod
    def _converted_endpoint(jax, tf, jax2tf, fn, signature, variables, tf_variables, jax2tf_kwargs):
        def pure(values, *args):
            with StatelessScope(list(zip(variables, values))):
                return fn(*args)

        leaves, treedef = _leaves_with_positions(jax.tree_util, signature)
        shapes = jax.tree_util.tree_unflatten(treedef, [polymorphic_shape(s, i) for i, s in enumerate(leaves)])
        kwargs = {"polymorphic_shapes": [None, *shapes], "with_gradient": False}
        kwargs.update(jax2tf_kwargs)
        converted = jax2tf.convert(pure, **kwargs)
        specs = tf.nest.map_structure(lambda s: tf.TensorSpec(tuple(s.shape), s.dtype), list(signature))
        return tf.function(lambda *args: converted(list(tf_variables), *args), input_signature=specs, autograph=False)
