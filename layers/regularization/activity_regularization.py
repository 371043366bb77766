"""ActivityRegularization: an identity layer that adds an L1/L2 penalty on its input to the losses."""

from highlevel import ops, regularizers
from highlevel.layer import Layer


class ActivityRegularization(Layer):
    """Adds ``(l1 * sum(|x|) + l2 * sum(x**2)) / batch_size`` of its input to the layer's losses
    (``keras.layers.ActivityRegularization``); the output is the input unchanged.

    The penalty is added with ``add_loss`` on every call (training or not), so it appears in
    ``layer.losses`` / ``model.losses`` and is added to the training loss by ``fit``. As in Keras 3, it
    is divided by the batch size (the size of axis 0) so that its strength does not depend on it.

    Args:
        l1: non-negative float, the L1 factor.
        l2: non-negative float, the L2 factor.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any. Output shape: the input's shape.

    >>> import highlevel as hl
    >>> layer = hl.layers.ActivityRegularization(l1=0.5, l2=0.1)
    >>> y = layer(hl.ops.convert_to_tensor([[1.0, -2.0]]))
    >>> round(float(hl.ops.convert_to_numpy(layer.losses[0])), 4)  # 0.5 * 3 + 0.1 * 5
    2.0
    """

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        kwargs.pop("activity_regularizer", None)  # the penalty is this layer's own; Keras drops it too
        super().__init__(**kwargs)
        self._penalty = regularizers.L1L2(l1=l1, l2=l2)  # validates the factors
        self.l1 = self._penalty.l1
        self.l2 = self._penalty.l2
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        penalty = self._penalty(inputs)
        shape = ops.shape(inputs)
        if len(shape) > 0 and shape[0]:
            penalty = ops.divide(penalty, ops.cast(shape[0], ops.dtype(penalty)))
        self.add_loss(penalty)
        return inputs

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.pop("activity_regularizer", None)
        config.update({"l1": self.l1, "l2": self.l2})
        return config
