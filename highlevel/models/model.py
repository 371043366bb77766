"""``hl.Model``: the base of every model, and the entry point of the functional API.

``hl.Model(inputs, outputs)`` builds a :class:`~highlevel.models.functional.Functional` model; subclassing
``hl.Model`` gives a model whose ``call`` is ordinary Python over ``hl.ops`` and layers.

>>> import highlevel as hl
>>> class TwoLayer(hl.Model):
...     def __init__(self):
...         super().__init__()
...         self.hidden = hl.layers.Dense(8, activation="relu")
...         self.out = hl.layers.Dense(1)
...     def call(self, x, training=None):
...         return self.out(self.hidden(x))
>>> m = TwoLayer()
>>> m(hl.ops.ones((2, 3))).shape
(2, 1)
>>> [layer.name for layer in m.layers] == [m.hidden.name, m.out.name]
True
"""

import inspect
import weakref

from highlevel.backends.contract import tree
from highlevel.backends.contract.interop import new_instance
from highlevel.config import current_backend

from ..layer import Layer, _shape_of
from ..trainers import Trainer

#: user class -> its functional variant (see :func:`_functional_variant`)
_FUNCTIONAL_VARIANTS = weakref.WeakKeyDictionary()


def _is_functional_call(args, kwargs):
    return len(args) >= 2 or ("inputs" in kwargs and "outputs" in kwargs) or (len(args) == 1 and "outputs" in kwargs)


def _holds_symbolic(value):
    from highlevel.keras_tensor import KerasTensor

    leaves = tree.flatten(value)[0]
    return bool(leaves) and all(isinstance(x, KerasTensor) for x in leaves)


def _symbolic_call_args(args, kwargs):
    """Whether a subclass's constructor arguments are a functional model's ``inputs`` and ``outputs`` (symbolic
    tensors), rather than its own arguments that happen to be two."""
    if not _is_functional_call(args, kwargs):
        return False
    inputs = args[0] if args else kwargs.get("inputs")
    outputs = args[1] if len(args) >= 2 else kwargs.get("outputs")
    return _holds_symbolic(inputs) and _holds_symbolic(outputs)


def _functional_variant(cls):
    """A subclass of both ``cls`` (a user's subclass of Model) and :class:`Functional`: what an instance of ``cls``
    becomes when its constructor passes ``inputs`` and ``outputs`` to ``Model.__init__``.

    The user's methods (``train_step``, ``get_config``, ...) come first in its method order, then the functional
    graph's (``call``, ``layers``, ...). It keeps ``cls``'s name and module, and saving names ``cls``.
    """
    from .functional import Functional

    if issubclass(cls, Functional):
        return cls
    variant = _FUNCTIONAL_VARIANTS.get(cls)
    if variant is None:
        variant = type(
            cls.__name__,
            (cls, Functional),
            {
                "__module__": cls.__module__,
                "__qualname__": cls.__qualname__,
                "__doc__": cls.__doc__,
                "_functional_origin": cls,
            },
        )
        _FUNCTIONAL_VARIANTS[cls] = variant
    return variant


def _revivable_as_functional(cls):
    """Whether ``cls(inputs, outputs, name=..., trainable=...)`` rebuilds it from a functional config: it does not
    define its own constructor, or its constructor passes everything on (``*args, **kwargs``)."""
    init = cls.__init__
    if init is Model.__init__:
        return True
    try:
        params = list(inspect.signature(init).parameters.values())[1:]
    except (TypeError, ValueError):
        return False
    kinds = {p.kind for p in params}
    return inspect.Parameter.VAR_POSITIONAL in kinds and inspect.Parameter.VAR_KEYWORD in kinds


