"""The global average pooling layer for 1D inputs."""

from highlevel import ops

from .base_global_pooling import BaseGlobalPooling


class GlobalAveragePooling1D(BaseGlobalPooling):
    """Global average pooling over the steps axis of a sequence (``keras.layers.GlobalAveragePooling1D``).

    With a ``mask`` of shape ``(batch, steps)`` (e.g. from Embedding(mask_zero=True) or Masking),
    the mean is over the unmasked steps only.

    Args:
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        keepdims: keep the spatial axes with size 1 (default False).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape:
        ``(batch, steps, channels)`` (channels_last) or
        ``(batch, channels, steps)`` (channels_first).

    Output shape:
        ``(batch, channels)``, or with ``keepdims``
        ``(batch, 1, channels)`` (channels_last) / ``(batch, channels, 1)``
        (channels_first).

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(4, dtype="float32"), (1, 4, 1))
    >>> hl.ops.convert_to_numpy(hl.layers.GlobalAveragePooling1D()(x)).tolist()
    [[1.5]]
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(1, "average", data_format=data_format, keepdims=keepdims, **kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        steps_axis = 1 if self.data_format == "channels_last" else 2
        if mask is None:
            return ops.mean(inputs, axis=steps_axis, keepdims=self.keepdims)
        # The mask is (batch, steps): broadcast it over the channel axis, zero the masked steps and divide by
        # the number of unmasked steps.
        mask = ops.expand_dims(ops.cast(mask, "bool"), 2 if self.data_format == "channels_last" else 1)
        inputs = ops.where(mask, inputs, ops.zeros_like(inputs))
        counts = ops.sum(ops.cast(mask, inputs.dtype), axis=steps_axis, keepdims=self.keepdims)
        return ops.divide(ops.sum(inputs, axis=steps_axis, keepdims=self.keepdims), counts)

    def compute_mask(self, inputs, mask=None):
        # The steps axis is pooled away: no mask goes further.
        return None
