"""Pipeline: a sequence of (preprocessing) layers applied one after the other, as one layer."""

from highlevel import tree
from highlevel.layer import Layer
from highlevel.masking import get_keras_mask


class Pipeline(Layer):
    """Applies its layers in order, as one plain layer (``keras.layers.Pipeline``).

    Unlike :class:`~highlevel.models.Sequential`, a Pipeline is not a model (no ``fit``, no input shape to
    declare): it is meant for preprocessing and augmentation, for instance in a ``tf.data`` map, where each
    of its layers runs on the pipeline's engine as it would alone. ``training`` reaches the layers whose
    ``call`` takes it (when given), and each layer receives the mask its predecessor's output carries.

    Args:
        layers: a list of layers.
        name: optional name of the pipeline.

    Call arguments:
        inputs: the first layer's input.
        training: passed on to the layers that take it (True, the default of a direct call, makes the random
            layers augment).
        mask: passed on to the first layer that takes it.

    Raises:
        ValueError: if ``layers`` is not a list of Layer instances.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(4, dtype="float32"), (1, 2, 2, 1))
    >>> pipeline = hl.layers.Pipeline([hl.layers.Rescaling(2.0), hl.layers.RandomFlip("horizontal", seed=0)])
    >>> hl.ops.convert_to_numpy(pipeline(x, training=False))[0, :, :, 0].tolist()
    [[0.0, 2.0], [4.0, 6.0]]
    """

    def __init__(self, layers, name=None):
        # Inputs reach the first layer as given (it casts them to its own dtype), as in Keras.
        super().__init__(name=name, autocast=False)
        if not isinstance(layers, (list, tuple)) or not all(isinstance(layer, Layer) for layer in layers):
            raise ValueError(
                "Pipeline expects a list of layers (hl.layers.Layer instances). Received: "
                f"layers={layers!r}. Pass e.g. Pipeline([hl.layers.RandomFlip(), hl.layers.RandomZoom(0.2)])."
            )
        self._pipeline_layers = list(layers)
        self.built = True

    @property
    def layers(self):
        """The layers, in the order they run."""
        return self._pipeline_layers

    def call(self, inputs, training=True, mask=None):
        outputs = inputs
        for layer in self._pipeline_layers:
            kwargs = {}
            if layer._call_has_mask and mask is not None:
                kwargs["mask"] = mask
            if layer._call_has_training and training is not None:
                kwargs["training"] = training
            outputs = layer(inputs, **kwargs)
            inputs = outputs
            mask = tree.map_structure(get_keras_mask, outputs)
            if all(m is None for m in tree.flatten(mask)):
                mask = None
        return outputs

    def compute_output_shape(self, input_shape):
        for layer in self._pipeline_layers:
            input_shape = layer.compute_output_shape(input_shape)
        return input_shape

    def get_config(self):
        from highlevel.layers import serialize

        return {"layers": [serialize(layer) for layer in self._pipeline_layers], "name": self.name}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from highlevel.layers import deserialize
        from highlevel.saving.object_registry import allowed_objects

        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError(
                "A Pipeline config needs a `layers` entry: the list of the serialized layers. Received a config "
                f"with layers={layers!r}."
            )
        custom = allowed_objects(custom_objects)
        config = dict(config, layers=[deserialize(layer, custom_objects=custom) for layer in layers])
        return cls(**config)
