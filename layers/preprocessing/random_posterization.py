"""RandomPosterization: keeps only the top few bits of each 8-bit pixel value during training."""

from highlevel import ops, random

from ._color_base import BaseColorLayer, check_value_range, rescale_range
from ._image_base import config_factor, parse_factor

#: Bits of an 8-bit pixel value.
_BITS = 8


class RandomPosterization(BaseColorLayer):
    """Randomly reduces the number of bits per color channel during training (``keras.layers.RandomPosterization``).

    Working on the ``[0, 255]`` scale, each image keeps ``b`` bits: a pixel ``x`` becomes
    ``floor(x / 2**(8 - b)) * 2**(8 - b)`` (its integer part with the low ``8 - b`` bits cleared). ``b`` is
    an integer drawn from ``[lower, upper)`` (always ``lower`` when the two are equal). At inference the
    input passes through.

    Args:
        factor: an integer ``f`` in ``[1, 8]`` (``b`` in ``[1, f)``) or a pair of integers in ``[1, 8]``.
        value_range: ``(low, high)``, the range of the pixel values (mapped to ``[0, 255]`` and back).
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        seed: optional int, for reproducible draws.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: posterize (True, the default of a direct call) or pass through (False).

    Raises:
        ValueError: if ``factor`` is not an int or a pair of ints in ``[1, 8]``.

    >>> import highlevel as hl
    >>> layer = hl.layers.RandomPosterization(factor=(2, 2))  # keep 2 bits: multiples of 64
    >>> x = hl.ops.convert_to_tensor([[[[100.0], [250.0]]]])
    >>> hl.ops.convert_to_numpy(layer(x, training=True)).ravel().tolist()
    [64.0, 192.0]
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        values = factor if isinstance(factor, (tuple, list)) else [factor]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise ValueError(
                f"Invalid value received for argument `factor` of {who}. Expected an integer or a pair of "
                f"integers in [1, {_BITS}] (bits kept per channel). Received: factor={factor!r}"
            )
        self.factor = config_factor(factor)
        lower, upper = parse_factor(factor, "factor", who, low=1.0, high=float(_BITS), symmetric_low=1.0)
        self.lower, self.upper = int(lower), int(upper)
        self.value_range = check_value_range(value_range, who)

    def get_random_transformation(self, images, training=True, seed=None):
        batch = self._batch_size(images)
        if self.lower != self.upper:
            bits = random.randint(
                (batch,), self.lower, self.upper, dtype="int32", seed=self.seed_generator if seed is None else seed
            )
        else:
            bits = ops.full((batch,), self.lower, dtype="int32")
        return {"shift_factor": ops.subtract(_BITS, bits)}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        dtype = ops.dtype(images)
        step = ops.power(2.0, ops.cast(transformation["shift_factor"], dtype))
        step = ops.reshape(step, (-1, 1, 1, 1))
        x = ops.floor(ops.clip(rescale_range(images, self.value_range, (0.0, 255.0)), 0.0, 255.0))
        x = ops.multiply(ops.floor(ops.divide(x, step)), step)
        return rescale_range(x, (0.0, 255.0), self.value_range)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": list(self.value_range)})
        return config
