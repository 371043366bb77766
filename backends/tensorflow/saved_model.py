"""A TensorFlow SavedModel's endpoints and variables, for ``TFSMLayer``."""

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
