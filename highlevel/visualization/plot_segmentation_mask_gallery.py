"""``plot_segmentation_mask_gallery``: each image next to its true and predicted masks, one image per row.

>>> import numpy as np, highlevel as hl
>>> import matplotlib; matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt
>>> masks = np.zeros((2, 8, 8, 1), "int32")
>>> hl.visualization.plot_segmentation_mask_gallery(np.zeros((2, 8, 8, 3)), 2, y_true=masks, y_pred=masks,
...                                                 show=False)
>>> len(plt.gcf().axes)
6
>>> plt.close("all")
"""

import numpy as np

from highlevel import ops

from ._common import batch_of_images, data_format_of
from .draw_segmentation_masks import draw_segmentation_masks
from .plot_image_gallery import plot_image_gallery


def plot_segmentation_mask_gallery(
    images,
    num_classes,
    value_range=(0, 255),
    y_true=None,
    y_pred=None,
    color_mapping=None,
    blend=True,
    alpha=0.8,
    ignore_index=-1,
    data_format=None,
    **kwargs,
):
    """Plots a grid with one row per image: the image, then its true mask, then its predicted mask, drawn over it.

    Args:
        images: a batch of images, ``(batch, height, width, channels)`` (or channels first).
        num_classes: the number of classes painted (see :func:`draw_segmentation_masks`).
        value_range: the range of the pixel values.
        y_true: the true masks ``(batch, height, width, 1)``, or None.
        y_pred: the predicted masks, or None.
        color_mapping: a dict from class id to RGB color; None uses the default palette.
        blend: blend the masks with the image.
        alpha: the opacity of the masks when blending.
        ignore_index: the class id never painted.
        data_format: ``"channels_last"`` or ``"channels_first"``; defaults to ``hl.config.image_data_format()``.
        **kwargs: passed on to :func:`plot_image_gallery` (``path``, ``show``, ``scale``, ``dpi``, ...).

    Returns:
        None; the figure is shown or written to ``path``.

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> path = os.path.join(tempfile.mkdtemp(), "masks.png")
    >>> images, masks = np.zeros((2, 8, 8, 3)), np.zeros((2, 8, 8, 1), "int32")
    >>> hl.visualization.plot_segmentation_mask_gallery(images, num_classes=2, y_true=masks, path=path)
    >>> os.path.exists(path)
    True
    """
    data_format = data_format_of(data_format)
    images = batch_of_images(images)
    if data_format == "channels_first":
        images = images.transpose(0, 2, 3, 1)
    columns = [images]
    for masks in (y_true, y_pred):
        if masks is None:
            continue
        masks = np.asarray(ops.convert_to_numpy(masks))
        if data_format == "channels_first" and masks.ndim == 4:
            masks = masks.transpose(0, 2, 3, 1)
        columns.append(
            draw_segmentation_masks(
                images,
                masks.astype("int32"),
                num_classes=num_classes,
                color_mapping=color_mapping,
                alpha=alpha,
                blend=blend,
                ignore_index=ignore_index,
                data_format="channels_last",
            )
        )
    gallery = np.stack([column[i].astype("float32") for i in range(images.shape[0]) for column in columns])
    return plot_image_gallery(
        gallery, value_range=value_range, rows=images.shape[0], cols=len(columns), data_format="channels_last", **kwargs
    )
