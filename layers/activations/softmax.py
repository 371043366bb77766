"""The softmax activation as a layer, with an optional mask."""

from highlevel import ops
from highlevel.backends.contract import dtypes as _dtypes
from highlevel.layer import Layer


def _large_negative(dtype):
    # Large enough to vanish after exp, small enough not to overflow the dtype (float16 tops out at 65504).
    return -3e4 if _dtypes.standardize_dtype(dtype) == "float16" else -1e9


class Softmax(Layer):
    """Softmax activation (``keras.layers.Softmax``): ``exp(x) / sum(exp(x), axis)``.

    Args:
        axis: an int or a tuple of ints, the axis or axes to normalize over (default -1).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: the logits.
        mask: optional, broadcastable to ``inputs``; True (or > 0.5) keeps a position, False drops it:
            dropped positions get a large negative logit before the softmax and come out as 0.

    Input shape: any. Output shape: the input's shape.

    Raises:
        ValueError: if ``axis`` is not an int or a non-empty tuple of ints.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, 1.0, 5.0]])
    >>> mask = hl.ops.convert_to_tensor([[True, True, False]])
    >>> hl.ops.convert_to_numpy(hl.layers.Softmax()(x, mask=mask)).tolist()
    [[0.5, 0.5, 0.0]]
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            if not axis or not all(isinstance(a, int) and not isinstance(a, bool) for a in axis):
                raise ValueError(f"Softmax's `axis` must be an int or a non-empty tuple of ints; received {axis!r}.")
            axis = tuple(axis)
        elif not isinstance(axis, int) or isinstance(axis, bool):
            raise ValueError(f"Softmax's `axis` must be an int or a non-empty tuple of ints; received {axis!r}.")
        self.axis = axis
        self.supports_masking = True
        self.built = True

    def _check_mask(self, inputs, mask):
        in_shape, m_shape = tuple(ops.shape(inputs)), tuple(ops.shape(mask))
        if len(m_shape) > len(in_shape):
            raise ValueError(
                "The `mask` must be broadcastable to `inputs` and must not have more dimensions. Received: "
                f"inputs.shape={in_shape}, mask.shape={m_shape}"
            )
        for m, i in zip(reversed(m_shape), reversed(in_shape)):
            if m is not None and i is not None and m not in (1, i):
                raise ValueError(
                    "The `mask` must be broadcastable to `inputs`. Each mask dimension must be 1 or match the "
                    f"corresponding input dimension. Received: inputs.shape={in_shape}, mask.shape={m_shape}"
                )

    def call(self, inputs, mask=None):
        if mask is not None:
            self._check_mask(inputs, mask)
            if _dtypes.standardize_dtype(ops.dtype(mask)) != "bool":
                mask = ops.greater(mask, 0.5)
            inputs = ops.where(mask, inputs, _large_negative(ops.dtype(inputs)))
        if isinstance(self.axis, tuple) and len(self.axis) > 1:
            outputs = ops.exp(ops.subtract(inputs, ops.logsumexp(inputs, axis=self.axis, keepdims=True)))
        else:
            axis = self.axis[0] if isinstance(self.axis, tuple) else self.axis
            outputs = ops.softmax(inputs, axis=axis)
        if mask is not None:
            # A fully masked row would otherwise come out uniform.
            outputs = ops.where(mask, outputs, ops.zeros_like(outputs))
        return outputs

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config
