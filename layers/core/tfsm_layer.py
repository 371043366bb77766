"""A TensorFlow SavedModel used as a layer (``keras.layers.TFSMLayer``), on the tensorflow backend."""

from highlevel import tree
from highlevel.config import current_backend
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from .lambda_layer import in_safe_mode


class TFSMLayer(Layer):
    """Calls an endpoint of a TensorFlow SavedModel; its variables become the layer's weights.

    For inference with a model saved by ``tf.saved_model.save`` (or exported), and for fine-tuning it: the
    layer shares the SavedModel's variables, so training the layer trains them. Runs on the tensorflow backend
    only; the file is not portable (the config holds its path).

    Args:
        filepath: the SavedModel's directory.
        call_endpoint: the function to call: a callable attribute of the loaded object or the name of one of its
            signatures (default ``"serve"``).
        call_training_endpoint: another endpoint for ``training=True`` calls (optional).
        trainable, name, dtype: base layer arguments.
        name: optional name of the layer.
        dtype: optional dtype policy of the layer.

    Raises:
        ValueError: if an endpoint name is not a non-empty string.

    >>> import highlevel as hl
    >>> hl.layers.TFSMLayer.__name__
    'TFSMLayer'
    """

    def __init__(
        self, filepath, call_endpoint="serve", call_training_endpoint=None, trainable=True, name=None, dtype=None
    ):
        super().__init__(trainable=trainable, name=name, dtype=dtype)
        for arg, value in (("call_endpoint", call_endpoint), ("call_training_endpoint", call_training_endpoint)):
            if value is not None and (not isinstance(value, str) or not value):
                raise ValueError(f"TFSMLayer: {arg} must be an endpoint name (a non-empty string); received {value!r}.")
        self.filepath = str(filepath)
        self.call_endpoint = call_endpoint
        self.call_training_endpoint = call_training_endpoint
        endpoints = [call_endpoint] + ([call_training_endpoint] if call_training_endpoint else [])
        loaded = current_backend().load_saved_model(self.filepath, endpoints)
        self._loaded = loaded  # keeps the loaded object (and so its functions' resources) alive with the layer
        self._endpoint_functions = tuple(loaded.functions)
        self._output_spec = loaded.output_spec
        self.saved_model_weights = list(loaded.variables)
        self.built = True

    def _function(self, training):
        if training and self.call_training_endpoint:
            return self._endpoint_functions[1]
        return self._endpoint_functions[0]

    def call(self, inputs, training=False):
        return self._function(training)(inputs)

    def compute_output_spec(self, inputs, training=False):
        specs = self._output_spec(self._function(training), inputs)
        return tree.map_structure(lambda s: KerasTensor(s.shape, dtype=s.dtype), specs)

    def get_config(self):
        config = super().get_config()
        config.update(
            filepath=self.filepath,
            call_endpoint=self.call_endpoint,
            call_training_endpoint=self.call_training_endpoint,
        )
        return config

    @classmethod
    def from_config(cls, config, safe_mode=None):
        """Rebuilds the layer from its config; refused in safe mode (a SavedModel's graphs run code of its own)."""
        if in_safe_mode() if safe_mode is None else bool(safe_mode):
            raise ValueError(
                "Loading a TFSMLayer from a config loads the SavedModel it names, whose graphs run code from that "
                "file, so it is refused in safe mode. If you trust the SavedModel, load with safe_mode=False or call "
                "highlevel.config.enable_unsafe_deserialization() first."
            )
        return cls(**config)
