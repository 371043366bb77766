"""The color/intensity augmentation layers' shared shape: a random draw, then a transform given that draw.

Each such layer splits its work in two, as Keras 3 does: ``get_random_transformation(images, training, seed)``
draws the per-image parameters (a dict of tensors, or ``None`` when nothing is drawn) and
``transform_images(images, transformation, training)`` applies them. A call chains the two, so a test can
feed the same parameters to this layer and to another implementation and compare the transform alone.
"""

import numbers

from highlevel import ops, random

from ._image_base import BaseRandomImageLayer


def check_value_range(value_range, who):
    """``value_range`` as a sorted tuple of two floats, or a clear error."""
    if (
        not isinstance(value_range, (tuple, list))
        or len(value_range) != 2
        or not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value_range)
        or value_range[0] == value_range[1]
    ):
        raise ValueError(
            f"Invalid value received for argument `value_range` of {who}. Expected a pair (low, high) of two "
            f"different numbers, e.g. (0, 255) or (0, 1). Received: value_range={value_range!r}"
        )
    low, high = sorted(float(v) for v in value_range)
    return (low, high)


def rescale_range(images, source, target):
    """Maps pixel values linearly from the range ``source`` to the range ``target``."""
    if tuple(source) == tuple(target):
        return images
    scale = (target[1] - target[0]) / (source[1] - source[0])
    return ops.add(ops.multiply(ops.subtract(images, source[0]), scale), target[0])


class BaseColorLayer(BaseRandomImageLayer):
    """A random image layer written as ``get_random_transformation`` followed by ``transform_images``.

    Subclasses define both; ``transform_images`` receives a rank-4 batch in the compute dtype. A dict input
    (``images`` plus any of ``labels``, ``bounding_boxes``, ``segmentation_masks``) comes back with only its
    images changed; ``bounding_box_format`` is accepted and kept in the config, as Keras does.
    """

    def __init__(self, seed=None, data_format=None, bounding_box_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if bounding_box_format is not None and not isinstance(bounding_box_format, str):
            raise ValueError(
                f"Invalid value received for argument `bounding_box_format` of {type(self).__name__}. Expected "
                f"a format name such as 'xyxy' or None. Received: bounding_box_format={bounding_box_format!r}"
            )
        self.bounding_box_format = bounding_box_format

    def get_random_transformation(self, images, training=True, seed=None):
        raise NotImplementedError

    def transform_images(self, images, transformation, training=True):
        raise NotImplementedError

    def _batch_size(self, images):
        return ops.shape(images)[0] if ops.ndim(images) == 4 else 1

    def _draw_uniform(self, shape, minval, maxval, seed=None, dtype="float32"):
        return random.uniform(
            shape, minval=minval, maxval=maxval, dtype=dtype, seed=self.seed_generator if seed is None else seed
        )

    def call(self, inputs, training=True):
        if isinstance(inputs, dict):
            # As in Keras, a dict of images with labels, bounding boxes or segmentation masks: a color change
            # moves no pixel, so only the images change.
            if "images" not in inputs:
                raise ValueError(
                    f"{type(self).__name__} received a dict without an 'images' entry (keys: {sorted(inputs)}). "
                    "Pass {'images': ..., 'labels': ..., 'bounding_boxes': ..., 'segmentation_masks': ...}."
                )
            return dict(inputs, images=super().call(inputs["images"], training=training))
        return super().call(inputs, training=training)

    def get_config(self):
        config = super().get_config()
        config["bounding_box_format"] = self.bounding_box_format
        return config

    def _augment(self, images):
        return self.transform_images(images, self.get_random_transformation(images, training=True), training=True)
