"""The adaptive average pooling layer for 3D inputs."""

from .base_adaptive_pooling import BaseAdaptivePooling


class AdaptiveAveragePooling3D(BaseAdaptivePooling):
    """Pools each spatial axis to ``output_size`` by taking the average of adaptive windows
    (``keras.layers.AdaptiveAveragePooling3D``).

    Args:
        output_size: an int or a tuple of 3 positive ints, the output's spatial size.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: ``hl.config.image_data_format()``).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: ``(batch, depth, height, width, channels)`` (channels_last)
    or ``(batch, channels, depth, height, width)`` (channels_first).
    Output shape: ``(batch, *output_size, channels)`` (channels_last), channels first likewise.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(6, dtype="float32"), (1, 2, 3, 1, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.AdaptiveAveragePooling3D((2, 1, 1))(x)).ravel().tolist()
    [1.0, 4.0]
    """

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(3, "average", output_size, data_format=data_format, **kwargs)
