"""SpatialDropout2D: drops whole channels of an image."""

from .base_spatial_dropout import BaseSpatialDropout


class SpatialDropout2D(BaseSpatialDropout):
    """Dropout of entire 2D feature maps (``keras.layers.SpatialDropout2D``).

    A channel of an image is either dropped everywhere or kept (scaled by ``1 / (1 - rate)``)
    everywhere. Only active with ``training=True``.

    Args:
        rate: float in ``[0, 1)``, the fraction of channels to drop.
        data_format: ``"channels_last"`` (``(batch, rows, cols, channels)``, the default) or
            ``"channels_first"`` (``(batch, channels, rows, cols)``).
        seed: optional int for reproducible masks.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: a 4D tensor. Output shape: the same.

    >>> import highlevel as hl
    >>> y = hl.layers.SpatialDropout2D(0.5, seed=3)(hl.ops.ones((2, 3, 3, 4)), training=True)
    >>> a = hl.ops.convert_to_numpy(y)
    >>> bool((a == a[:, :1, :1, :]).all())
    True
    """

    _rank = 4
