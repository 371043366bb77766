"""Upsampling of the steps axis of a sequence."""

from .base_up_sampling import BaseUpSampling


class UpSampling1D(BaseUpSampling):
    """Repeats each time step ``size`` times (``keras.layers.UpSampling1D``).

    Args:
        size: positive int, the upsampling factor (default 2).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, steps, features)``.

    Output shape:
        ``(batch, steps * size, features)``.

    Raises:
        TypeError: if ``size`` is not an int.
        ValueError: if ``size`` is not positive.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(2, dtype="float32"), (1, 2, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.UpSampling1D(3)(x))[0, :, 0].tolist()
    [0.0, 0.0, 0.0, 1.0, 1.0, 1.0]
    """

    def __init__(self, size=2, **kwargs):
        if not isinstance(size, int) or isinstance(size, bool):
            raise TypeError(f"Expected an integer value for `size`, got {type(size).__name__}: size={size!r}")
        if size <= 0:
            raise ValueError(f"Argument `size` should be a positive integer. Received: size={size}")
        super().__init__(1, (size,), data_format="channels_last", **kwargs)
        self.size = size

    def get_config(self):
        config = super().get_config()
        config["size"] = self.size
        return config
