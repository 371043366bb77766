"""The global max pooling layer for 1D inputs."""

from .base_global_pooling import BaseGlobalPooling


class GlobalMaxPooling1D(BaseGlobalPooling):
    """Global max pooling over the steps axis of a sequence (``keras.layers.GlobalMaxPooling1D``).

    Args:
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        keepdims: keep the spatial axes with size 1 (default False).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, steps, channels)`` (channels_last) or
        ``(batch, channels, steps)`` (channels_first).

    Output shape:
        ``(batch, channels)``, or with ``keepdims``
        ``(batch, 1, channels)`` (channels_last) / ``(batch, channels, 1)``
        (channels_first).

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(4, dtype="float32"), (1, 4, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.GlobalMaxPooling1D()(x)).tolist()
    [[3.0]]
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(1, "max", data_format=data_format, keepdims=keepdims, **kwargs)
