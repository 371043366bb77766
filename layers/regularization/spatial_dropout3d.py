"""SpatialDropout3D: drops whole channels of a volume."""

from .base_spatial_dropout import BaseSpatialDropout


class SpatialDropout3D(BaseSpatialDropout):
    """Dropout of entire 3D feature maps (``keras.layers.SpatialDropout3D``).

    Args:
        rate: float in ``[0, 1)``, the fraction of channels to drop.
        data_format: ``"channels_last"`` (``(batch, d1, d2, d3, channels)``, the default) or
            ``"channels_first"`` (``(batch, channels, d1, d2, d3)``).
        seed: optional int for reproducible masks.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: a 5D tensor. Output shape: the same.

    >>> import highlevel as hl
    >>> y = hl.layers.SpatialDropout3D(0.5, data_format="channels_first", seed=3)(hl.ops.ones((2, 4, 2, 2, 2)),
    ...                                                                          training=True)
    >>> a = hl.ops.convert_to_numpy(y)
    >>> bool((a == a[:, :, :1, :1, :1]).all())
    True
    """

    _rank = 5
