"""MixUp: blends each image (and its label) with another image of the batch during training."""

import numbers

from highlevel import ops, random

from ._mixing import BaseMixingLayer


class MixUp(BaseMixingLayer):
    """Blends the images of a batch pairwise during training (``keras.layers.MixUp``).

    Image ``i`` becomes ``w_i * x_i + (1 - w_i) * x_p(i)``, where ``p`` is a random permutation of the batch
    and ``w_i`` is drawn from ``Beta(alpha, alpha)``. Called on a dict ``{"images": ..., "labels": ...}``, the
    labels (one-hot or soft, ``(batch, classes)``) are blended with the same weights and permutation, and the
    dict comes back. At inference the input passes through (images cast to the compute dtype).

    In a ``tf.data`` map, batch with ``drop_remainder=True``: the batch size must be known.

    The work is split as in Keras: :meth:`get_random_transformation` draws ``{"mix_weight": (batch,),
    "permutation_order": (batch,)}``; :meth:`transform_images` and :meth:`transform_labels` apply it.

    Args:
        alpha: float > 0, the parameter of the Beta distribution of the weights. Default 0.2.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        seed: optional int, for reproducible draws.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: a batch of images (rank 4), or a dict with ``"images"`` and optionally ``"labels"``.
        training: blend (True, the default of a direct call) or pass through (False).

    Raises:
        ValueError: if ``alpha`` is not a number > 0.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[[[0.0]]], [[[1.0]]]])
    >>> layer = hl.layers.MixUp()
    >>> y = layer.transform_images(x, {"mix_weight": [0.75, 0.5], "permutation_order": [1, 0]})
    >>> hl.ops.convert_to_numpy(y).ravel().tolist()
    [0.25, 0.5]
    """

    # Keras's base class takes `factor` here and keeps it without using it; so does this layer.
    _accepts_base_factor = True

    def __init__(self, alpha=0.2, data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if not (isinstance(alpha, numbers.Real) and not isinstance(alpha, bool) and alpha > 0):
            raise ValueError(
                f"Invalid value received for argument `alpha` of {type(self).__name__}. Expected a number > 0. "
                f"Received: alpha={alpha!r}"
            )
        self.alpha = float(alpha)

    def get_random_transformation(self, images, training=True, seed=None):
        """``{"mix_weight", "permutation_order"}`` for a batch of images, or None at inference."""
        if not training:
            return None
        seed = self.seed_generator if seed is None else seed
        shape = ops.shape(images)
        batch = self._static_batch(shape)
        # Same draw order as Keras: the permutation, then the weights. The permutation sorts uniform draws,
        # which works also where the batch size is only known when the pipeline runs (tf.data).
        order = ops.cast(ops.argsort(random.uniform((batch,), seed=seed)), "int32")
        weight = random.beta((batch,), self.alpha, self.alpha, dtype=self.compute_dtype, seed=seed)
        return {"mix_weight": weight, "permutation_order": order}

    def _mix(self, values, transformation, rank):
        weight = ops.reshape(ops.cast(transformation["mix_weight"], self.compute_dtype), (-1,) + (1,) * (rank - 1))
        order = ops.cast(transformation["permutation_order"], "int32")
        return ops.add(ops.multiply(weight, values), ops.multiply(1.0 - weight, ops.take(values, order, axis=0)))

    def transform_images(self, images, transformation, training=True):
        """The images blended as ``transformation`` says; unchanged for None."""
        x = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return x
        return self._mix(x, transformation, 4)

    def transform_labels(self, labels, transformation, training=True):
        """The ``(batch, classes)`` labels blended as ``transformation`` says; unchanged for None."""
        if not training or transformation is None:
            return labels
        return self._mix(ops.cast(labels, self.compute_dtype), transformation, 2)

    def get_config(self):
        config = super().get_config()
        config.update({"alpha": self.alpha})
        return config
