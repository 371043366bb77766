"""RandomGrayscale: turns each RGB image to gray with a given probability during training."""

import numbers

from highlevel import ops

from ._color_base import BaseColorLayer


class RandomGrayscale(BaseColorLayer):
    """Randomly converts RGB images to grayscale during training (``keras.layers.RandomGrayscale``).

    Each image is replaced, with probability ``factor``, by its luma ``0.2989 R + 0.587 G + 0.114 B``
    repeated over the three channels, so the shape stays the same. At inference the input passes through.

    Args:
        factor: the probability, in ``[0, 1]``, that an image is converted.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        seed: optional int, for reproducible draws.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: RGB images, ``(batch, height, width, 3)`` or ``(height, width, 3)`` (channels last).
        training: convert (True, the default of a direct call) or pass through (False).

    Raises:
        ValueError: if ``factor`` is not a number in ``[0, 1]``.

    >>> import highlevel as hl
    >>> layer = hl.layers.RandomGrayscale(factor=1.0)
    >>> x = hl.ops.convert_to_tensor([[[[255.0, 0.0, 0.0]]]])
    >>> [round(v, 2) for v in hl.ops.convert_to_numpy(layer(x, training=True)).ravel().tolist()]
    [76.22, 76.22, 76.22]
    """

    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        if not (isinstance(factor, numbers.Real) and not isinstance(factor, bool) and 0 <= factor <= 1):
            raise ValueError(
                "Invalid value received for argument `factor` of RandomGrayscale. Expected a probability in "
                f"[0, 1]. Received: factor={factor!r}"
            )
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = float(factor)

    def get_random_transformation(self, images, training=True, seed=None):
        draws = self._draw_uniform((self._batch_size(images),), 0.0, 1.0, seed=seed)
        return ops.reshape(ops.less(draws, self.factor), (-1, 1, 1, 1))

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        channels = ops.shape(images)[-1 if self.data_format == "channels_last" else 1]
        if channels != 3:
            raise ValueError(
                f"RandomGrayscale expects RGB images with 3 channels. Received images of shape "
                f"{tuple(ops.shape(images))} with {channels} channels (data_format={self.data_format!r})."
            )
        gray = ops.image.rgb_to_grayscale(images, data_format=self.data_format)
        return ops.where(transformation, ops.cast(gray, ops.dtype(images)), images)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor})
        return config
