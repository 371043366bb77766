"""``hl.Sequential``: a plain stack of layers, each feeding the next.

>>> import highlevel as hl
>>> model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(8, activation="relu"), hl.layers.Dense(2)])
>>> model.built, [type(l).__name__ for l in model.layers]
(True, ['Dense', 'Dense'])
>>> _ = model.pop(); model.layers[-1].units
8
"""

from highlevel.config import current_backend

from ..keras_tensor import KerasTensor
from ..layer import Layer
from ..masking import set_keras_mask
from .functional import Functional, host_text_input, zeros_like_outputs
from .input_layer import Input, InputLayer
from .model import Model


class Sequential(Model):
    """A linear stack of layers (``keras.Sequential``).

    The model is built at once when it starts with ``hl.Input(shape)`` (or a first layer given
    ``input_shape=``), and otherwise on its first call.

    Args:
        layers: the layers, in order.
        trainable: whether the model's weights are trained.
        name: the model's name.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(8, activation="relu"), hl.layers.Dense(1)])
    >>> model.add(hl.layers.Activation("sigmoid"))
    >>> len(model.layers), model.output_shape
    (3, (None, 1))
    >>> model.predict(np.zeros((2, 4), "float32"), verbose=0).shape
    (2, 1)
    """

    _not_framework_children = ("_graph",)  # the same layers as _stack

    def __init__(self, layers=None, trainable=True, name=None):
        super().__init__(trainable=trainable, name=name)
        self._stack = []
        self._graph = None
        for layer in layers or []:
            self.add(layer, rebuild=False)
        self._rebuild()

    def add(self, layer, rebuild=True):
        """Appends a layer (or an ``hl.Input`` tensor, as the first element)."""
        if (
            isinstance(layer, KerasTensor)
            and layer._history is not None
            and isinstance(layer._history[0].operation, InputLayer)
        ):
            layer = layer._history[0].operation
        if not isinstance(layer, Layer):
            raise TypeError(
                f"Sequential.add() takes a layer (an instance of hl.layers.Layer) or hl.Input(...); received "
                f"{type(layer).__name__}: {layer!r}."
            )
        if isinstance(layer, InputLayer) and self._stack:
            raise ValueError("An InputLayer can only be the first layer of a Sequential model.")
        if any(l.name == layer.name for l in self._stack):
            raise ValueError(
                f"Sequential model '{self.name}' already has a layer named {layer.name!r}; all layer names must be "
                "unique. Give the new layer another `name`."
            )
        self._stack.append(layer)
        if rebuild:
            self._rebuild()

    def pop(self, rebuild=True):
        """Removes the last layer and returns it."""
        if not self.layers:
            raise ValueError(f"Sequential model '{self.name}' has no layers to pop.")
        layer = self._stack.pop()
        if rebuild:
            self._rebuild()
        return layer

    def _rebuild(self):
        self.built = False
        self._graph = None
        if not self._stack:
            return
        first = self._stack[0]
        if isinstance(first, InputLayer):
            self._build_graph(first.output_tensor)
        elif first._input_shape_arg is not None:
            self._build_graph(Input(shape=first._input_shape_arg, batch_size=first._batch_size_arg))

    def _build_graph(self, inputs):
        x = inputs
        for layer in self.layers:
            x = layer(x)
        self._graph = Functional(inputs, x, name=self.name)
        self.built = True

    def build(self, input_shape=None):
        """Builds the model for inputs of ``input_shape`` (batch axis included)."""
        if self._graph is not None:
            return
        if input_shape is None:
            raise ValueError(f"Sequential model '{self.name}' needs an input shape to be built.")
        self._build_graph(Input(batch_shape=tuple(input_shape)))

    def _maybe_build(self, inputs):
        if self.built:
            return
        shape = getattr(inputs, "shape", None)
        if shape is not None and len(shape) >= 1 and not isinstance(inputs, (list, tuple, dict)):
            # Built from the first batch: the batch size is left open, so that a later batch of another size
            # (the partial last batch, predict on more rows) still fits.
            shape = (None,) + tuple(shape)[1:]
            self._build_shapes = shape
            self.build(shape)
            return
        super()._maybe_build(inputs)

    @property
    def layers(self):
        """The layers, without the input layer."""
        return [l for l in self._stack if not isinstance(l, InputLayer)]

    def _sublayers(self):
        return self.layers

    @property
    def inputs(self):
        return self._graph.inputs if self._graph is not None else None

    @property
    def outputs(self):
        return self._graph.outputs if self._graph is not None else None

    @property
    def input_shape(self):
        return self._graph.inputs[0].shape if self._graph is not None else None

    @property
    def output_shape(self):
        return self._graph.outputs[0].shape if self._graph is not None else None

    def _outputs_for_building(self, x):
        if type(self).call is not Sequential.call or self._graph is None:
            return None
        return zeros_like_outputs(self._graph.output, x)

    def call(self, inputs, training=None, mask=None):
        if self._graph is not None and self._graph.inputs[0].dtype == "string" and not isinstance(inputs, KerasTensor):
            # text stays on the host, with the one-axis rank adaptation of a functional model
            inputs = host_text_input(self._graph.inputs[0], inputs, current_backend())
        if self._graph is not None and not isinstance(inputs, (list, tuple, dict)):
            shape = getattr(inputs, "shape", None)
            if shape is not None:
                self._graph._check_input_shape(0, self._graph.inputs[0], tuple(shape))
        x = inputs
        for layer in self.layers:
            kwargs = {"mask": mask} if mask is not None and layer._call_has_mask else {}
            y = layer(x, **kwargs)
            if mask is not None or type(layer).compute_mask is not Layer.compute_mask:
                mask = layer.compute_mask(x, mask)
            x = y
        set_keras_mask(x, mask)  # the compiled loss and metrics count only what the mask keeps
        return x

    def compute_output_spec(self, inputs, training=None, mask=None):
        """KerasTensors describing the output for symbolic ``inputs`` (the layers run symbolically in order).

        Args:
            inputs: a KerasTensor (or a structure the first layer takes).
            training: passed on to the layers' ``call`` (``Dropout`` and the like).
            mask: the input's mask, passed to the first layer that takes one.

        >>> import highlevel as hl
        >>> model = hl.Sequential([hl.layers.Dense(4), hl.layers.Dropout(0.5), hl.layers.Dense(2)])
        >>> model.compute_output_spec(hl.KerasTensor((None, 3)), training=True).shape
        (None, 2)
        """
        return super().compute_output_spec(inputs, training=training, mask=mask)

    def get_config(self):
        from highlevel import layers as layers_module

        return {
            "name": self.name,
            "trainable": self.trainable,
            "layers": [layers_module.serialize(l) for l in self._stack],
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Rebuilds the model from :meth:`get_config` (``custom_objects``: ``{"Name": class}`` for your own
        layers that are not registered)."""
        from highlevel import layers as layers_module
        from highlevel.saving.object_registry import CustomObjectScope

        config = dict(config)
        with CustomObjectScope(custom_objects):
            stack = [layers_module.deserialize(c) for c in config.pop("layers")]
        return cls(stack, **config)
