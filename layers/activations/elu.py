"""The exponential linear unit as a layer."""

from highlevel import ops
from highlevel.layer import Layer


class ELU(Layer):
    """Exponential linear unit (``keras.layers.ELU``).

    ``f(x) = alpha * (exp(x) - 1)`` for ``x < 0`` and ``x`` for ``x >= 0``.

    Args:
        alpha: the scale of the negative part (default 1.0).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any. Output shape: the input's shape.

    Raises:
        ValueError: if ``alpha`` is not a number.

    >>> import highlevel as hl
    >>> y = hl.layers.ELU(alpha=2.0)(hl.ops.convert_to_tensor([0.0, 1.0]))
    >>> hl.ops.convert_to_numpy(y).tolist()
    [0.0, 1.0]
    """

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        if alpha is None or isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
            raise ValueError(f"The alpha of an ELU layer must be a number. Received: alpha={alpha!r}")
        self.alpha = alpha
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return ops.elu(inputs, alpha=self.alpha)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config["alpha"] = self.alpha
        return config
