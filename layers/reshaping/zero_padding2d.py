"""Zero-padding of the rows and columns of an image."""

from highlevel.layers.convolutional.conv_utils import standardize_pairs

from .base_zero_padding import BaseZeroPadding


class ZeroPadding2D(BaseZeroPadding):
    """Adds rows and columns of zeros around a 4D image tensor (``keras.layers.ZeroPadding2D``).

    Args:
        padding: int (the same on all four sides), a tuple of 2 ints ``(symmetric_height_pad,
            symmetric_width_pad)`` or a tuple of 2 tuples of 2 ints ``((top_pad, bottom_pad), (left_pad,
            right_pad))``; default ``(1, 1)``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, rows, cols, channels)`` (channels_last) or ``(batch, channels, rows, cols)``
        (channels_first).

    Output shape:
        the same with ``rows + top_pad + bottom_pad`` rows and ``cols + left_pad + right_pad`` columns.

    >>> import highlevel as hl
    >>> layer = hl.layers.ZeroPadding2D(((1, 0), (0, 2)))
    >>> hl.ops.convert_to_numpy(layer(hl.ops.ones((1, 1, 1, 1))))[0, :, :, 0].tolist()
    [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]
    """

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        pairs = standardize_pairs(padding, 2, "padding")
        super().__init__(2, pairs, data_format=data_format, **kwargs)
        self.padding = pairs
