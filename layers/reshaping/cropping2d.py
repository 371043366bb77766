"""Cropping of the rows and columns of an image."""

from highlevel.layers.convolutional.conv_utils import standardize_pairs

from .base_cropping import BaseCropping


class Cropping2D(BaseCropping):
    """Removes rows and columns at the borders of a 4D image tensor (``keras.layers.Cropping2D``).

    Args:
        cropping: int (the same on all four sides), a tuple of 2 ints ``(symmetric_height_crop,
            symmetric_width_crop)`` or a tuple of 2 tuples of 2 ints ``((top_crop, bottom_crop), (left_crop,
            right_crop))``; default ``((0, 0), (0, 0))``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, rows, cols, channels)`` (channels_last) or ``(batch, channels, rows, cols)``
        (channels_first).

    Output shape:
        the same with ``rows - top_crop - bottom_crop`` rows and ``cols - left_crop - right_crop`` columns.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(16, dtype="float32"), (1, 4, 4, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.Cropping2D(((1, 2), (0, 1)))(x))[0, :, :, 0].tolist()
    [[4.0, 5.0, 6.0]]
    """

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        pairs = standardize_pairs(cropping, 2, "cropping")
        super().__init__(2, pairs, data_format=data_format, **kwargs)
        self.cropping = pairs
