"""TensorFlow SavedModels: loading one's endpoints and variables (``TFSMLayer``), and writing one (``model.export``)."""

import types

import tensorflow as tf

from highlevel.backends.contract import Variable


class LoadedSavedModel:
    """The endpoints of a loaded SavedModel and highlevel variables around the ``tf.Variable`` objects they use."""

    def __init__(self, backend, filepath, endpoints):
        self.obj = tf.saved_model.load(filepath)
        self.functions = [self._endpoint(name) for name in endpoints]
        self.variables = self._variables(backend)

    def _endpoint(self, name):
        if isinstance(name, str) and hasattr(self.obj, name) and callable(getattr(self.obj, name)):
            return getattr(self.obj, name)
        signatures = getattr(self.obj, "signatures", {})
        if name in signatures:
            return signatures[name]
        raise ValueError(
            f"The SavedModel has no endpoint {name!r}: it is neither a callable attribute of the loaded object nor "
            f"one of its signatures {sorted(signatures)}. Pass one of those as call_endpoint (or "
            "call_training_endpoint)."
        )

    def _variables(self, backend):
        """The trainable variables first, then the others, each once, in the order the functions capture them."""
        found, seen = [], set()
        for fn in self.functions:
            concrete = list(getattr(fn, "concrete_functions", None) or [fn])
            for cf in concrete:
                for v in getattr(cf, "variables", ()):
                    if id(v) not in seen:
                        seen.add(id(v))
                        found.append(v)
        found.sort(key=lambda v: not v.trainable)
        wrapped = []
        for v in found:
            var = Variable(
                v.value(), trainable=v.trainable, name=v.name.split(":")[0].replace("/", "_"), backend=backend
            )
            var._handle = v  # the SavedModel's functions read this tf.Variable: share it, do not copy it
            wrapped.append(var)
        return wrapped

    @staticmethod
    def output_spec(fn, inputs):
        specs = tf.nest.map_structure(lambda t: tf.TensorSpec(tuple(t.shape), t.dtype), inputs)
        if hasattr(fn, "get_concrete_function"):
            outputs = fn.get_concrete_function(specs).structured_outputs
        else:  # a signature: a concrete function already
            outputs = fn.structured_outputs
        return tf.nest.map_structure(
            lambda o: types.SimpleNamespace(shape=tuple(o.shape.as_list()), dtype=o.dtype.name), outputs
        )


class SavedModelOps:
    def load_saved_model(self, filepath, endpoints):
        return LoadedSavedModel(self, filepath, endpoints)

    export_formats = {"tf_saved_model": "graph", "onnx": "converted"}

    def export_saved_model(self, filepath, endpoints, variables, collections, options):
        options = dict(options)
        save_options = options.pop("options", None)
        for jax_only in ("is_static", "jax2tf_kwargs"):  # options of the JAX writer, meaningless here
            options.pop(jax_only, None)
        if options:
            raise ValueError(
                f"Unknown options for a SavedModel written from TensorFlow: {sorted(options)}. Accepted: options "
                "(a tf.saved_model.SaveOptions)."
            )
        root = saved_model_root(variables, collections)
        serving_default = None
        for name, fn, signature in endpoints:
            function = tf.function(fn, input_signature=tensor_specs(signature), autograph=False)
            setattr(root, name, function)
            if serving_default is None:
                serving_default = function
        tf.saved_model.save(root, filepath, signatures={"serving_default": serving_default}, options=save_options)


def tensor_specs(signature):
    """``tf.TensorSpec`` for each spec of an export signature (a list of structures of shape-and-dtype specs)."""
    return tf.nest.map_structure(lambda s: tf.TensorSpec(tuple(s.shape), s.dtype), list(signature))


def saved_model_root(variables, collections, handle=lambda v: v._handle):
    """The object a SavedModel is written from: the variables (``handle(v)``: their ``tf.Variable``) tracked as
    ``variables``, ``trainable_variables``, ``non_trainable_variables`` and one list per collection."""
    root = tf.__internal__.tracking.AutoTrackable()  # unlike tf.Module, its ``variables`` can be set
    tracked = {id(v): handle(v) for v in variables}
    for group in collections.values():
        for v in group:
            tracked.setdefault(id(v), handle(v))
    ordered = [tracked[id(v)] for v in variables]
    root.variables = ordered
    root.trainable_variables = [t for v, t in zip(variables, ordered) if v.trainable]
    root.non_trainable_variables = [t for v, t in zip(variables, ordered) if not v.trainable]
    for name, group in collections.items():
        setattr(root, name, [tracked[id(v)] for v in group])
    return root
