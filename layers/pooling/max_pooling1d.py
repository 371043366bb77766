"""The 1D max pooling layer."""

from .base_pooling import BasePooling


class MaxPooling1D(BasePooling):
    """Max pooling over the steps axis of a sequence (``keras.layers.MaxPooling1D``).

    Each output is the largest entry of its window; the channels are pooled separately.

    Args:
        pool_size: int or 1-tuple, the window size (default 2).
        strides: int or 1-tuple; None (default) means ``pool_size``.
        padding: ``"valid"`` (drop incomplete windows) or ``"same"`` (output ``ceil(size / stride)``).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, steps, channels)`` (channels_last) or
        ``(batch, channels, steps)`` (channels_first).

    Output shape:
        ``(batch, pooled_steps, channels)`` (channels_last) or
        ``(batch, channels, pooled_steps)`` (channels_first),
        with ``pooled = (size - pool_size) // strides + 1`` (``"valid"``) or ``ceil(size / strides)`` (``"same"``).

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(4, dtype="float32"), (1, 4, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.MaxPooling1D()(x)).ravel().tolist()
    [1.0, 3.0]
    """

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(
            pool_size, strides, pool_dimensions=1, pool_mode="max", padding=padding, data_format=data_format, **kwargs
        )
