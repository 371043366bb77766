"""The 3D max pooling layer."""

from .base_pooling import BasePooling


class MaxPooling3D(BasePooling):
    """Max pooling over the three spatial axes of a volume (``keras.layers.MaxPooling3D``).

    Each output is the largest entry of its window; the channels are pooled separately.

    Args:
        pool_size: int or tuple of 3 ints, the window size (default (2, 2, 2)).
        strides: int or tuple of 3 ints; None (default) means ``pool_size``.
        padding: ``"valid"`` (drop incomplete windows) or ``"same"`` (output ``ceil(size / stride)``).
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
    >>> hl.ops.convert_to_numpy(hl.layers.MaxPooling3D()(x)).ravel().tolist()
    [7.0]
    """

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(
            pool_size, strides, pool_dimensions=3, pool_mode="max", padding=padding, data_format=data_format, **kwargs
        )
