"""The 2D average pooling layer."""

from .base_pooling import BasePooling


class AveragePooling2D(BasePooling):
    """Average pooling over the two spatial axes of an image (``keras.layers.AveragePooling2D``).

    Each output is the mean of its window; the channels are pooled separately.

    Args:
        pool_size: int or tuple of 2 ints, the window size (required in Keras 3).
        strides: int or tuple of 2 ints; None (default) means ``pool_size``.
        padding: ``"valid"`` (drop incomplete windows) or ``"same"`` (output ``ceil(size / stride)``;
            a window's average counts only its real entries).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, rows, cols, channels)`` (channels_last) or
        ``(batch, channels, rows, cols)`` (channels_first).

    Output shape:
        ``(batch, pooled_rows, pooled_cols, channels)`` (channels_last) or
        ``(batch, channels, pooled_rows, pooled_cols)`` (channels_first),
        with ``pooled = (size - pool_size) // strides + 1`` (``"valid"``) or ``ceil(size / strides)`` (``"same"``).

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(16, dtype="float32"), (1, 4, 4, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.AveragePooling2D(2)(x)).ravel().tolist()
    [2.5, 4.5, 10.5, 12.5]
    """

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(
            pool_size,
            strides,
            pool_dimensions=2,
            pool_mode="average",
            padding=padding,
            data_format=data_format,
            **kwargs,
        )
