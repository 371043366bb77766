"""The adaptive max pooling layer for 3D inputs."""

from .base_adaptive_pooling import BaseAdaptivePooling


class AdaptiveMaxPooling3D(BaseAdaptivePooling):
    """Pools each spatial axis to ``output_size`` by taking the maximum of adaptive windows
    (``keras.layers.AdaptiveMaxPooling3D``).

    Args:
        output_size: an int or a tuple of 3 positive ints, the output's spatial size.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: ``hl.config.image_data_format()``).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: ``(batch, depth, height, width, channels)`` (channels_last)
    or ``(batch, channels, depth, height, width)`` (channels_first).
    Output shape: ``(batch, *output_size, channels)`` (channels_last), channels first likewise.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(6, dtype="float32"), (1, 2, 3, 1, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.AdaptiveMaxPooling3D((2, 1, 1))(x)).ravel().tolist()
    [2.0, 5.0]
    """

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(3, "max", output_size, data_format=data_format, **kwargs)
