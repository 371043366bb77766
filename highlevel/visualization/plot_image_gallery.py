"""``plot_image_gallery``: a grid of images, titled with their labels and predictions, shown or saved.

>>> import numpy as np, highlevel as hl
>>> import matplotlib; matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt
>>> hl.visualization.plot_image_gallery(np.zeros((4, 8, 8, 3)), show=False)
>>> len(plt.gcf().axes)
4
>>> plt.close("all")
"""

import math

import numpy as np

from highlevel import ops

from ._common import batch_of_images, data_format_of, pyplot


def to_0_255(images, value_range):
    """``images`` rescaled linearly from ``value_range`` to ``[0, 255]`` (float32; unchanged if already so)."""
    low, high = value_range
    if (low, high) == (0, 255):
        return images
    images = images.astype("float32")
    return (images - np.float32(low)) / (np.float32(high) - np.float32(low)) * np.float32(255)


def plot_image_gallery(
    images,
    y_true=None,
    y_pred=None,
    label_map=None,
    rows=None,
    cols=None,
    value_range=(0, 255),
    scale=2,
    path=None,
    show=None,
    transparent=True,
    dpi=60,
    legend_handles=None,
    data_format=None,
):
    """Plots a batch of images in a grid, with matplotlib.

    The grid has ``rows`` rows (by default the square root of the batch size, rounded up) and ``cols``
    columns (by default as many as the batch needs); cells past the last image stay empty. With ``y_true``
    or ``y_pred``, each image is titled ``"Label: <name>  Pred: <name>"``, the names from ``label_map``.

    Args:
        images: a batch of images, ``(batch, height, width, channels)`` (or channels first).
        y_true: the true class ids of the images, or None.
        y_pred: the predicted class ids, or None.
        label_map: a dict from class id to name; required with ``y_true`` or ``y_pred`` ("Unknown" for an
            id it lacks).
        rows: the number of rows of the grid.
        cols: the number of columns of the grid.
        value_range: the range of the pixel values, mapped to ``[0, 255]`` for display.
        scale: the size of one cell, in inches.
        path: a file to save the figure to (then nothing is shown).
        show: show the figure with ``plt.show()``; defaults to True when ``path`` is None. False leaves the
            figure open as matplotlib's current figure.
        transparent: save with a transparent background.
        dpi: the resolution of the saved file.
        legend_handles: matplotlib handles for a legend below the grid.
        data_format: ``"channels_last"`` or ``"channels_first"``; defaults to ``hl.config.image_data_format()``.

    Returns:
        None; the figure is shown or written to ``path``.

    Raises:
        ImportError: when matplotlib is not installed.
        ValueError: for both ``path`` and ``show=True``, labels without a ``label_map``, or images that are not
            a 4D batch.

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> path = os.path.join(tempfile.mkdtemp(), "gallery.png")
    >>> hl.visualization.plot_image_gallery(np.zeros((4, 8, 8, 3)), rows=2, cols=2, path=path)
    >>> os.path.exists(path)
    True
    """
    plt = pyplot()
    if path is not None and show:
        raise ValueError(
            "plot_image_gallery() either saves the figure (`path`) or shows it (`show=True`); "
            f"received path={path!r} and show={show!r}."
        )
    if (y_true is not None or y_pred is not None) and label_map is None:
        raise ValueError("y_true or y_pred was given without a `label_map`: pass a dict from class id to name.")
    show = show if show is not None else path is None
    data_format = data_format_of(data_format)
    images = batch_of_images(images)
    if data_format == "channels_first":
        images = images.transpose(0, 2, 3, 1)
    batch_size = images.shape[0]
    rows = rows or int(math.ceil(math.sqrt(batch_size)))
    cols = cols or int(math.ceil(batch_size / rows))
    images = to_0_255(images[: rows * cols], value_range)
    y_true = None if y_true is None else np.asarray(ops.convert_to_numpy(y_true)).reshape(-1)
    y_pred = None if y_pred is None else np.asarray(ops.convert_to_numpy(y_pred)).reshape(-1)

    fig, axes = plt.subplots(
        nrows=rows,
        ncols=cols,
        figsize=(cols * scale, rows * scale),
        frameon=False,
        layout="tight",
        squeeze=False,
        sharex="row",
        sharey="col",
    )
    fig.subplots_adjust(wspace=0, hspace=0)
    if legend_handles is not None:
        fig.legend(handles=legend_handles, loc="lower center")
    for index, axis in enumerate(axes.reshape(-1)):
        axis.axis("off")
        if index >= len(images):
            continue
        image = images[index]
        axis.imshow(
            image[..., 0] if image.shape[-1] == 1 else image.astype("uint8"),
            **({"cmap": "gray", "vmin": 0, "vmax": 255} if image.shape[-1] == 1 else {}),
        )
        axis.margins(x=0, y=0)
        title = []
        if y_true is not None and index < len(y_true):
            title.append(f"Label: {label_map.get(y_true[index].item(), 'Unknown')}")
        if y_pred is not None and index < len(y_pred):
            title.append(f"Pred: {label_map.get(y_pred[index].item(), 'Unknown')}")
        if title:
            axis.set_title("  ".join(title), fontsize=8)
    if path is not None:
        plt.savefig(fname=path, pad_inches=0, bbox_inches="tight", transparent=transparent, dpi=dpi)
        plt.close()
    elif show:
        plt.show()
        plt.close()