class Model(Trainer, Layer):
    """A trainable network of layers: a layer that also trains, evaluates, predicts, saves and summarises.

    A model is built in one of three ways:

    - **functional**: ``hl.Model(inputs, outputs)``, where ``inputs`` are the tensors of
      :func:`~highlevel.Input` and ``outputs`` the tensors computed from them by calling layers. The graph
      between them becomes the model (a :class:`~highlevel.models.Functional`);
    - **subclassed**: subclass ``hl.Model``, create the layers in ``__init__`` and compute in
      ``call(inputs, training=None)``; the weights are created on the first call;
    - **sequential**: :class:`~highlevel.Sequential`, a plain stack of layers.

    A subclass may also be used functionally, as Keras allows: ``MyModel(inputs, outputs)``, or a constructor
    that calls ``super().__init__(inputs=..., outputs=...)``, gives a functional model that keeps the subclass's
    methods (a custom ``train_step``, for instance).

    Training goes through :meth:`compile` then :meth:`fit`; :meth:`evaluate` and :meth:`predict` run the model
    on data, :meth:`save` writes it to one file (reload with :func:`highlevel.models.load_model`), and
    :meth:`summary` prints its layers. ``layers`` lists the model's layers and :meth:`get_layer` finds one.

    Args:
        inputs: for a functional model, the input tensor(s): one tensor of :func:`~highlevel.Input`, or a
            list or dict of them. Not given for a subclassed model.
        outputs: for a functional model, the output tensor(s) computed from ``inputs``: one tensor, or a list
            or dict of them (the structure of what the model returns).
        name: the model's name (default: generated from the class name, e.g. ``"functional"``).
        trainable: whether the model's weights are trained (default True).
        dtype: the dtype policy of the model (see :class:`~highlevel.Layer`).

    Raises:
        TypeError: only one of ``inputs``/``outputs`` is given, or positional arguments that are not a
            functional model's inputs and outputs.
        ValueError: ``outputs`` are not computed from ``inputs``, or one input tensor is given twice.

    >>> import highlevel as hl
    >>> class Custom(hl.Model):
    ...     def train_step(self, data):
    ...         return super().train_step(data)
    >>> x = hl.Input((3,))
    >>> model = Custom(x, hl.layers.Dense(1)(x))
    >>> isinstance(model, Custom), isinstance(model, hl.models.Functional), len(model.layers)
    (True, True, 2)

    A subclassed model:

    >>> class TwoLayers(hl.Model):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.hidden = hl.layers.Dense(4, activation="relu")
    ...         self.out = hl.layers.Dense(1)
    ...     def call(self, inputs):
    ...         return self.out(self.hidden(inputs))
    >>> net = TwoLayers()
    >>> tuple(net(hl.ops.ones((2, 3))).shape), len(net.weights)
    ((2, 1), 4)
    """

    accepts_text = True  # a model hands text on to its layers, which decide

    def __new__(cls, *args, **kwargs):
        if cls is Model and _is_functional_call(args, kwargs):
            from .functional import Functional

            cls = Functional
        elif _symbolic_call_args(args, kwargs):
            cls = _functional_variant(cls)
        return new_instance(cls, current_backend(), "layer")

    def __init__(self, *args, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            from .functional import Functional

            if not _is_functional_call(args, kwargs):
                what = f"the positional arguments {args!r}" if args else "only one of inputs/outputs"
                raise TypeError(
                    f"{type(self).__name__}.__init__ received {what}: a functional model takes both inputs and "
                    "outputs (Model(inputs, outputs)), and a subclassed model creates its layers in __init__ and uses "
                    "them in call()."
                )
            if not isinstance(self, Functional):  # super().__init__(inputs=..., outputs=...) in a subclass
                self.__class__ = _functional_variant(type(self))
            Functional.__init__(self, *args, **kwargs)
            return
        super().__init__(**kwargs)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Rebuilds a model from ``get_config``. A functional config (``hl.Model.from_config``, or a subclass used
        functionally that keeps Model's constructor) gives a functional model; otherwise ``cls(**config)``."""
        from .functional import Functional

        if "nodes" in config and (cls is Model or issubclass(cls, Functional) or _revivable_as_functional(cls)):
            inputs, outputs, name, trainable = Functional._graph_from_config(config, custom_objects)
            return (Functional if cls is Model else cls)(inputs, outputs, name=name, trainable=trainable)
        return super().from_config(config)

    # ------------------------------------------------------------ shapes
    def _shape_structure(self, which):
        graph_tensors = getattr(self, which, None) if hasattr(type(self), which) else None
        if graph_tensors:
            shapes = [t.shape for t in graph_tensors]
            return shapes[0] if len(shapes) == 1 else shapes
        if which == "inputs" and self.built and self._build_shapes is not None:
            return self._build_shapes
        if which == "inputs":
            raise AttributeError(
                f"Model '{self.name}' has no input shape yet: it is not built. Call it on data or "
                "call model.build(input_shape) first."
            )
        raise AttributeError(
            f"Model '{self.name}' has no fixed output shape: it is not a functional or Sequential "
            "model built on hl.Input. Use model.compute_output_shape(input_shape)."
        )

    @property
    def input_shape(self):
        """The shape of the model's input (a list of shapes for several inputs)."""
        return self._shape_structure("inputs")

    @property
    def output_shape(self):
        """The shape of the model's output (a list of shapes for several outputs)."""
        return self._shape_structure("outputs")

    @property
    def operations(self):
        """The layers and ops of the model: a functional model's graph operations in the order they run (its
        input layers first), else its layers."""
        nodes = getattr(self, "_nodes", None)
        if nodes is not None:
            out = []
            for node in nodes:
                if not any(node.operation is op for op in out):
                    out.append(node.operation)
            return out
        return list(self.layers)

    # ------------------------------------------------------------ building
    def build(self, input_shape=None):
        """Builds a subclassed model for inputs of ``input_shape`` (batch axis included; a list or dict of shapes
        for several inputs) by running its ``call`` on symbolic inputs, which creates every sub-layer's weights.

        Raises:
            ValueError: no ``input_shape``, or ``call`` cannot run on inputs of that shape.

        Args:
            input_shape: the input's shape with its batch axis (None for any batch size), e.g. ``(None, 8)``; a list or
                dict of shapes for a model with several inputs.

        Returns:
            None; the model is then ``built`` and its weights exist.

        >>> import highlevel as hl
        >>> class Tiny(hl.Model):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.dense = hl.layers.Dense(2)
        ...     def call(self, x):
        ...         return self.dense(x)
        >>> model = Tiny()
        >>> model.build((None, 3))
        >>> model.built, [tuple(w.shape) for w in model.weights]
        (True, [(3, 2), (2,)])
        """
        if self.built:
            return
        if input_shape is None:
            raise ValueError(f"Model '{self.name}'.build() needs an input_shape, e.g. model.build((None, 8)).")
        from highlevel.saving.build_io import symbolic_inputs

        inputs = symbolic_inputs(input_shape)
        self._build_shapes = tree.map_structure(_shape_of, inputs)
        self.built = True
        try:
            self.compute_output_spec(inputs)
        except BaseException:
            self.built = False
            raise

    def _maybe_build(self, inputs):
        if self.built:
            return
        if type(self).build is Model.build:
            # The first call builds the sub-layers itself: no extra symbolic run before it.
            self._build_shapes = tree.map_structure(_shape_of, inputs)
            self.built = True
            return
        super()._maybe_build(inputs)

    def get_build_config(self):
        """``{"input_shape": ...}`` for a model built by a call or by :meth:`build` (batch axis as None); None for a
        functional model or a Sequential model that starts with an ``Input`` (their graph builds them)."""
        from highlevel.saving import build_io

        return build_io.build_config(self)

    def build_from_config(self, config):
        """Builds the model from :meth:`get_build_config`'s output by calling it on symbolic inputs of those
        shapes (a no-op when already built)."""
        from highlevel.saving import build_io

        build_io.apply_build_config(self, config, "the build config")

    @property
    def layers(self):
        """The model's direct layers, in order."""
        return self._sublayers()

    def get_layer(self, name=None, index=None):
        """Finds one of the model's layers by name or by position.

        Args:
            name: the layer's name.
            index: the layer's position in :attr:`layers` (used when ``name`` is None).

        Returns:
            The layer.

        Raises:
            ValueError: no layer has that name, the index is out of range, or neither is given.

        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(3, name="hidden"), hl.layers.Dense(1, name="out")])
        >>> model.get_layer("hidden").units, model.get_layer(index=1).name
        (3, 'out')
        """
        if index is not None and name is not None:
            raise ValueError("Provide only one of `name` and `index` to get_layer().")
        layers = self.layers
        if index is not None:
            if not -len(layers) <= index < len(layers):
                raise ValueError(f"get_layer(index={index}) is out of range: the model has {len(layers)} layers.")
            return layers[index]
        if name is not None:
            for layer in layers:
                if layer.name == name:
                    return layer
            raise ValueError(f"No such layer: {name!r}. Existing layers are: {[l.name for l in layers]}.")
        raise ValueError("Provide either a layer `name` or an `index` to get_layer().")

    def summary(
        self,
        line_length=None,
        positions=None,
        print_fn=None,
        expand_nested=False,
        show_trainable=False,
        layer_range=None,
        return_string=False,
    ):
        """Prints a table of the model's layers, their output shapes and parameter counts.

        Below the table come the total, trainable and non-trainable parameter counts (and the optimizer's, once
        it has variables). A model not built yet shows its layers with ``?`` as output shape and
        ``0 (unbuilt)`` parameters.

        Args:
            line_length: the table width in characters (default: the terminal's width, at most 100).
            positions: accepted for Keras programs; the columns are laid out automatically.
            print_fn: a function called with the rendered text (a str) instead of printing it, e.g.
                ``logging.info``. Default None: print to standard output.
            expand_nested: accepted for Keras programs; nested models are shown as one row.
            show_trainable: if True, add a column saying whether each layer is trainable.
            layer_range: ``[first, last]``, two layer names: only the rows from ``first`` to ``last`` (both
                included) are shown. Default None: every layer.
            return_string: if True, return the text instead of printing it.

        Returns:
            The summary text when ``return_string`` is True, otherwise None.

        Raises:
            ValueError: ``layer_range`` is not two names of layers of this model.

        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, name="dense")], name="tiny")
        >>> text = model.summary(return_string=True)
        >>> "dense" in text, "Total params: 8" in text
        (True, True)
        """
        from .summary import render_summary

        return render_summary(
            self,
            line_length=line_length,
            print_fn=print_fn,
            show_trainable=show_trainable,
            return_string=return_string,
            layer_range=layer_range,
        )

    def save(self, filepath, overwrite=True, zipped=None, **kwargs):
        """Saves the whole model to one file: architecture, compile arguments, weights and optimizer state.

        :func:`highlevel.models.load_model` reads it back into a model that predicts the same and resumes
        training where it stopped. Custom layers take part through ``get_config`` (and ``from_config``) and,
        for their own state, ``save_own_variables``/``load_own_variables``.

        Args:
            filepath: the destination, a str or path. A name ending in ``.keras`` writes Keras 3's archive
                format (which Keras itself loads; needs ``h5py``); any other name (e.g. ``model.hl.zip``) writes
                highlevel's own archive.
            overwrite: if True (default), replace an existing file; if False, raise ``FileExistsError``.
            zipped: True or None (default): one zip file; False: a folder holding the same files.
            **kwargs: ``save_format="keras"`` or ``"highlevel"`` chooses the format whatever the name.

        Returns:
            None.

        Raises:
            FileExistsError: ``overwrite`` is False and ``filepath`` exists.
            OSError: the file could not be written (an existing file is left unchanged).

        >>> import os, tempfile
        >>> import numpy as np
        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
        >>> path = os.path.join(tempfile.mkdtemp(), "model.hl.zip")
        >>> model.save(path)
        >>> restored = hl.models.load_model(path)
        >>> x = np.ones((1, 2), "float32")
        >>> bool(np.allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0)))
        True
        """
        from highlevel.saving import save_model

        save_model(self, filepath, overwrite=overwrite, zipped=zipped, **kwargs)

    def export(self, filepath, format="tf_saved_model", verbose=None, input_signature=None, **kwargs):
        """Exports the model as an artifact for serving (see :func:`highlevel.export.export_model`).

        Args:
            filepath: where to write it (a directory for ``"tf_saved_model"``, a ``.pt2`` file for ``"torch"``).
            format: ``"tf_saved_model"`` (load with ``tf.saved_model.load(path).serve(x)``), ``"onnx"``,
                ``"torch"`` (``torch.export.load(path).module()(x)``) or ``"jax_export"`` (StableHLO,
                ``jax.export.deserialize(data).call(x)``).
            verbose: print where the artifact went (default True).
            input_signature: the inputs' shapes and dtypes; the model's own, with a free batch size, when None.
            **kwargs: options of the format's writer.

        >>> import highlevel as hl
        >>> callable(hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)]).export)
        True
        """
        from highlevel.export import export_model

        return export_model(self, filepath, format=format, verbose=verbose, input_signature=input_signature, **kwargs)

    def save_weights(self, filepath, overwrite=True, max_shard_size=None):
        """Saves the values of the model's weights (not its architecture) to one file.

        :meth:`load_weights` reads them back into a model of the same architecture. The file is written atomically: a
        crash leaves the old file or the new one.

        Args:
            filepath: the destination, a str or path. A name ending in ``.weights.h5`` gets Keras's HDF5 layout (with
                the optimizer's state, as Keras does), which Keras itself reads; any other name (e.g.
                ``.weights.safetensors``) gets a safetensors file.
            overwrite: if True (default), replace an existing file; if False, raise ``FileExistsError``.
            max_shard_size: must be None: the weights are written as one file.

        Returns:
            None.

        Raises:
            FileExistsError: ``overwrite`` is False and ``filepath`` exists.
            ValueError: ``max_shard_size`` is given.

        >>> import os, tempfile
        >>> import numpy as np
        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
        >>> path = os.path.join(tempfile.mkdtemp(), "model.weights.safetensors")
        >>> model.save_weights(path)
        >>> other = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
        >>> other.load_weights(path)
        >>> bool(np.array_equal(other.get_weights()[0], model.get_weights()[0]))
        True
        """
        from highlevel.saving import save_weights

        save_weights(self, filepath, overwrite=overwrite, max_shard_size=max_shard_size)

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        """Loads weight values saved by :meth:`save_weights` (or Keras's ``.weights.h5``) into this model.

        The format is recognised by the file's content, not its name. The model must have the same architecture as
        the one that saved them (a Keras HDF5 file is matched by Keras's variable paths, a safetensors file by
        position).

        Args:
            filepath: the file, or the folder of an :class:`~highlevel.callbacks.OrbaxCheckpoint` (its newest
                checkpoint is read).
            skip_mismatch: if True, keep the current values of variables whose shape differs instead of raising.
            **kwargs: none are accepted; an unknown keyword raises ``TypeError``.

        Returns:
            None.

        Raises:
            ValueError: a saved value's shape differs from its variable's (the message names the variable's path and
                both shapes), unless ``skip_mismatch``.
            TypeError: an unknown keyword argument.

        >>> import os, tempfile
        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, kernel_initializer="ones")])
        >>> path = os.path.join(tempfile.mkdtemp(), "w.weights.safetensors")
        >>> model.save_weights(path)
        >>> fresh = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
        >>> fresh.load_weights(path)
        >>> fresh.get_weights()[0].tolist()
        [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]
        """
        from highlevel.saving import load_weights

        load_weights(self, filepath, skip_mismatch=skip_mismatch, **kwargs)

    def to_json(self, **kwargs):
        """The model's architecture as a JSON string (no weights): ``hl.models.model_from_json`` rebuilds it.

        Args:
            **kwargs: passed to ``json.dumps`` (``indent=2``, ...).

        Returns:
            A str holding the model's config as JSON.

        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)], name="tiny")
        >>> rebuilt = hl.models.model_from_json(model.to_json())
        >>> rebuilt.name, len(rebuilt.layers), rebuilt.output_shape
        ('tiny', 1, (None, 1))
        """
        import json

        from highlevel.saving.serialization_lib import serialize_keras_object

        return json.dumps(serialize_keras_object(self), **kwargs)

    def count_params(self):
        """Counts the scalars in all the model's weights, trainable or not.

        Returns:
            An int.

        Raises:
            ValueError: the model is not built yet (it has no weights to count).

        >>> import highlevel as hl
        >>> hl.Sequential([hl.Input((4,)), hl.layers.Dense(3), hl.layers.Dense(1)]).count_params()
        19
        """
        if not self.built:
            raise ValueError(
                f"Model '{self.name}' has not been built yet, so it has no weights to count. Build it first: "
                "call it on a batch of data, call model.build(input_shape), or start it with hl.Input(shape)."
            )
        return sum(_size(v.shape) for v in self.weights)

    def get_quantization_layer_structure(self, mode=None):
        """How calibrated quantization (GPTQ) runs through the model; a model with repeated blocks overrides it.

        Args:
            mode: the quantization mode asking (``"gptq"``).

        Returns:
            None here (no structure: ``quantize("gptq")`` then needs ``GPTQConfig(quantization_layer_structure=
            ...)``); an override returns ``{"pre_block_layers": [layers run on the token ids first],
            "sequential_blocks": [blocks quantized in order]}``.

        >>> import highlevel as hl
        >>> hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)]).get_quantization_layer_structure("gptq") is None
        True
        """
        del mode
        return None

    def _gptq_quantize(self, config, filters):
        """``quantize("gptq" | "awq")``: checks the data and the structure first, so a bad request leaves the
        model as it was; then quantizes the Dense and EinsumDense layers of the structure's blocks (others keep
        their float weights)."""
        from highlevel.quantizers.gptq_calibration import awq_quantize, check_structure, gptq_quantize

        mode = config.mode
        if config.dataset is None:
            raise ValueError(
                f"model.quantize({mode!r}) needs calibration data, but {type(config).__name__}(dataset=None). Pass "
                "dataset= a list of strings (with a tokenizer) or of token-id arrays."
            )
        structure = config.quantization_layer_structure
        if structure is None:
            structure = self.get_quantization_layer_structure(mode)
        check_structure(structure, mode)
        (gptq_quantize if mode == "gptq" else awq_quantize)(config, structure, filters=filters)
        self._reset_step_functions()

    def quantize(self, mode=None, config=None, filters=None, **kwargs):
        """Quantizes every layer of the model that can be quantized (Dense, EinsumDense, Embedding,
        ReversibleEmbedding).

        The model must be built. Layers without a quantized form are skipped with a warning; the compiled
        training, evaluation and prediction steps are made again at their next use.

        Args:
            mode: ``"int8"``, ``"int4"``, ``"float8"``, ``"gptq"`` or ``"awq"`` (these two with a
                :class:`highlevel.quantizers.GPTQConfig` / ``AWQConfig`` holding the calibration data and, unless
                the model's :meth:`get_quantization_layer_structure` gives it, the layer structure; they quantize
                the Dense and EinsumDense layers of the structure's blocks only); optional when ``config`` names
                it.
            config: a :class:`highlevel.quantizers.QuantizationConfig`; None takes the mode's default.
            filters: which layers to quantize: a regular expression (or a list of them) searched in the layer's
                name, or a callable ``layer -> bool``; None quantizes every layer that can be.
            **kwargs: ``type_check`` (default True): refuse subclasses of the quantizable layers.

        Returns:
            None.

        Raises:
            ValueError: an unknown mode, a bad ``config`` or ``filters``, an unknown keyword argument, a layer
                that is not built or is quantized already, or (GPTQ, AWQ) no calibration data or no structure.

        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(3), hl.layers.Dense(2)])
        >>> model.quantize("int8")
        >>> model.layers[0].quantization_mode, model.layers[0].kernel.dtype
        ('int8', 'int8')
        """
        import re
        import warnings

        from highlevel.quantizers.quantization_config import validate_and_resolve_config

        type_check = kwargs.pop("type_check", True)
        if kwargs:
            raise ValueError(
                f"Unrecognized keyword arguments passed to {type(self).__name__}.quantize: {sorted(kwargs)}. It "
                "takes mode, config, filters and type_check."
            )
        if filters is not None and not (callable(filters) or isinstance(filters, (str, list, tuple))):
            raise ValueError(
                "The `filters` argument must be a regex string, a list of regex strings, or a callable "
                f"layer -> bool. Received: {filters!r} (of type {type(filters).__name__})."
            )
        resolved = validate_and_resolve_config(mode, config)
        if resolved.mode in ("gptq", "awq"):
            return self._gptq_quantize(resolved, filters)

        def selected(layer):
            if filters is None:
                return True
            if isinstance(filters, str):
                return re.search(filters, layer.name) is not None
            if isinstance(filters, (list, tuple)):
                return any(re.search(pattern, layer.name) for pattern in filters)
            return bool(filters(layer))

        changed = False
        for layer in self._flatten_layers():
            if not selected(layer) or len(layer._flatten_layers()) != 1:
                continue
            try:
                layer.quantize(resolved.mode, type_check=type_check, config=resolved)
                changed = True
            except NotImplementedError as err:
                warnings.warn(str(err), stacklevel=2)
        if changed:
            self._reset_step_functions()


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n
