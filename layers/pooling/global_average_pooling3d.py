"""The global average pooling layer for 3D inputs."""

from .base_global_pooling import BaseGlobalPooling


class GlobalAveragePooling3D(BaseGlobalPooling):
    """Global average pooling over the three spatial axes of a volume (``keras.layers.GlobalAveragePooling3D``).

    Args:
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        keepdims: keep the spatial axes with size 1 (default False).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, dim1, dim2, dim3, channels)`` (channels_last) or
        ``(batch, channels, dim1, dim2, dim3)`` (channels_first).

    Output shape:
        ``(batch, channels)``, or with ``keepdims``
        ``(batch, 1, 1, 1, channels)`` (channels_last) / ``(batch, channels, 1, 1, 1)``
        (channels_first).

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(8, dtype="float32"), (1, 2, 2, 2, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.GlobalAveragePooling3D()(x)).tolist()
    [[3.5]]
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(3, "average", data_format=data_format, keepdims=keepdims, **kwargs)
