"""A layer that applies an activation function to its input."""

from highlevel import activations
from highlevel.layer import Layer


class Activation(Layer):
    """Applies an activation function to the output (``keras.layers.Activation``).

    Args:
        activation: an activation name (``"relu"``, ``"softmax"``...) or a callable.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any. Output shape: the input's shape.

    Raises:
        ValueError: if ``activation`` is None (or resolves to no function).

    >>> import highlevel as hl
    >>> layer = hl.layers.Activation("relu")
    >>> hl.ops.convert_to_numpy(layer(hl.ops.convert_to_tensor([-3.0, 0.0, 2.0]))).tolist()
    [0.0, 0.0, 2.0]
    """

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)
        if self.activation is None:
            raise ValueError(f"Activation needs an activation name or callable; received activation={activation!r}.")
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config["activation"] = activations.serialize(self.activation)
        return config
