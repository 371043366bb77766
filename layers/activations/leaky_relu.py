"""The leaky rectified linear unit as a layer."""

import warnings

from highlevel import ops
from highlevel.layer import Layer


class LeakyReLU(Layer):
    """Leaky version of a rectified linear unit (``keras.layers.LeakyReLU``).

    ``f(x) = negative_slope * x`` for ``x < 0`` and ``x`` for ``x >= 0``.

    Args:
        negative_slope: float >= 0, the slope for negative inputs (default 0.3). The Keras 2 spelling
            ``alpha`` is accepted with a deprecation warning.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any. Output shape: the input's shape.

    Raises:
        ValueError: if ``negative_slope`` is None, not a number, or negative.

    >>> import highlevel as hl
    >>> layer = hl.layers.LeakyReLU(negative_slope=0.5)
    >>> hl.ops.convert_to_numpy(layer(hl.ops.convert_to_tensor([-2.0, 3.0]))).tolist()
    [-1.0, 3.0]
    """

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
            warnings.warn(
                "Argument `alpha` of LeakyReLU is deprecated. Use `negative_slope` instead.",
                DeprecationWarning,
                stacklevel=2,
            )
        super().__init__(**kwargs)
        if (
            negative_slope is None
            or isinstance(negative_slope, bool)
            or not isinstance(negative_slope, (int, float))
            or negative_slope < 0
        ):
            raise ValueError(
                "The negative_slope value of a Leaky ReLU layer cannot be None or negative value. Expected a "
                f"float. Received: negative_slope={negative_slope!r}"
            )
        self.negative_slope = negative_slope
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return ops.leaky_relu(inputs, negative_slope=self.negative_slope)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config["negative_slope"] = self.negative_slope
        return config
