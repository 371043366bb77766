"""Helpers shared by the drawing and plotting functions: argument checks, layout and the matplotlib import."""

import numpy as np

from highlevel import ops
from highlevel.config import image_data_format


def data_format_of(data_format):
    """``data_format`` checked, or the configured one when None."""
    data_format = data_format or image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"data_format must be 'channels_last' or 'channels_first'; received {data_format!r}.")
    return data_format


def batch_of_images(images, name="images"):
    """``images`` as a numpy array, checked to be a batch: 4 dimensions."""
    array = np.asarray(ops.convert_to_numpy(images))
    if array.ndim != 4:
        raise ValueError(
            f"`{name}` must be a batch of images, a 4D tensor or array (batch, height, width, "
            f"channels); received {name}.shape={array.shape}. Add a batch axis with "
            f"`images[None]` for a single image."
        )
    return array


def pyplot():
    """``matplotlib.pyplot``, or an ImportError that says how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ImportError(
            "The hl.visualization plotting functions need matplotlib: install it with "
            "`pip install matplotlib` (or the `notebooks` extra of highlevel)."
        ) from error
    return plt
