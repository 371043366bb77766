"""Cropping of the steps axis of a sequence."""

from highlevel.layers.convolutional.conv_utils import standardize_tuple

from .base_cropping import BaseCropping


class Cropping1D(BaseCropping):
    """Removes steps at the start and the end of a 3D sequence (``keras.layers.Cropping1D``).

    Args:
        cropping: int (the same at both ends) or a tuple of 2 ints ``(left_crop, right_crop)``; default
            ``(1, 1)``. Their sum must be smaller than the number of steps.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, steps, features)``.

    Output shape:
        ``(batch, steps - left_crop - right_crop, features)``.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(5, dtype="float32"), (1, 5, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.Cropping1D((1, 2))(x))[0, :, 0].tolist()
    [1.0, 2.0]
    """

    def __init__(self, cropping=(1, 1), **kwargs):
        pair = standardize_tuple(cropping, 2, "cropping", allow_zero=True)
        super().__init__(1, (pair,), data_format="channels_last", **kwargs)
        self.cropping = pair

    def get_config(self):
        config = super().get_config()
        del config["data_format"]  # Keras' Cropping1D has no data_format argument
        return config
