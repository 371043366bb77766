"""``plot_bounding_box_gallery``: a grid of images with their true and predicted boxes drawn in two colors.

>>> import numpy as np, highlevel as hl
>>> import matplotlib; matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt
>>> boxes = {"boxes": np.array([[[1, 1, 5, 5]]] * 2), "labels": np.array([[0]] * 2)}
>>> hl.visualization.plot_bounding_box_gallery(np.zeros((2, 8, 8, 3)), "xyxy", y_true=boxes, show=False)
>>> len(plt.gcf().axes)
2
>>> plt.close("all")
"""

from ._common import batch_of_images, data_format_of, pyplot
from .draw_bounding_boxes import draw_bounding_boxes
from .plot_image_gallery import plot_image_gallery


def plot_bounding_box_gallery(
    images,
    bounding_box_format,
    y_true=None,
    y_pred=None,
    value_range=(0, 255),
    true_color=(0, 188, 212),
    pred_color=(255, 235, 59),
    line_thickness=2,
    font_scale=1.0,
    text_thickness=None,
    class_mapping=None,
    ground_truth_mapping=None,
    prediction_mapping=None,
    legend=False,
    legend_handles=None,
    rows=None,
    cols=None,
    data_format=None,
    **kwargs,
):
    """Draws the true and predicted boxes on a batch of images and plots them in a grid.

    Args:
        images: a batch of images, ``(batch, height, width, channels)`` (or channels first).
        bounding_box_format: the format of the boxes (see :func:`draw_bounding_boxes`).
        y_true: the true boxes, a dict with ``"boxes"`` and ``"labels"``, or None.
        y_pred: the predicted boxes (a dict, optionally with ``"confidences"``), or None.
        value_range: the range of the pixel values.
        true_color: the RGB color of the true boxes.
        pred_color: the RGB color of the predicted boxes.
        line_thickness: the width of the box outlines.
        font_scale: the size of the labels' font.
        text_thickness: the stroke of the labels.
        class_mapping: a dict from class id to name, for both kinds of boxes.
        ground_truth_mapping: the names for the true boxes (defaults to ``class_mapping``).
        prediction_mapping: the names for the predicted boxes (defaults to ``class_mapping``).
        legend: add a legend naming the two colors.
        legend_handles: matplotlib handles for a legend of one's own (not together with ``legend``).
        rows: the number of rows of the grid.
        cols: the number of columns of the grid.
        data_format: ``"channels_last"`` or ``"channels_first"``; defaults to ``hl.config.image_data_format()``.
        **kwargs: passed on to :func:`plot_image_gallery` (``path``, ``show``, ``scale``, ``dpi``, ...).

    Returns:
        None; the figure is shown or written to ``path``.

    Raises:
        ValueError: if both ``legend=True`` and ``legend_handles`` are given (or an argument is invalid for
            :func:`plot_image_gallery`).

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> path = os.path.join(tempfile.mkdtemp(), "boxes.png")
    >>> boxes = {"boxes": np.array([[[1, 1, 6, 6]], [[2, 2, 5, 5]]]), "labels": np.array([[0], [0]])}
    >>> images = np.zeros((2, 8, 8, 3))
    >>> hl.visualization.plot_bounding_box_gallery(images, "xyxy", y_true=boxes, rows=1, cols=2, path=path)
    >>> os.path.exists(path)
    True
    """
    pyplot()  # a clear error before any work when matplotlib is missing
    from matplotlib import patches

    data_format = data_format_of(data_format)
    images = batch_of_images(images)
    if data_format == "channels_first":
        images = images.transpose(0, 2, 3, 1)
    if y_true is not None or y_pred is not None:
        images = to_drawable(images, value_range)
    for boxes, color, mapping in (
        (y_true, true_color, ground_truth_mapping or class_mapping),
        (y_pred, pred_color, prediction_mapping or class_mapping),
    ):
        if boxes is not None:
            images = draw_bounding_boxes(
                images,
                boxes,
                bounding_box_format,
                class_mapping=mapping,
                color=color,
                line_thickness=line_thickness,
                text_thickness=text_thickness,
                font_scale=font_scale,
                data_format="channels_last",
            )
    if legend:
        if legend_handles:
            raise ValueError("Pass either legend=True or legend_handles to plot_bounding_box_gallery(), not both.")
        legend_handles = [
            patches.Patch(color=tuple(c / 255.0 for c in true_color), label="Ground Truth"),
            patches.Patch(color=tuple(c / 255.0 for c in pred_color), label="Prediction"),
        ]
    if y_true is not None or y_pred is not None:
        value_range = (0, 255)  # the drawn images are uint8 in [0, 255]
    return plot_image_gallery(
        images,
        value_range=value_range,
        legend_handles=legend_handles,
        rows=rows,
        cols=cols,
        data_format="channels_last",
        **kwargs,
    )


def to_drawable(images, value_range):
    """Images in ``value_range`` as uint8 in ``[0, 255]``, ready for drawing boxes in color on them."""
    from .plot_image_gallery import to_0_255

    return to_0_255(images, value_range).clip(0, 255).astype("uint8")
