"""The rectified linear unit as a layer, with Keras' cap, slope and threshold options."""

from highlevel import activations
from highlevel.layer import Layer


def _check_non_negative(name, value, allow_none=False):
    if value is None and allow_none:
        return
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ValueError(
            f"{name} of a ReLU layer cannot be None or a negative value; expected a float >= 0. "
            f"Received: {name}={value!r}"
        )


class ReLU(Layer):
    """Rectified linear unit (``keras.layers.ReLU``).

    ``f(x) = max_value`` for ``x >= max_value``, ``x`` for ``threshold <= x < max_value``, and
    ``negative_slope * (x - threshold)`` otherwise.

    Args:
        max_value: float >= 0, the largest output (None: no cap).
        negative_slope: float >= 0, the slope below the threshold (default 0).
        threshold: float >= 0, below it the output is damped (default 0).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any. Output shape: the input's shape.

    >>> import highlevel as hl
    >>> layer = hl.layers.ReLU(max_value=2.0)
    >>> hl.ops.convert_to_numpy(layer(hl.ops.convert_to_tensor([-1.0, 1.0, 5.0]))).tolist()
    [0.0, 1.0, 2.0]
    """

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        _check_non_negative("max_value", max_value, allow_none=True)
        _check_non_negative("negative_slope", negative_slope)
        _check_non_negative("threshold", threshold)
        self.max_value = max_value
        self.negative_slope = negative_slope
        self.threshold = threshold
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return activations.relu(
            inputs, negative_slope=self.negative_slope, max_value=self.max_value, threshold=self.threshold
        )

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"max_value": self.max_value, "negative_slope": self.negative_slope, "threshold": self.threshold})
        return config
