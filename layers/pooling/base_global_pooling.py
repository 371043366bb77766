"""The global pooling layer that the GlobalMax/GlobalAveragePooling1D/2D/3D layers specialise."""

from highlevel import ops
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer
from highlevel.layers.convolutional.conv_utils import spatial_axes, standardize_data_format
from highlevel.layers.convolutional.static_output_spec import StaticOutputSpec


class BaseGlobalPooling(StaticOutputSpec, Layer):
    """Abstract global pooling layer: the max or the mean over every spatial axis.

    Args:
        pool_dimensions: the number of spatial dimensions (1, 2 or 3).
        pool_mode: ``"max"`` or ``"average"``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        keepdims: keep the spatial axes with size 1 (default False: the output is ``(batch, channels)``).
        **kwargs: base layer arguments (``name``, ``dtype``...).
    """

    def __init__(self, pool_dimensions, pool_mode, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        if pool_mode not in ("max", "average"):
            raise ValueError(f"`pool_mode` must be 'max' or 'average'. Received: pool_mode={pool_mode!r}")
        self.pool_dimensions = pool_dimensions
        self.pool_mode = pool_mode
        self.data_format = standardize_data_format(data_format)
        self.keepdims = bool(keepdims)
        self.input_spec = InputSpec(ndim=pool_dimensions + 2)
        self.built = True

    @property
    def float_output(self):
        """An average of integers is a float (see StaticOutputSpec)."""
        return self.pool_mode == "average"

    def _axes(self):
        return spatial_axes(self.pool_dimensions, self.data_format)[0]

    def call(self, inputs):
        reduce = ops.max if self.pool_mode == "max" else ops.mean
        return reduce(inputs, axis=self._axes(), keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        axes = self._axes()
        if self.keepdims:
            return tuple(1 if i in axes else d for i, d in enumerate(input_shape))
        return tuple(d for i, d in enumerate(input_shape) if i not in axes)

    def get_config(self):
        config = super().get_config()
        config.update({"data_format": self.data_format, "keepdims": self.keepdims})
        return config
