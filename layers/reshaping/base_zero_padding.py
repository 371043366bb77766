"""The N-D zero-padding layer that ZeroPadding1D, ZeroPadding2D and ZeroPadding3D specialise."""

from highlevel import ops
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer
from highlevel.layers.convolutional.conv_utils import spatial_axes, standardize_data_format
from highlevel.layers.convolutional.static_output_spec import StaticOutputSpec


class BaseZeroPadding(StaticOutputSpec, Layer):
    """Abstract zero-padding layer: adds zeros before and after each spatial axis.

    Args:
        rank: the number of spatial dimensions (1, 2 or 3).
        padding: ``rank`` ``(before, after)`` pairs of non-negative ints (already standardized).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).
    """

    def __init__(self, rank, padding, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.pairs = padding
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=rank + 2)
        self.built = True

    def call(self, inputs):
        axes, _ = spatial_axes(self.rank, self.data_format)
        widths = [(0, 0)] * (self.rank + 2)
        for axis, pair in zip(axes, self.pairs):
            widths[axis] = pair
        return ops.pad(inputs, widths)

    def compute_output_shape(self, input_shape):
        out = list(input_shape)
        axes, _ = spatial_axes(self.rank, self.data_format)
        for axis, (before, after) in zip(axes, self.pairs):
            if out[axis] is not None:
                out[axis] += before + after
        return tuple(out)

    def get_config(self):
        config = super().get_config()
        config.update({"padding": self.padding, "data_format": self.data_format})
        return config
