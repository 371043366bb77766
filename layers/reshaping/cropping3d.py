"""Cropping of the three spatial axes of a volume."""

from highlevel.layers.convolutional.conv_utils import standardize_pairs

from .base_cropping import BaseCropping


class Cropping3D(BaseCropping):
    """Removes entries at the borders of the three spatial axes of a 5D tensor (``keras.layers.Cropping3D``).

    Args:
        cropping: int (the same everywhere), a tuple of 3 ints (symmetric per axis) or a tuple of 3 tuples of
            2 ints ``((left_dim1_crop, right_dim1_crop), (left_dim2_crop, right_dim2_crop), (left_dim3_crop,
            right_dim3_crop))``; default ``((1, 1), (1, 1), (1, 1))``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, dim1, dim2, dim3, channels)`` (channels_last) or ``(batch, channels, dim1, dim2, dim3)``
        (channels_first).

    Output shape:
        the same with each spatial axis shrunk by its two croppings.

    >>> import highlevel as hl
    >>> hl.ops.shape(hl.layers.Cropping3D((1, 0, (0, 2)))(hl.ops.ones((1, 4, 4, 4, 3))))
    (1, 2, 4, 2, 3)
    """

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        pairs = standardize_pairs(cropping, 3, "cropping")
        super().__init__(3, pairs, data_format=data_format, **kwargs)
        self.cropping = pairs
