"""``draw_segmentation_masks``: class masks painted over a batch of images, blended or opaque.

>>> import numpy as np, highlevel as hl
>>> images = np.full((1, 2, 2, 3), 100, "uint8")
>>> masks = np.array([[[0, 1], [2, -1]]])[..., None]
>>> out = hl.visualization.draw_segmentation_masks(images, masks, num_classes=3, alpha=0.5,
...                                                 color_mapping={0: (0, 0, 0), 1: (200, 0, 0), 2: (0, 0, 200)})
>>> out[0, 0, 1].tolist(), out[0, 1, 1].tolist()  # class 1 blended half and half; -1 left as it was
([150, 50, 50], [100, 100, 100])
"""

import numpy as np

from highlevel import ops

from ._common import batch_of_images, data_format_of


def default_palette(num_classes):
    """One RGB color per class: class ``i`` gets ``(i * (2**25 - 1, 2**15 - 1, 2**21 - 1)) % 255``."""
    palette = np.array([2**25 - 1, 2**15 - 1, 2**21 - 1])
    return [((i * palette) % 255).tolist() for i in range(num_classes)]


def draw_segmentation_masks(
    images,
    segmentation_masks,
    num_classes=None,
    color_mapping=None,
    alpha=0.8,
    blend=True,
    ignore_index=-1,
    data_format=None,
):
    """Paints the pixels of each class of ``segmentation_masks`` over ``images`` in that class's color.

    Pixels of classes ``0 .. num_classes - 1`` are painted; pixels of other values (``ignore_index``, or a
    class ``>= num_classes``) keep the image's color when blending.

    Args:
        images: a batch of images, ``(batch, height, width, channels)`` (or channels first).
        segmentation_masks: integer class ids, ``(batch, height, width, 1)`` or ``(batch, height, width)``.
        num_classes: the number of classes painted. None takes the largest id in the masks plus one, so that
            every class present is painted (Keras takes the largest id, and leaves that class unpainted).
        color_mapping: a dict from class id (``0 .. num_classes - 1``) to an RGB color; None uses a fixed
            palette (class 0 black).
        alpha: the opacity of the painted colors when blending, in ``[0, 1]``.
        blend: mix the colors with the image (``image * (1 - alpha) + color * alpha``) and return uint8;
            False returns the painted images as float32, without blending.
        ignore_index: the class id that is never painted over.
        data_format: ``"channels_last"`` or ``"channels_first"``; defaults to ``hl.config.image_data_format()``.

    Returns:
        A numpy array in the layout of ``images``: uint8 when blending, float32 otherwise.

    Raises:
        ValueError: for images that are not a 4D batch, masks of another size, or a bad ``alpha``.
        TypeError: for masks that are not integers.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> images = np.zeros((1, 2, 2, 3), "uint8")
    >>> masks = np.array([[[0, 1], [1, 0]]])
    >>> colors = {0: (0, 0, 0), 1: (255, 255, 255)}
    >>> painted = hl.visualization.draw_segmentation_masks(images, masks, color_mapping=colors, alpha=1.0)
    >>> painted[0, :, :, 0].tolist()
    [[0, 255], [255, 0]]
    """
    data_format = data_format_of(data_format)
    images = batch_of_images(images)
    masks = np.asarray(ops.convert_to_numpy(segmentation_masks))
    if data_format == "channels_first":
        images = images.transpose(0, 2, 3, 1)
        if masks.ndim == 4:
            masks = masks.transpose(0, 2, 3, 1)
    if masks.ndim == 4 and masks.shape[-1] == 1:
        masks = masks[..., 0]
    if masks.dtype.kind not in "iu":
        raise TypeError(
            f"`segmentation_masks` must hold integer class ids; received dtype {masks.dtype}. Cast them "
            f"with `hl.ops.cast(masks, 'int32')`."
        )
    if masks.shape != images.shape[:3]:
        raise ValueError(
            f"`segmentation_masks` must be (batch, height, width[, 1]) like the images "
            f"{images.shape[:3]}; received shape {np.shape(segmentation_masks)}."
        )
    if not 0.0 <= float(alpha) <= 1.0:
        raise ValueError(f"alpha must be in [0, 1]; received alpha={alpha}.")
    if num_classes is None:
        num_classes = int(masks.max()) + 1 if masks.size else 0
    if color_mapping is None:
        colors = default_palette(num_classes)
    else:
        missing = [i for i in range(num_classes) if i not in color_mapping]
        if missing:
            raise ValueError(
                f"color_mapping has no color for the classes {missing}; give one RGB color for each "
                f"class id 0 .. {num_classes - 1}."
            )
        colors = [color_mapping[i] for i in range(num_classes)]
    images = images.astype("float32")
    painted = images.copy()
    for class_id, color in enumerate(colors):
        painted[masks == class_id] = np.asarray(color, "float32")
    if blend:
        mixed = images * np.float32(1 - alpha) + painted * np.float32(alpha)
        painted = np.where((masks != ignore_index)[..., None], mixed, images).astype("uint8")
    if data_format == "channels_first":
        painted = painted.transpose(0, 3, 1, 2)
    return painted
