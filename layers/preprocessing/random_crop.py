"""RandomCrop: crops a random window of the target size out of images during training."""

from highlevel import ops, random
from highlevel.keras_tensor import KerasTensor

from ._boxes import resize_window, transform_dict, window_boxes
from ._image_base import BaseRandomImageLayer, check_image_rank
from .resizing import check_size, resized_shape


class RandomCrop(BaseRandomImageLayer):
    """Crops a random ``(height, width)`` window out of images during training (``keras.layers.RandomCrop``).

    In training mode every image of a batch is cropped at the same random location (one draw per call). At
    inference, and in training when an image is not larger than the target in both dimensions, the layer
    resizes the largest centered window with the target's aspect ratio, so the output always has the target
    size. The output is in the layer's compute dtype (float32 by default).

    The work is split as in Keras: :meth:`get_random_transformation` draws the window's top-left corner and
    :meth:`transform_images` crops with a given one.

    Args:
        height: int, the output height.
        width: int, the output width.
        seed: optional int, for reproducible draws (each call still draws anew).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        bounding_box_format: (keyword) the format of the boxes of a dict input (``"xyxy"``, ``"rel_xyxy"``,
            ``"xywh"``, ``"center_xywh"``, ``"yxyx"``, ...); needed only when the input holds ``"bounding_boxes"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: crop at random (True, the default of a direct call) or take the centered window (False,
            as in ``predict``).

    Input shape: rank 3 or 4. Output shape: the input's with the target height and width.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(16, dtype="float32"), (1, 4, 4, 1))
    >>> layer = hl.layers.RandomCrop(2, 2, seed=0)
    >>> hl.ops.convert_to_numpy(layer(x, training=False))[0, :, :, 0].tolist()  # the whole image, resized
    [[2.5, 4.5], [10.5, 12.5]]
    >>> hl.ops.convert_to_numpy(layer.transform_images(x, (0, 2)))[0, :, :, 0].tolist()
    [[2.0, 3.0], [6.0, 7.0]]
    """

    # Keras's base class takes `factor` here and keeps it without using it; so does this layer.
    _accepts_base_factor = True

    def __init__(self, height, width, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.height = check_size(height, "height", who)
        self.width = check_size(width, "width", who)

    def _height_axis(self, rank):
        return rank - 3 if self.data_format == "channels_last" else rank - 2

    def get_random_transformation(self, images, training=True, seed=None):
        """The window's top-left corner ``(top, left)`` as int32 scalars, or None (the centered window) at
        inference and for images not larger than the target."""
        shape = ops.shape(images)
        check_image_rank(shape, type(self).__name__)
        h_axis = self._height_axis(len(shape))
        in_h, in_w = shape[h_axis], shape[h_axis + 1]
        if in_h is None or in_w is None:
            raise ValueError(
                f"{type(self).__name__} needs images of known height and width. Received shape {tuple(shape)}."
            )
        if not (training and in_h > self.height and in_w > self.width):
            return None
        seed = self.seed_generator if seed is None else seed

        def draw(size, target):
            value = random.uniform((), minval=0.0, maxval=float(size - target + 1), seed=seed)
            return ops.minimum(ops.cast(value, "int32"), size - target)

        # Same draw order as Keras: the top, then the left.
        top = draw(in_h, self.height)
        left = draw(in_w, self.width)
        return top, left

    def transform_images(self, images, transformation, training=True):
        """Crops ``images`` at ``transformation = (top, left)``; None takes the centered window."""
        x = ops.cast(images, self.compute_dtype)
        shape = ops.shape(x)
        check_image_rank(shape, type(self).__name__)
        if transformation is None:
            h_axis = self._height_axis(len(shape))
            if (shape[h_axis], shape[h_axis + 1]) == (self.height, self.width):
                return x
            return ops.image.resize(
                x, (self.height, self.width), crop_to_aspect_ratio=True, data_format=self.data_format
            )
        top, left = (ops.cast(v, "int32") for v in transformation)
        h_axis = self._height_axis(len(shape))
        # Gathers rather than a slice: the batch size may be unknown (a tf.data map), the window's is not.
        rows = ops.add(ops.arange(self.height, dtype="int32"), top)
        columns = ops.add(ops.arange(self.width, dtype="int32"), left)
        return ops.take(ops.take(x, rows, axis=h_axis), columns, axis=h_axis + 1)

    def call(self, inputs, training=True):
        if isinstance(inputs, dict):
            images = inputs.get("images")
            transformation = None if images is None else self.get_random_transformation(images, training=training)
            return transform_dict(
                self,
                inputs,
                lambda x: self.transform_images(x, transformation, training=training),
                self._box_mover(transformation),
            )
        transformation = self.get_random_transformation(inputs, training=training)
        return self.transform_images(inputs, transformation, training=training)

    def _box_mover(self, transformation):
        def move(boxes, height, width):
            if transformation is None:  # the centered window, resized when the image is not larger than the target
                window = resize_window(height, width, self.height, self.width, crop_to_aspect_ratio=True)
            else:
                window = (*transformation, self.height, self.width)
            return window_boxes(boxes, window, self.height, self.width)

        return move

    def compute_output_shape(self, input_shape):
        return resized_shape(input_shape, self.height, self.width, self.data_format, type(self).__name__)

    def compute_output_spec(self, inputs, *args, **kwargs):
        return KerasTensor(self.compute_output_shape(inputs.shape), self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width})
        return config
