"""The 3D average pooling layer."""

from .base_pooling import BasePooling


class AveragePooling3D(BasePooling):
    """Average pooling over the three spatial axes of a volume (``keras.layers.AveragePooling3D``).

    Each output is the mean of its window; the channels are pooled separately.

    Args:
        pool_size: int or tuple of 3 ints, the window size (required in Keras 3).
        strides: int or tuple of 3 ints; None (default) means ``pool_size``.
        padding: ``"valid"`` (drop incomplete windows) or ``"same"`` (output ``ceil(size / stride)``;
            a window's average counts only its real entries).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, dim1, dim2, dim3, channels)`` (channels_last) or
        ``(batch, channels, dim1, dim2, dim3)`` (channels_first).

    Output shape:
        ``(batch, pooled_dim1, pooled_dim2, pooled_dim3, channels)`` (channels_last) or
        ``(batch, channels, pooled_dim1, pooled_dim2, pooled_dim3)`` (channels_first),
        with ``pooled = (size - pool_size) // strides + 1`` (``"valid"``) or ``ceil(size / strides)`` (``"same"``).

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(8, dtype="float32"), (1, 2, 2, 2, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.AveragePooling3D(2)(x)).ravel().tolist()
    [3.5]
    """

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(
            pool_size,
            strides,
            pool_dimensions=3,
            pool_mode="average",
            padding=padding,
            data_format=data_format,
            **kwargs,
        )
