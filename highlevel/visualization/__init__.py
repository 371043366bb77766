"""``hl.visualization``: bounding boxes and segmentation masks drawn on images, and image galleries.

Drawing works on numpy arrays (or tensors of any backend) and needs no extra package (Pillow for class labels);
the galleries need matplotlib.

>>> import numpy as np, highlevel as hl
>>> masks = np.zeros((1, 4, 4, 1), "int32")
>>> hl.visualization.draw_segmentation_masks(np.zeros((1, 4, 4, 3), "uint8"), masks, num_classes=1).shape
(1, 4, 4, 3)
"""

from .draw_bounding_boxes import draw_bounding_boxes
from .draw_segmentation_masks import draw_segmentation_masks
from .plot_bounding_box_gallery import plot_bounding_box_gallery
from .plot_image_gallery import plot_image_gallery
from .plot_segmentation_mask_gallery import plot_segmentation_mask_gallery

__all__ = [
    "draw_bounding_boxes",
    "draw_segmentation_masks",
    "plot_bounding_box_gallery",
    "plot_image_gallery",
    "plot_segmentation_mask_gallery",
]
