"""A layer that returns its input unchanged."""

from highlevel.layer import Layer


class Identity(Layer):
    """Returns its input (any nested structure) unchanged (``keras.layers.Identity``).

    Useful as a placeholder, e.g. for a layer that is removed by a configuration option.

    Args:
        **kwargs: base layer arguments (``name``, ``dtype``...).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.layers.Identity()(hl.ops.convert_to_tensor([1.0, 2.0]))).tolist()
    [1.0, 2.0]
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape
