"""SpatialDropout1D: drops whole channels of a sequence."""

from .base_spatial_dropout import BaseSpatialDropout


class SpatialDropout1D(BaseSpatialDropout):
    """Dropout of entire 1D feature maps (``keras.layers.SpatialDropout1D``).

    For inputs ``(batch, timesteps, channels)`` a channel is either dropped at every timestep or kept
    (and scaled by ``1 / (1 - rate)``) at every timestep. Useful when adjacent frames are correlated, as
    after convolutions. Only active with ``training=True``.

    Args:
        rate: float in ``[0, 1)``, the fraction of channels to drop.
        seed: optional int for reproducible masks.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: ``(batch, timesteps, channels)``. Output shape: the same.

    >>> import highlevel as hl
    >>> y = hl.layers.SpatialDropout1D(0.5, seed=3)(hl.ops.ones((2, 5, 4)), training=True)
    >>> a = hl.ops.convert_to_numpy(y)
    >>> bool((a == a[:, :1, :]).all())  # the same mask at every timestep
    True
    """

    _rank = 3

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(rate, data_format="channels_last", seed=seed, **kwargs)

    def get_config(self):
        config = super().get_config()
        config.pop("data_format", None)
        return config
