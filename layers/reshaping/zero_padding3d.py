"""Zero-padding of the three spatial axes of a volume."""

from highlevel.layers.convolutional.conv_utils import standardize_pairs

from .base_zero_padding import BaseZeroPadding


class ZeroPadding3D(BaseZeroPadding):
    """Adds zeros around the three spatial axes of a 5D tensor (``keras.layers.ZeroPadding3D``).

    Args:
        padding: int (the same everywhere), a tuple of 3 ints (symmetric per axis) or a tuple of 3 tuples of
            2 ints ``((left_dim1_pad, right_dim1_pad), (left_dim2_pad, right_dim2_pad), (left_dim3_pad,
            right_dim3_pad))``; default ``((1, 1), (1, 1), (1, 1))``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, dim1, dim2, dim3, channels)`` (channels_last) or ``(batch, channels, dim1, dim2, dim3)``
        (channels_first).

    Output shape:
        the same with each spatial axis grown by its two paddings.

    >>> import highlevel as hl
    >>> hl.ops.shape(hl.layers.ZeroPadding3D((1, 2, 0))(hl.ops.ones((1, 2, 2, 2, 3))))
    (1, 4, 6, 2, 3)
    """

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        pairs = standardize_pairs(padding, 3, "padding")
        super().__init__(3, pairs, data_format=data_format, **kwargs)
        self.padding = pairs
