"""RandomGaussianBlur: blurs some images with a Gaussian kernel of random width during training."""

from highlevel import ops

from ._color_base import BaseColorLayer, check_value_range
from ._image_base import config_factor, parse_factor


def _kernel_size(value, who):
    sizes = list(value) if isinstance(value, (tuple, list)) else [value, value]
    if len(sizes) != 2 or not all(isinstance(k, int) and not isinstance(k, bool) and k > 0 and k % 2 for k in sizes):
        raise ValueError(
            f"Invalid value received for argument `kernel_size` of {who}. Expected an odd positive integer or a "
            f"pair of them (height, width), e.g. 3 or (3, 5). Received: kernel_size={value!r}"
        )
    return tuple(sizes)


class RandomGaussianBlur(BaseColorLayer):
    """Randomly blurs images during training (``keras.layers.RandomGaussianBlur``).

    For each image a probability ``p`` is drawn uniformly from ``factor``'s range, and with probability ``p``
    the image is convolved with a Gaussian kernel of size ``kernel_size``; the two standard deviations of
    the kernel (one per axis, shared by the batch) are drawn uniformly from ``sigma``'s range. The output is
    clipped to ``value_range``. At inference the input passes through.

    Args:
        factor: a number ``f`` in ``[0, 1]`` (``p`` in ``[0, f]``) or a pair in ``[0, 1]``.
        kernel_size: an odd integer or a pair of odd integers.
        sigma: a number ``s`` in ``[0, 1]`` (the range ``[0, s]``) or a pair in ``[0, 1]``.
        value_range: ``(low, high)``, the range of the pixel values; the output is clipped to it.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        seed: optional int, for reproducible draws.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: blur (True, the default of a direct call) or pass through (False).

    >>> import highlevel as hl
    >>> import numpy as np
    >>> layer = hl.layers.RandomGaussianBlur(factor=(1.0, 1.0), sigma=(1.0, 1.0), seed=0)
    >>> x = np.zeros((1, 5, 5, 1), "float32")
    >>> x[0, 2, 2, 0] = 100.0
    >>> y = hl.ops.convert_to_numpy(layer(x, training=True))
    >>> round(float(y.sum()), 2), bool(y[0, 2, 2, 0] < 100.0)
    (100.0, True)
    """

    def __init__(
        self, factor=1.0, kernel_size=3, sigma=1.0, value_range=(0, 255), data_format=None, seed=None, **kwargs
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.factor = config_factor(factor)
        self.lower, self.upper = parse_factor(factor, "factor", who, low=0.0, symmetric_low=0.0)
        self.kernel_size = _kernel_size(kernel_size, who)
        self.sigma = config_factor(sigma)
        self._sigma = parse_factor(sigma, "sigma", who, low=0.0, symmetric_low=0.0)
        self.value_range = check_value_range(value_range, who)

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        batch = self._batch_size(images)
        probability = self._draw_uniform((batch,), self.lower, self.upper, seed=seed)
        threshold = self._draw_uniform((batch,), 0.0, 1.0, seed=seed)
        sigma = self._draw_uniform((2,), self._sigma[0], self._sigma[1], seed=seed, dtype=self.compute_dtype)
        return {"should_apply_blur": ops.less(threshold, probability), "blur_factor": ops.add(sigma, 1e-6)}

    def transform_images(self, images, transformation, training=True):
        if not training or transformation is None:
            return images
        sigma = ops.cast(transformation["blur_factor"], ops.dtype(images))
        blurred = ops.image.gaussian_blur(
            images, kernel_size=self.kernel_size, sigma=sigma, data_format=self.data_format
        )
        apply = ops.reshape(transformation["should_apply_blur"], (-1, 1, 1, 1))
        return ops.clip(ops.where(apply, blurred, images), self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "factor": self.factor,
                "kernel_size": list(self.kernel_size),
                "sigma": self.sigma,
                "value_range": list(self.value_range),
            }
        )
        return config
