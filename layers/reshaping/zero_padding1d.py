"""Zero-padding of the steps axis of a sequence."""

from highlevel.layers.convolutional.conv_utils import standardize_tuple

from .base_zero_padding import BaseZeroPadding


class ZeroPadding1D(BaseZeroPadding):
    """Pads the steps axis of a 3D input with zeros (``keras.layers.ZeroPadding1D``).

    Args:
        padding: int (the same number of zeros at the start and the end) or a tuple of 2 ints
            ``(left_pad, right_pad)``; default 1.
        data_format: ``"channels_last"`` (default, ``(batch, steps, features)``) or ``"channels_first"``
            (``(batch, features, steps)``).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, steps, features)`` (channels_last) or ``(batch, features, steps)`` (channels_first).

    Output shape:
        the same with ``steps + left_pad + right_pad`` steps.

    >>> import highlevel as hl
    >>> x = hl.ops.ones((1, 2, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.ZeroPadding1D((1, 2))(x))[0, :, 0].tolist()
    [0.0, 1.0, 1.0, 0.0, 0.0]
    """

    def __init__(self, padding=1, data_format=None, **kwargs):
        pair = standardize_tuple(padding, 2, "padding", allow_zero=True)
        super().__init__(1, (pair,), data_format=data_format, **kwargs)
        self.padding = pair
