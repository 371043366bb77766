"""Equalization: histogram equalization of each color channel during training."""

import numbers

from highlevel import ops

from ._color_base import BaseColorLayer, check_value_range, rescale_range


class Equalization(BaseColorLayer):
    """Equalizes the histogram of each channel during training (``keras.layers.Equalization``).

    Working on the ``[0, 255]`` scale, each channel's values are sorted into ``bins`` equal bins **over the
    whole batch** (as Keras does), and every value is replaced by its bin's cumulative share of the pixels,
    ``round(255 * (cdf - cdf_min) / (total - cdf_min))``. A channel whose values all fall into one bin is
    left as it is. At inference the input passes through, as in Keras.

    Args:
        value_range: ``(low, high)``, the range of the pixel values (mapped to ``[0, 255]`` and back).
        bins: the number of histogram bins, an integer in ``[2, 256]``.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: equalize (True, the default of a direct call) or pass through (False).

    Raises:
        ValueError: if ``bins`` is not an int in ``[2, 256]`` (or ``value_range`` is not a valid pair).

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[[[10.0], [10.0], [20.0], [30.0]]]])
    >>> hl.ops.convert_to_numpy(hl.layers.Equalization()(x)).ravel().tolist()
    [0.0, 0.0, 128.0, 255.0]
    """

    # Keras's base class takes `factor` here and keeps it without using it; so does this layer.
    _accepts_base_factor = True

    def __init__(self, value_range=(0, 255), bins=256, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.seed_generator = None  # nothing is drawn
        who = type(self).__name__
        if not (isinstance(bins, numbers.Integral) and not isinstance(bins, bool) and 2 <= bins <= 256):
            raise ValueError(
                f"Invalid value received for argument `bins` of {who}. Expected an integer in [2, 256]. "
                f"Received: bins={bins!r}"
            )
        self.bins = int(bins)
        self.value_range = check_value_range(value_range, who)

    def get_random_transformation(self, images, training=True, seed=None):
        return None

    def transform_images(self, images, transformation=None, training=True):
        if not training:
            return images
        dtype = ops.dtype(images)
        x = images if self.data_format == "channels_last" else ops.transpose(images, (0, 2, 3, 1))
        x = rescale_range(x, self.value_range, (0.0, 255.0))
        # The bin of each value; one-hot over the bins, (batch, height, width, channels, bins).
        index = ops.cast(ops.clip(ops.multiply(x, (self.bins - 1) / 255.0), 0, self.bins - 1), "int32")
        onehot = ops.one_hot(index, self.bins, dtype="float32")
        counts = ops.sum(onehot, axis=(0, 1, 2))  # (channels, bins)
        cdf = ops.cumsum(counts, axis=-1)
        total = ops.max(cdf, axis=-1, keepdims=True)
        cdf_min = ops.min(ops.where(ops.greater(cdf, 0.0), cdf, total), axis=-1, keepdims=True)
        # round(255 * (cdf - cdf_min) / spread), half to even, in exact integer arithmetic.
        numerator = ops.cast(ops.multiply(ops.subtract(cdf, cdf_min), 255.0), "int32")
        spread = ops.cast(ops.subtract(total, cdf_min), "int32")
        spread = ops.where(ops.equal(spread, 0), 1, spread)
        quotient = ops.floor_divide(numerator, spread)
        twice_rest = ops.multiply(ops.subtract(numerator, ops.multiply(quotient, spread)), 2)
        odd = ops.equal(ops.mod(quotient, 2), 1)
        up = ops.logical_or(ops.greater(twice_rest, spread), ops.logical_and(ops.equal(twice_rest, spread), odd))
        table = ops.clip(ops.add(quotient, ops.cast(up, "int32")), 0, 255)
        table = ops.cast(table, "float32")  # (channels, bins)
        equalized = ops.cast(ops.sum(ops.multiply(onehot, table), axis=-1), dtype)
        occupied = ops.sum(ops.cast(ops.greater(counts, 0.0), "int32"), axis=-1)  # (channels,)
        out = ops.where(ops.less_equal(occupied, 1), x, equalized)
        out = rescale_range(out, (0.0, 255.0), self.value_range)
        return out if self.data_format == "channels_last" else ops.transpose(out, (0, 3, 1, 2))

    def get_config(self):
        config = super().get_config()
        config.pop("seed", None)
        config.update({"value_range": list(self.value_range), "bins": self.bins})
        return config
