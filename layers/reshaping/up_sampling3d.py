"""Upsampling of the three spatial axes of a volume."""

from highlevel.layers.convolutional.conv_utils import standardize_tuple

from .base_up_sampling import BaseUpSampling


class UpSampling3D(BaseUpSampling):
    """Repeats each entry ``size[i]`` times along spatial axis ``i`` of a 5D tensor
    (``keras.layers.UpSampling3D``).

    Args:
        size: int or tuple of 3 ints, the upsampling factors (default ``(2, 2, 2)``).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, dim1, dim2, dim3, channels)`` (channels_last) or ``(batch, channels, dim1, dim2, dim3)``
        (channels_first).

    Output shape:
        the same with ``dim_i * size[i]`` along each spatial axis.

    >>> import highlevel as hl
    >>> hl.ops.shape(hl.layers.UpSampling3D((1, 2, 3))(hl.ops.ones((1, 2, 2, 2, 4))))
    (1, 2, 4, 6, 4)
    """

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        factors = standardize_tuple(size, 3, "size")
        super().__init__(3, factors, data_format=data_format, **kwargs)
        self.size = factors

    def get_config(self):
        config = super().get_config()
        config.update({"size": self.size, "data_format": self.data_format})
        return config
