"""The adaptive max pooling layer for 1D inputs."""

from .base_adaptive_pooling import BaseAdaptivePooling


class AdaptiveMaxPooling1D(BaseAdaptivePooling):
    """Pools each spatial axis to ``output_size`` by taking the maximum of adaptive windows
    (``keras.layers.AdaptiveMaxPooling1D``).

    Args:
        output_size: an int or a tuple of 1 positive ints, the output's spatial size.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: ``hl.config.image_data_format()``).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: ``(batch, length, channels)`` (channels_last)
    or ``(batch, channels, length)`` (channels_first).
    Output shape: ``(batch, output_size, channels)`` (channels_last), channels first likewise.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(6, dtype="float32"), (1, 6, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.AdaptiveMaxPooling1D(2)(x)).ravel().tolist()
    [2.0, 5.0]
    """

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(1, "max", output_size, data_format=data_format, **kwargs)
