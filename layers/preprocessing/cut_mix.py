"""CutMix: pastes a random rectangle of another image of the batch into each image during training."""

from highlevel import ops, random

from ._image_base import config_factor, parse_factor
from ._mixing import BaseMixingLayer


class CutMix(BaseMixingLayer):
    """Replaces a random rectangle of each image by the same rectangle of another image of the batch
    (``keras.layers.CutMix``).

    For each call, ``alpha`` is drawn from ``factor``; for each image, ``w`` is drawn from ``Beta(alpha,
    alpha)`` and the rectangle has sides ``sqrt(1 - w)`` times the image's, at a uniformly drawn position; the
    partner image comes from a random permutation of the batch. Called on a dict ``{"images", "labels"}``,
    the labels are blended with the weight ``1 - area / image area`` of each image's own part. At inference
    the input passes through. In a ``tf.data`` map, batch with ``drop_remainder=True``.

    The work is split as in Keras: :meth:`get_random_transformation` draws ``{"permutation_order",
    "batch_masks", "mix_weight"}``; :meth:`transform_images` and :meth:`transform_labels` apply it.

    Args:
        factor: the range of ``alpha``: a number ``f`` in ``[0, 1]`` (range ``[0, f]``) or a pair. Default 1.0.
        seed: optional int, for reproducible draws.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    >>> import numpy as np, highlevel as hl
    >>> x = np.stack([np.zeros((2, 2, 1)), np.ones((2, 2, 1))]).astype("float32")
    >>> masks = np.zeros((2, 2, 2, 1), bool); masks[:, 0, 0] = True
    >>> t = {"permutation_order": [1, 0], "batch_masks": masks, "mix_weight": [0.75, 0.75]}
    >>> hl.ops.convert_to_numpy(hl.layers.CutMix().transform_images(x, t))[:, :, :, 0].tolist()
    [[[1.0, 0.0], [0.0, 0.0]], [[0.0, 1.0], [1.0, 1.0]]]
    """

    def __init__(self, factor=1.0, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = config_factor(factor)
        self.factor_range = parse_factor(factor, "factor", type(self).__name__, low=0.0, high=1.0, symmetric_low=0.0)

    def get_random_transformation(self, images, training=True, seed=None):
        """The draws of one call on a batch (rank 4), or None at inference or for a single image."""
        shape = ops.shape(images)
        if not training or len(shape) == 3:
            return None
        seed = self.seed_generator if seed is None else seed
        batch = self._static_batch(shape)
        h_axis, c_axis = (1, 3) if self.data_format == "channels_last" else (2, 1)
        height, width = shape[h_axis], shape[h_axis + 1]
        dtype = self.compute_dtype
        # Same draw order as Keras: alpha, the weights, x and y positions, then the permutation.
        alpha = ops.add(random.uniform((), self.factor_range[0], self.factor_range[1], dtype=dtype, seed=seed), 1e-6)
        ratio = ops.sqrt(1.0 - random.beta((batch,), alpha, alpha, dtype=dtype, seed=seed))

        def bounds(length):
            extent = ops.multiply(ratio, float(length))
            start = ops.multiply(random.uniform((batch,), 0.0, 1.0, dtype=dtype, seed=seed), float(length) - extent)
            return start, ops.add(start, extent)

        x0, x1 = bounds(width)
        y0, y1 = bounds(height)
        rows = ops.arange(height, dtype=dtype)[None, :, None]
        columns = ops.arange(width, dtype=dtype)[None, None, :]

        def inside(v, lo, hi):
            return ops.logical_and(ops.greater_equal(v, lo[:, None, None]), ops.less(v, hi[:, None, None]))

        masks = ops.logical_and(inside(rows, y0, y1), inside(columns, x0, x1))
        masks = ops.repeat(ops.expand_dims(masks, c_axis), shape[c_axis], axis=c_axis)
        weight = 1.0 - ops.multiply(ops.subtract(x1, x0), ops.subtract(y1, y0)) / float(width * height)
        order = ops.cast(ops.argsort(random.uniform((batch,), seed=seed)), "int32")
        return {"permutation_order": order, "batch_masks": masks, "mix_weight": weight}

    def transform_images(self, images, transformation, training=True):
        """The images with the rectangles of ``transformation`` pasted in; unchanged for None."""
        x = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return x
        order = ops.cast(transformation["permutation_order"], "int32")
        return ops.where(transformation["batch_masks"], ops.take(x, order, axis=0), x)

    def transform_labels(self, labels, transformation, training=True):
        """The ``(batch, classes)`` labels blended by the pasted areas; unchanged for None."""
        if not training or transformation is None:
            return labels
        y = ops.cast(labels, self.compute_dtype)
        weight = ops.reshape(ops.cast(transformation["mix_weight"], self.compute_dtype), (-1, 1))
        order = ops.cast(transformation["permutation_order"], "int32")
        return ops.add(ops.multiply(weight, y), ops.multiply(1.0 - weight, ops.take(y, order, axis=0)))

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor})
        return config
