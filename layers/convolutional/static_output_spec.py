"""Symbolic outputs of the spatial layers from their ``compute_output_shape``.

The generic symbolic call runs ``call`` on placeholders of two trial sizes for each unknown dimension, which
cannot see that a pooled or strided axis of unknown size stays unknown (sizes 2 and 3 both pool to 1), and
which fails outright when a placeholder is smaller than a kernel. The spatial layers know their output shape
exactly, so they describe their symbolic outputs with it.
"""

from highlevel import dtypes
from highlevel.keras_tensor import KerasTensor


class StaticOutputSpec:
    """Mixin (before ``Layer`` in the bases): ``compute_output_spec`` from ``compute_output_shape``.

    The output dtype is the layer's compute dtype when the layer has weights or ``float_output`` is true (an
    average of integers is a float), else the input's dtype after autocasting (float inputs take the compute
    dtype, integer inputs keep theirs).
    """

    float_output = False

    def compute_output_spec(self, inputs, *args, **kwargs):
        dtype = inputs.dtype
        if self.float_output or self.weights or (self.autocast and dtypes.is_float_dtype(dtype)):
            dtype = self.compute_dtype
        return KerasTensor(tuple(self.compute_output_shape(tuple(inputs.shape))), dtype)
