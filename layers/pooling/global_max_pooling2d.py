"""The global max pooling layer for 2D inputs."""

from .base_global_pooling import BaseGlobalPooling


class GlobalMaxPooling2D(BaseGlobalPooling):
    """Global max pooling over the two spatial axes of an image (``keras.layers.GlobalMaxPooling2D``).

    Args:
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        keepdims: keep the spatial axes with size 1 (default False).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, rows, cols, channels)`` (channels_last) or
        ``(batch, channels, rows, cols)`` (channels_first).

    Output shape:
        ``(batch, channels)``, or with ``keepdims``
        ``(batch, 1, 1, channels)`` (channels_last) / ``(batch, channels, 1, 1)``
        (channels_first).

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(16, dtype="float32"), (1, 4, 4, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.GlobalMaxPooling2D()(x)).tolist()
    [[15.0]]
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(2, "max", data_format=data_format, keepdims=keepdims, **kwargs)
