"""The N-D nearest-neighbour upsampling layer that UpSampling1D, UpSampling2D and UpSampling3D specialise."""

from highlevel import ops
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer
from highlevel.layers.convolutional.conv_utils import spatial_axes, standardize_data_format
from highlevel.layers.convolutional.static_output_spec import StaticOutputSpec


class BaseUpSampling(StaticOutputSpec, Layer):
    """Abstract upsampling layer: repeats each entry ``factors[i]`` times along spatial axis ``i``.

    Args:
        rank: the number of spatial dimensions (1, 2 or 3).
        factors: ``rank`` positive ints (already standardized).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).
    """

    def __init__(self, rank, factors, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.factors = tuple(factors)
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=rank + 2)
        self.built = True

    def call(self, inputs):
        axes, _ = spatial_axes(self.rank, self.data_format)
        for axis, factor in zip(axes, self.factors):
            if factor != 1:
                inputs = ops.repeat(inputs, factor, axis=axis)
        return inputs

    def compute_output_shape(self, input_shape):
        out = list(input_shape)
        axes, _ = spatial_axes(self.rank, self.data_format)
        for axis, factor in zip(axes, self.factors):
            if out[axis] is not None:
                out[axis] *= factor
        return tuple(out)
