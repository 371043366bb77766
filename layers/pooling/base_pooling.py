"""The N-D windowed pooling layer that the Max/AveragePooling1D/2D/3D layers specialise."""

from highlevel import ops
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer
from highlevel.layers.convolutional.conv_utils import (
    conv_output_length,
    spatial_axes,
    standardize_data_format,
    standardize_padding,
    standardize_tuple,
)
from highlevel.layers.convolutional.static_output_spec import StaticOutputSpec


class BasePooling(StaticOutputSpec, Layer):
    """Abstract pooling layer over 1, 2 or 3 spatial dimensions: the max or the average of each window.

    Args:
        pool_size: int or tuple of ``pool_dimensions`` ints, the window size.
        strides: int or tuple of ints; None (default) means ``pool_size``.
        pool_dimensions: the number of spatial dimensions.
        pool_mode: ``"max"`` or ``"average"``.
        padding: ``"valid"`` (drop incomplete windows) or ``"same"`` (output ``ceil(size / stride)``; an
            average counts only the real entries of a window).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).
    """

    def __init__(
        self, pool_size, strides, pool_dimensions, pool_mode="max", padding="valid", data_format=None, **kwargs
    ):
        super().__init__(**kwargs)
        if pool_mode not in ("max", "average"):
            raise ValueError(f"`pool_mode` must be 'max' or 'average'. Received: pool_mode={pool_mode!r}")
        self.pool_dimensions = pool_dimensions
        self.pool_mode = pool_mode
        self.pool_size = standardize_tuple(pool_size, pool_dimensions, "pool_size")
        self.strides = self.pool_size if strides is None else standardize_tuple(strides, pool_dimensions, "strides")
        self.padding = standardize_padding(padding)
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=pool_dimensions + 2)
        self.built = True

    @property
    def float_output(self):
        """An average of integers is a float (see StaticOutputSpec)."""
        return self.pool_mode == "average"

    def call(self, inputs):
        pool = ops.max_pool if self.pool_mode == "max" else ops.average_pool
        return pool(
            inputs, pool_size=self.pool_size, strides=self.strides, padding=self.padding, data_format=self.data_format
        )

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        axes, _ = spatial_axes(self.pool_dimensions, self.data_format)
        out = list(input_shape)
        for i, axis in enumerate(axes):
            out[axis] = conv_output_length(input_shape[axis], self.pool_size[i], self.padding, self.strides[i])
            if out[axis] is not None and out[axis] <= 0:
                raise ValueError(
                    f"Layer '{self.name}': the output would have size {out[axis]} along axis {axis}. Received "
                    f"input shape {input_shape} with pool_size={self.pool_size}, strides={self.strides}, "
                    f"padding={self.padding!r}. Use a larger input or padding='same'."
                )
        return tuple(out)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "pool_size": self.pool_size,
                "padding": self.padding,
                "strides": self.strides,
                "data_format": self.data_format,
            }
        )
        return config
