"""A module of the torch engine's own framework used as a highlevel layer."""

from highlevel import ops, tree
from highlevel.config import current_backend
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer


class TorchModuleWrapper(Layer):
    """Runs a ``torch.nn.Module`` as a layer of a highlevel model (``keras.layers.TorchModuleWrapper``); torch
    backend only.

    The module's parameters become the layer's weights (the same tensors: ``fit`` trains them, saving saves them)
    and its buffers (batch-norm statistics) non-trainable weights. ``training=True`` runs the module in training
    mode (``module.train()``), anything else in inference mode (``module.eval()``). A ``torch.nn.Module`` assigned
    to an attribute of a layer on the torch backend is wrapped by this layer automatically.

    Args:
        module: the ``torch.nn.Module``; a lazy module must have run once, so that its parameters exist.
        name: the layer's name.
        output_shape: the output's shape (batch axis included, None where unknown), for a model built from
            ``Input``; by default found by running the module once on zeros of the input's shape.
        **kwargs: base layer arguments.

    Saving writes the module (class and values) with torch's own serialization, which runs code when it is read:
    loading such a file needs ``safe_mode=False``. Weights alone (``save_weights``/``load_weights``) need no
    consent.

    Raises:
        ValueError: if the current engine is not torch.
        TypeError: if ``module`` is not a ``torch.nn.Module`` (or is a highlevel layer).

    >>> import torch
    >>> import highlevel as hl
    >>> with hl.config.backend_scope("torch"):
    ...     layer = hl.layers.TorchModuleWrapper(torch.nn.Linear(3, 2))
    ...     out = layer(torch.ones(4, 3))
    >>> tuple(out.shape), [w.name for w in layer.trainable_weights]
    ((4, 2), ['weight', 'bias'])
    """

    def __init__(self, module, name=None, output_shape=None, **kwargs):
        super().__init__(name=name, **kwargs)
        backend = current_backend()
        kind = backend.framework_module_class()
        if kind is None:
            raise ValueError(
                f"TorchModuleWrapper runs a torch.nn.Module and needs the torch backend; the current backend is "
                f"{backend.name!r}. Select it with HIGHLEVEL_BACKEND=torch or highlevel.config.backend_scope('torch')."
            )
        if not isinstance(module, kind) or isinstance(module, Layer):
            what = "a highlevel layer (use it directly)" if isinstance(module, Layer) else type(module).__name__
            raise TypeError(f"TorchModuleWrapper expects a torch.nn.Module; received {what}.")
        self.module = module
        self.output_shape = None if output_shape is None else tuple(output_shape)
        for variable in backend.framework_module_variables(module):
            variable.path = f"{self.name}/{variable.name}"
            self._own_weights.append(variable)
        self.built = True

    def _wrap_framework_module(self, module):
        return module  # the wrapped module itself, not a wrapper of it

    # As a torch.nn.Module, the wrapper's child is the module itself: its parameters and buffers keep their names
    # and kinds in parameters() and state_dict(), and are listed once.
    def _named_sublayers(self):
        return [("module", self.module)]

    def _named_own_variables(self):
        return []

    def _framework_state_replaced(self):
        current_backend().rebind_framework_module_variables(self.module, self._own_weights)

    def call(self, *args, training=None, **kwargs):
        return current_backend().call_framework_module(self.module, args, kwargs, training)

    def compute_output_spec(self, *args, **kwargs):
        if self.output_shape is not None:
            return KerasTensor(self.output_shape, self.compute_dtype)
        leaves = [t for t in tree.flatten(args) if isinstance(t, KerasTensor)]
        unknown_batch = any(t.shape and t.shape[0] is None for t in leaves)

        def example(t):
            if not isinstance(t, KerasTensor):
                return t
            return ops.zeros(tuple(1 if d is None else d for d in t.shape), t.dtype)

        with current_backend().inference_scope():
            out = self.call(*tree.map_structure(example, args), training=False)

        def spec(o):
            shape = tuple(ops.shape(o))
            if unknown_batch and shape:
                shape = (None,) + shape[1:]
            return KerasTensor(shape, ops.dtype(o))

        return tree.map_structure(spec, out)

    def compute_output_shape(self, input_shape):
        if self.output_shape is not None:
            return self.output_shape
        return super().compute_output_shape(input_shape)

    def get_config(self):
        config = super().get_config()
        config["module_data"] = current_backend().framework_module_to_text(self.module)
        config["output_shape"] = self.output_shape
        return config

    @classmethod
    def from_config(cls, config, safe_mode=None):
        """Rebuilds the layer; the module is read back only with ``safe_mode=False`` (reading it runs code)."""
        from highlevel.layers.core.lambda_layer import in_safe_mode

        config = dict(config)
        text = config.pop("module_data")
        if in_safe_mode() if safe_mode is None else safe_mode:
            raise ValueError(
                "This file holds a TorchModuleWrapper, whose torch module is read back with torch's own "
                "deserialization, which can run arbitrary code. If you trust the file, load it with "
                "safe_mode=False (highlevel.saving.load_model(path, safe_mode=False))."
            )
        return cls(current_backend().framework_module_from_text(text), **config)
