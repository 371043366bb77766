"""What the layers that mix the images of a batch (MixUp, CutMix) share: the call on images or on a dict."""

from highlevel import ops
from highlevel.keras_tensor import KerasTensor

from ._image_base import BaseRandomImageLayer, check_image_rank


class BaseMixingLayer(BaseRandomImageLayer):
    """Calls ``get_random_transformation`` once, then ``transform_images`` (and ``transform_labels`` for a dict
    ``{"images", "labels"}``, which comes back as a dict). Subclasses define those three methods."""

    def call(self, inputs, training=True):
        images = inputs["images"] if isinstance(inputs, dict) else inputs
        check_image_rank(ops.shape(images), type(self).__name__)
        transformation = self.get_random_transformation(images, training=training)
        if not isinstance(inputs, dict):
            return self.transform_images(images, transformation, training=training)
        out = dict(inputs)
        out["images"] = self.transform_images(images, transformation, training=training)
        if "labels" in inputs:
            out["labels"] = self.transform_labels(inputs["labels"], transformation, training=training)
        return out

    def compute_output_spec(self, inputs, *args, **kwargs):
        if not isinstance(inputs, dict):
            return super().compute_output_spec(inputs)
        out = dict(inputs)
        for key in ("images", "labels"):
            if key in inputs:
                out[key] = KerasTensor(tuple(inputs[key].shape), self.compute_dtype)
        return out

    def _static_batch(self, shape):
        batch = shape[0] if len(shape) == 4 else 1
        if not isinstance(batch, int):
            raise ValueError(
                f"{type(self).__name__} needs batches of known size (its Beta draws have a static shape). Received "
                f"images of shape {tuple(shape)}. In a tf.data pipeline, batch with `drop_remainder=True`."
            )
        return batch
