"""The adaptive pooling layer that AdaptiveAverage/AdaptiveMaxPooling1D/2D/3D specialise."""

import numbers

from highlevel import ops
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer
from highlevel.layers.convolutional.conv_utils import standardize_data_format
from highlevel.layers.convolutional.static_output_spec import StaticOutputSpec

_AXES_NAMES = {1: "(length,)", 2: "(height, width)", 3: "(depth, height, width)"}


class BaseAdaptivePooling(StaticOutputSpec, Layer):
    """Abstract adaptive pooling layer: pools each spatial axis to a fixed size whatever the input's size.

    Output ``i`` of an axis of length ``L`` pooled to ``O`` covers the inputs ``[floor(i L / O), ceil((i + 1) L / O))``
    (PyTorch's windows, as Keras).

    Args:
        pool_dimensions: the number of spatial dimensions (1, 2 or 3).
        pool_mode: ``"max"`` or ``"average"``.
        output_size: an int (every spatial axis) or one positive int per spatial axis.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: ``hl.config.image_data_format()``).
        **kwargs: base layer arguments (``name``, ``dtype``...).
    """

    def __init__(self, pool_dimensions, pool_mode, output_size, data_format=None, **kwargs):
        super().__init__(**kwargs)
        who = type(self).__name__
        if isinstance(output_size, numbers.Integral) and not isinstance(output_size, bool):
            output_size = (int(output_size),) * pool_dimensions
        if (
            not isinstance(output_size, (tuple, list))
            or len(output_size) != pool_dimensions
            or not all(isinstance(s, numbers.Integral) and not isinstance(s, bool) and s > 0 for s in output_size)
        ):
            raise TypeError(
                f"`output_size` of {who} must be a positive int or a tuple of {pool_dimensions} positive ints "
                f"{_AXES_NAMES[pool_dimensions]}; received output_size={output_size!r}."
            )
        self.pool_dimensions = pool_dimensions
        self.pool_mode = pool_mode
        self.output_size = tuple(int(s) for s in output_size)
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=pool_dimensions + 2)
        self.built = True

    @property
    def float_output(self):
        """An average of integers is a float (see StaticOutputSpec)."""
        return self.pool_mode == "average"

    def call(self, inputs):
        pool = ops.adaptive_max_pool if self.pool_mode == "max" else ops.adaptive_average_pool
        return pool(inputs, output_size=self.output_size, data_format=self.data_format)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        if self.data_format == "channels_last":
            return (input_shape[0], *self.output_size, input_shape[-1])
        return (input_shape[0], input_shape[1], *self.output_size)

    def get_config(self):
        config = super().get_config()
        config.update({"output_size": self.output_size, "data_format": self.data_format})
        return config
