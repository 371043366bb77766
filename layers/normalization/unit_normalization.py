"""UnitNormalization: scales each sample to unit L2 norm over the given axes."""

from highlevel import ops
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._axes import check_axis_arg, resolve_axes

# Keras clips the inverse norm at 1 / 1e-12 so that an all-zero input gives zeros, not NaN.
_MAX_INV_NORM = 1e12


class UnitNormalization(Layer):
    """Normalizes a batch of inputs so that each sample has L2 norm 1 over ``axis``
    (``keras.layers.UnitNormalization``): ``x / sqrt(sum(x**2, axis))``.

    Args:
        axis: int or list of ints, the axes over which the norm is taken (default the last axis).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any. Output shape: the input's shape.

    >>> import highlevel as hl
    >>> y = hl.layers.UnitNormalization()(hl.ops.convert_to_tensor([[3.0, 4.0]]))
    >>> [round(v, 4) for v in hl.ops.convert_to_numpy(y)[0].tolist()]
    [0.6, 0.8]
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = check_axis_arg(axis, "UnitNormalization")
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        x = inputs
        if "float" not in ops.dtype(x):
            x = ops.cast(x, self.compute_dtype)
        axes = tuple(resolve_axes(self.axis, ops.ndim(x), f"layer '{self.name}'", ops.shape(x)))
        inv_norm = ops.rsqrt(ops.sum(ops.square(x), axis=axes, keepdims=True))
        return ops.multiply(x, ops.minimum(inv_norm, _MAX_INV_NORM))

    def compute_output_spec(self, inputs, *args, **kwargs):
        resolve_axes(self.axis, len(inputs.shape), f"layer '{self.name}'", inputs.shape)
        dtype = inputs.dtype if "float" in inputs.dtype else self.compute_dtype
        return KerasTensor(tuple(inputs.shape), dtype)

    def compute_output_shape(self, input_shape):
        resolve_axes(self.axis, len(input_shape), f"layer '{self.name}'", input_shape)
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config
