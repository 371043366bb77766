"""``ExportArchive``: a TensorFlow SavedModel put together by hand, with named endpoints and variable collections.

>>> import highlevel as hl
>>> archive = hl.export.ExportArchive()
>>> archive.endpoint_names
[]
"""

from highlevel.config import current_backend

from .engines import require_engine
from .input_signature import standardize_signature


class ExportArchive:
    """Collects what a serving artifact holds, then writes it as a TensorFlow SavedModel (``keras.export``'s
    ``ExportArchive``).

    Track the layers or models whose variables the endpoints use, add one endpoint per function to serve (each with
    its input signature), optionally name collections of variables, and write it out. The loaded object
    (``tf.saved_model.load(path)``) has each endpoint as a method and each collection as a list of variables; the
    first endpoint is also its ``serving_default`` signature. It is written by the engine current when the archive
    was made (TensorFlow directly, JAX through ``jax2tf``).

    Example (on the tensorflow or jax backend):

    ```python
    archive = hl.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint("serve", model.__call__, [hl.InputSpec(shape=(None, 4), dtype="float32")])
    archive.write_out("path/to/saved_model")
    ```

    >>> import highlevel as hl
    >>> hl.export.ExportArchive().variables
    []
    """

    def __init__(self):
        self._backend = current_backend()
        self._tracked = []
        self._endpoints = {}
        self._collections = {}

    # -------------------------------------------------------------- reading
    @property
    def endpoint_names(self):
        """The endpoint names, in the order they were added."""
        return list(self._endpoints)

    @property
    def variables(self):
        """Every variable of the tracked layers and collections, each once."""
        out, seen = [], set()
        for group in [getattr(r, "variables", []) for r in self._tracked] + list(self._collections.values()):
            for v in group:
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    @property
    def trainable_variables(self):
        return [v for v in self.variables if v.trainable]

    @property
    def non_trainable_variables(self):
        return [v for v in self.variables if not v.trainable]

    # -------------------------------------------------------------- building
    def track(self, resource):
        """Tracks a layer or model (or a list of them): its variables go into the archive.

        Raises:
            ValueError: ``resource`` is not a built layer.
        """
        from highlevel.layer import Layer

        if isinstance(resource, (list, tuple)):
            for r in resource:
                self.track(r)
            return
        if not isinstance(resource, Layer):
            raise ValueError(
                f"ExportArchive.track takes a layer or a model (or a list of them); received {resource!r} of type "
                f"{type(resource).__name__}. Pass the hl.Layer or hl.Model whose variables the endpoints read."
            )
        if not resource.built:
            raise ValueError(
                f"ExportArchive.track: the layer {resource.name!r} is not built yet, so it has no variables. Call it "
                "once on data (or build it) before tracking it."
            )
        if resource not in self._tracked:
            self._tracked.append(resource)

    def add_endpoint(self, name, fn, input_signature=None, **kwargs):
        """Adds the endpoint ``name``: ``fn`` called with tensors matching ``input_signature`` (a list, one entry per
        positional argument, each a structure of ``hl.InputSpec``, ``hl.Input`` tensors or ``tf.TensorSpec``;
        ``None`` sizes stay free).

        Raises:
            ValueError: a bad or taken name, or no input signature.
        """
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"ExportArchive.add_endpoint: name must be a Python identifier; received {name!r}.")
        if name in self._endpoints:
            raise ValueError(f"ExportArchive.add_endpoint: the endpoint {name!r} exists already; pick another name.")
        if not callable(fn):
            raise ValueError(f"ExportArchive.add_endpoint: fn must be callable; received {fn!r}.")
        if input_signature is None:
            raise ValueError(
                f"ExportArchive.add_endpoint({name!r}, ...) needs input_signature=: a list with one "
                "hl.InputSpec(shape=..., dtype=...) per positional argument of fn, None for the batch size."
            )
        self._endpoints[name] = (fn, standardize_signature(input_signature))
        return fn

    def track_and_add_endpoint(self, name, resource, input_signature=None, **kwargs):
        """Tracks ``resource`` (a layer or model) and adds its call as the endpoint ``name``; a model's own input
        signature is used when ``input_signature`` is None."""
        self.track(resource)
        if input_signature is None:
            input_signature = standardize_signature(None, resource)
        return self.add_endpoint(name, lambda *args: resource(*args, training=False), input_signature, **kwargs)

    def add_variable_collection(self, name, variables):
        """Saves ``variables`` (a list of ``hl.Variable``) under the attribute ``name`` of the loaded object."""
        from highlevel.backends.contract import Variable

        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"add_variable_collection: name must be a Python identifier; received {name!r}.")
        variables = list(variables) if isinstance(variables, (list, tuple)) else [variables]
        bad = [v for v in variables if not isinstance(v, Variable)]
        if bad:
            raise ValueError(
                f"add_variable_collection({name!r}, ...) takes hl.Variable objects; received {bad[0]!r} of type "
                f"{type(bad[0]).__name__}. Pass layer.weights or model.variables."
            )
        self._collections[name] = variables

    # -------------------------------------------------------------- writing
    def _serialization_platforms(self):
        """The platforms that the tracked layers' ``native_serialization_platforms`` ask for, or None.

        Raises:
            ValueError: two layers ask for different platforms.
        """
        found = {}
        for resource in self._tracked:
            for layer in resource._flatten_layers():
                platforms = getattr(layer, "jax2tf_native_serialization_platforms", None)
                if platforms is not None:
                    found.setdefault(tuple(platforms), layer.name)
        if len(found) > 1:
            described = "; ".join(f"{name!r}: {list(p)}" for p, name in found.items())
            raise ValueError(
                "The layers being exported ask for different `native_serialization_platforms` "
                f"({described}), but the SavedModel is compiled once for the whole model. Give them the same "
                "platforms, or pass jax2tf_kwargs={'native_serialization_platforms': [...]} to the export."
            )
        return next(iter(found), None)

    def write_out(self, filepath, options=None, verbose=True, **kwargs):
        """Writes the archive as a TensorFlow SavedModel directory at ``filepath``.

        Raises:
            ValueError: no endpoint, or an engine that does not write SavedModels (the message names those that do).
        """
        if not self._endpoints:
            raise ValueError("ExportArchive.write_out: add at least one endpoint (add_endpoint) before writing.")
        require_engine(self._backend, "tf_saved_model", "A TensorFlow SavedModel")
        endpoints = [(name, fn, sig) for name, (fn, sig) in self._endpoints.items()]
        engine_options = dict(kwargs)
        platforms = self._serialization_platforms()
        if platforms is not None:
            # JaxLayer(native_serialization_platforms=...): the platforms a SavedModel written through jax2tf
            # compiles for, unless the caller's jax2tf_kwargs name them (an engine writing directly ignores them).
            jax2tf_kwargs = dict(engine_options.get("jax2tf_kwargs") or {})
            jax2tf_kwargs.setdefault("native_serialization_platforms", platforms)
            engine_options["jax2tf_kwargs"] = jax2tf_kwargs
        if options is not None:
            engine_options["options"] = options
        self._backend.export_saved_model(str(filepath), endpoints, self.variables, self._collections, engine_options)
        if verbose:
            print(f"Saved artifact at '{filepath}'. Endpoints: {', '.join(self._endpoints)}.")
