"""RMSNormalization: divides by the root mean square over the given axes and multiplies by a learned scale."""

from highlevel import ops
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._axes import check_axis_arg, resolve_axes


class RMSNormalization(Layer):
    """Root-mean-square normalization (``keras.layers.RMSNormalization``; Zhang & Sennrich, 2019):
    ``x / sqrt(mean(x², axis) + epsilon) * scale``, with no centring (unlike LayerNormalization).

    Args:
        axis: int or list of ints, the axes the mean is taken over and the learned ``scale`` spans (default -1).
        epsilon: added to the mean square (1e-6).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any. Output shape: the input's shape.

    Raises:
        ValueError: if ``epsilon`` is negative or not a number.

    >>> import highlevel as hl
    >>> y = hl.layers.RMSNormalization(epsilon=0.0)(hl.ops.convert_to_tensor([[3.0, 4.0]]))
    >>> [round(v, 4) for v in hl.ops.convert_to_numpy(y)[0].tolist()]  # the RMS of (3, 4) is sqrt(12.5)
    [0.8485, 1.1314]
    """

    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.axis = check_axis_arg(axis, "RMSNormalization")
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or epsilon < 0:
            raise ValueError(f"`epsilon` of RMSNormalization must be a number >= 0; received epsilon={epsilon!r}.")
        self.epsilon = float(epsilon)
        self.supports_masking = True

    def build(self, input_shape):
        ndim = len(input_shape)
        self._axes = resolve_axes(self.axis, ndim, f"layer '{self.name}'", input_shape)
        shape = tuple(input_shape[a] for a in self._axes)
        if any(d is None for d in shape):
            raise ValueError(
                f"Layer '{self.name}' needs known sizes on the normalized axes {self._axes} to create its scale; "
                f"received input_shape={tuple(input_shape)}."
            )
        self.scale = self.add_weight(shape=shape, initializer="ones", name="scale")
        # The scale spans the normalized axes; it is laid out against the input with ones elsewhere.
        self._broadcast_shape = tuple(input_shape[d] if d in self._axes else 1 for d in range(ndim))
        self.built = True

    def call(self, inputs):
        scale = ops.reshape(self.scale, self._broadcast_shape)
        return ops.rms_normalization(inputs, scale=scale, axis=self._axes, epsilon=self.epsilon)

    def compute_output_spec(self, inputs, *args, **kwargs):
        resolve_axes(self.axis, len(inputs.shape), f"layer '{self.name}'", inputs.shape)
        return KerasTensor(tuple(inputs.shape), inputs.dtype)

    def compute_output_shape(self, input_shape):
        resolve_axes(self.axis, len(input_shape), f"layer '{self.name}'", input_shape)
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"axis": self.axis, "epsilon": self.epsilon})
        return config
