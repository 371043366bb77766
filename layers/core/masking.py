"""A layer that masks timesteps whose features all equal a given value."""

from highlevel import ops
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer


class Masking(Layer):
    """Masks timesteps of a sequence in which every feature equals ``mask_value`` (``keras.layers.Masking``).

    For an input of shape ``(batch, timesteps, features)``, the timestep ``[b, t]`` is masked (skipped by
    downstream layers that support masking) when ``all(inputs[b, t, :] == mask_value)``. The output is the
    input with the masked timesteps set to 0; the mask is ``any(inputs != mask_value, axis=-1)``.

    Args:
        mask_value: the value that marks padding (default 0.0).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: rank >= 1 (usually ``(batch, timesteps, features)``). Output shape: the input's shape.

    Raises:
        TypeError: if ``mask_value`` is not a number.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[[1.0, 2.0], [0.0, 0.0], [3.0, 0.0]]])
    >>> layer = hl.layers.Masking(mask_value=0.0)
    >>> hl.ops.convert_to_numpy(layer.compute_mask(x)).tolist()
    [[True, False, True]]
    """

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        if isinstance(mask_value, bool) or not isinstance(mask_value, (int, float)):
            raise TypeError(f"`mask_value` must be a number; received mask_value={mask_value!r}.")
        self.mask_value = mask_value
        self.supports_masking = True
        self.input_spec = InputSpec(min_ndim=1)
        self.built = True

    def compute_mask(self, inputs, mask=None):
        return ops.any(ops.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        keep = ops.any(ops.not_equal(inputs, self.mask_value), axis=-1, keepdims=True)
        # `where` rather than a product so that masked inf/nan padding becomes 0 as in Keras.
        return ops.where(keep, inputs, ops.zeros_like(inputs))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config["mask_value"] = self.mask_value
        return config
