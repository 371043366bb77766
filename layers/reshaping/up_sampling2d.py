"""Upsampling of the rows and columns of an image."""

from highlevel import ops
from highlevel.layers.convolutional.conv_utils import standardize_tuple

from .base_up_sampling import BaseUpSampling

INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "lanczos3", "lanczos5")


class UpSampling2D(BaseUpSampling):
    """Upsamples an image by integer factors along rows and columns (``keras.layers.UpSampling2D``).

    With ``interpolation="nearest"`` each pixel is repeated; the other interpolations resize with
    ``hl.ops.image.resize`` (half-pixel centers, as Keras with TensorFlow does).

    Args:
        size: int or tuple of 2 ints, the upsampling factors for rows and columns (default ``(2, 2)``).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        interpolation: ``"nearest"`` (default), ``"bilinear"``, ``"bicubic"``, ``"lanczos3"`` or
            ``"lanczos5"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, rows, cols, channels)`` (channels_last) or ``(batch, channels, rows, cols)``
        (channels_first).

    Output shape:
        the same with ``rows * size[0]`` rows and ``cols * size[1]`` columns.

    Raises:
        ValueError: if ``interpolation`` is not a known interpolation name (or ``size``/``data_format`` is invalid).

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(2, dtype="float32"), (1, 1, 2, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.UpSampling2D((1, 2))(x))[0, :, :, 0].tolist()
    [[0.0, 0.0, 1.0, 1.0]]
    >>> hl.ops.convert_to_numpy(hl.layers.UpSampling2D((1, 2), interpolation="bilinear")(x))[0, :, :, 0].tolist()
    [[0.0, 0.25, 0.75, 1.0]]
    """

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        factors = standardize_tuple(size, 2, "size")
        value = interpolation.lower() if isinstance(interpolation, str) else interpolation
        if value not in INTERPOLATIONS:
            raise ValueError(
                f"`interpolation` must be one of {INTERPOLATIONS}. Received: interpolation={interpolation!r}"
            )
        super().__init__(2, factors, data_format=data_format, **kwargs)
        self.size = factors
        self.interpolation = value

    @property
    def float_output(self):
        """A resize that interpolates gives floats (see StaticOutputSpec)."""
        return self.interpolation != "nearest"

    def call(self, inputs):
        if self.interpolation == "nearest":
            return super().call(inputs)
        shape = tuple(ops.shape(inputs))
        rows, cols = shape[1:3] if self.data_format == "channels_last" else shape[2:4]
        if rows is None or cols is None:
            raise ValueError(
                f"Layer '{self.name}' with interpolation={self.interpolation!r} needs known spatial "
                f"sizes. Received input shape {shape}."
            )
        return ops.image.resize(
            inputs,
            (rows * self.size[0], cols * self.size[1]),
            interpolation=self.interpolation,
            data_format=self.data_format,
        )

    def get_config(self):
        config = super().get_config()
        config.update({"size": self.size, "data_format": self.data_format, "interpolation": self.interpolation})
        return config
