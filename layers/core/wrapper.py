"""Wrapper: the base class of layers that wrap another layer and change how it is applied."""

from highlevel.layer import Layer


class Wrapper(Layer):
    """Abstract base of layers that wrap another layer (``keras.layers.Wrapper``).

    It holds the wrapped layer as ``self.layer`` (tracked: its weights are the wrapper's), builds it on the
    wrapper's input shape if needed, and serializes it inside the wrapper's config. A subclass defines ``call``.

    Args:
        layer: the layer to wrap.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Raises:
        ValueError: if ``layer`` is not a Layer instance.

    >>> import highlevel as hl
    >>> class Doubled(hl.layers.Wrapper):
    ...     def call(self, inputs):
    ...         return 2.0 * self.layer(inputs)
    >>> layer = Doubled(hl.layers.Dense(1, kernel_initializer="ones", use_bias=False))
    >>> hl.ops.convert_to_numpy(layer(hl.ops.ones((1, 3)))).tolist(), len(layer.weights)
    ([[6.0]], 1)
    """

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(
                f"{type(self).__name__} wraps a layer (an hl.layers.Layer instance); received {layer!r} "
                f"of type {type(layer).__name__}."
            )
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            self.layer.build(input_shape)
            self.layer.built = True
        self.built = True

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)

    def get_config(self):
        from highlevel.layers import serialize

        config = super().get_config()
        config["layer"] = serialize(self.layer)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from highlevel.layers import deserialize
        from highlevel.saving.object_registry import allowed_objects

        # The wrapped layer may be a user class: registered, in a custom_object_scope, or passed here.
        config = dict(config)
        layer = deserialize(config.pop("layer"), custom_objects=allowed_objects(custom_objects))
        return cls(layer, **config)
