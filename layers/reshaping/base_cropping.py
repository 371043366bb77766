"""The N-D cropping layer that Cropping1D, Cropping2D and Cropping3D specialise."""

from highlevel import ops
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer
from highlevel.layers.convolutional.conv_utils import spatial_axes, standardize_data_format
from highlevel.layers.convolutional.static_output_spec import StaticOutputSpec


class BaseCropping(StaticOutputSpec, Layer):
    """Abstract cropping layer: removes entries at the start and the end of each spatial axis.

    Args:
        rank: the number of spatial dimensions (1, 2 or 3).
        cropping: ``rank`` ``(before, after)`` pairs of non-negative ints (already standardized).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).
    """

    def __init__(self, rank, cropping, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.pairs = cropping
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=rank + 2)
        self.built = True

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        out = list(input_shape)
        axes, _ = spatial_axes(self.rank, self.data_format)
        for axis, (before, after) in zip(axes, self.pairs):
            if out[axis] is None:
                continue
            out[axis] -= before + after
            if out[axis] <= 0:
                raise ValueError(
                    f"Layer '{self.name}': the cropping must be smaller than the input along each cropped axis, "
                    f"but axis {axis} has size {input_shape[axis]} and the cropping removes {before + after}. "
                    f"Received: input_shape={input_shape}, cropping={self.cropping}"
                )
        return tuple(out)

    def call(self, inputs):
        shape = tuple(inputs.shape)
        self.compute_output_shape(shape)  # the size check, with a clear message
        key = [slice(None)] * len(shape)
        axes, _ = spatial_axes(self.rank, self.data_format)
        for axis, (before, after) in zip(axes, self.pairs):
            key[axis] = slice(before, -after if after else None)
        return ops.getitem(inputs, tuple(key))

    def get_config(self):
        config = super().get_config()
        config.update({"cropping": self.cropping, "data_format": self.data_format})
        return config
