"""Writing a model out as a serving artifact in an engine's own format (``model.export``).

The front end (``highlevel/export/``) turns the model and its input signature into *endpoints*: a Python function
that runs the model on this engine's tensors, and the signature of its positional arguments (a list, one entry per
argument, each a structure of :class:`~highlevel.backends.contract.ShapeSpec` whose ``None`` sizes, the batch
first, stay free in the artifact). An engine lists in :attr:`ExportContract.export_formats` the formats it writes
and implements the matching methods; the defaults refuse, and the front end's message names the engines that can.

>>> from highlevel.backends.contract import ExportContract
>>> ExportContract.export_formats
{}
"""


class ExportContract:
    """Serving artifacts: a TensorFlow SavedModel, a JAX ``jax.export`` program, a ``torch.export`` program, an ONNX
    file."""

    #: format name (as ``model.export`` takes it) -> ``"graph"`` when the artifact is the engine's own traced
    #: program, ``"converted"`` when it goes through a converter (JAX to TensorFlow through ``jax2tf``)
    export_formats = {}

    def export_saved_model(self, filepath, endpoints, variables, collections, options):
        """Writes a TensorFlow SavedModel.

        Args:
            filepath: the directory to write.
            endpoints: ``[(name, fn, signature)]``: each becomes a callable attribute of the loaded object
                (``tf.saved_model.load(path).<name>(x)``); the first is also the ``serving_default`` signature.
            variables: the highlevel variables the functions read; they are saved with the artifact, as the loaded
                object's ``variables``, ``trainable_variables`` and ``non_trainable_variables``.
            collections: ``{name: [variables]}``: saved as lists of variables under those attribute names.
            options: engine-specific keyword arguments (``jax2tf_kwargs``, ``is_static`` on JAX).
        """
        raise NotImplementedError(f"The {self.name!r} engine does not write TensorFlow SavedModels.")

    def export_stablehlo(self, filepath, fn, signature, options):
        """Writes ``fn`` (the model's weights baked in) as a serialized ``jax.export`` program (StableHLO), whose
        ``None`` sizes are symbolic; ``jax.export.deserialize(bytes).call(*args)`` runs it."""
        raise NotImplementedError(f"The {self.name!r} engine does not write jax.export programs.")

    def export_torch_program(self, filepath, fn, signature, variables, options):
        """Writes ``fn`` as a ``torch.export`` program (``torch.export.save``), its ``None`` sizes dynamic
        (``torch.export.Dim``); ``torch.export.load(path).module()(*args)`` runs it. ``options`` go to
        ``torch.export.export`` (``strict``, ``dynamic_shapes``, ...)."""
        raise NotImplementedError(f"The {self.name!r} engine does not write torch.export programs.")

    def export_onnx(self, model, fn, filepath, input_specs, opset_version):
        """Writes ``fn`` as an ONNX file with this engine's own converter (an engine that lists ``"onnx"`` in
        :attr:`export_formats`).

        Args:
            model: the model ``fn`` calls (an engine that traces a module of its own registers it).
            fn: a function of one tensor per input that returns a tuple of output tensors (inference mode).
            filepath: where to write the ``.onnx`` file.
            input_specs: one ``(name, shape, dtype)`` per input; ``None`` in a shape (the batch axis) stays open.
            opset_version: the ONNX opset to write.

        An engine without a converter leaves ``"onnx"`` out of :attr:`export_formats`: the front end then writes the
        file from the model's layer graph itself (``highlevel.export.onnx_graph``), which needs no framework.
        """
        raise NotImplementedError(f"The {self.name!r} engine has no ONNX converter of its own.")
