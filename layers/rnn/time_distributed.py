"""TimeDistributed: applies a layer to every time step of a sequence (shared weights)."""

from highlevel import ops
from highlevel.backends.contract import tree
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer
from highlevel.layers.core.wrapper import Wrapper


class TimeDistributed(Wrapper):
    """Applies ``layer`` to every temporal slice of an input (``keras.layers.TimeDistributed``).

    The input ``(batch, timesteps, ...)`` is folded to ``(batch * timesteps, ...)``, passed through ``layer``
    once, and unfolded to ``(batch, timesteps, ...)``: the same weights serve every step, and no Python loop
    runs over time. (A layer whose training-mode result depends on the whole batch, such as
    BatchNormalization, therefore sees all steps at once rather than one step at a time.)

    Args:
        layer: a ``Layer`` instance.
        **kwargs: base layer arguments.

    Call arguments:
        inputs: ``(batch, timesteps, ...)``, rank at least 3.
        training: passed to ``layer``.
        mask: bool ``(batch, timesteps, ...)``, passed to ``layer`` step by step when it takes a mask.

    Raises:
        ValueError: if ``layer`` is not a Layer instance.

    >>> import highlevel as hl
    >>> layer = hl.layers.TimeDistributed(hl.layers.Dense(8))
    >>> hl.ops.shape(layer(hl.ops.ones((2, 10, 3))))
    (2, 10, 8)
    """

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(
                f"Please initialize `TimeDistributed` layer with a `keras.layers.Layer` instance. Received: {layer!r}"
            )
        super().__init__(layer, **kwargs)
        self.supports_masking = True

    def _check_shape(self, input_shape):
        if not isinstance(input_shape, (list, tuple)) or len(input_shape) < 3:
            raise ValueError(
                "`TimeDistributed` Layer should be passed an `input_shape` with at least 3 dimensions, received: "
                f"{input_shape}"
            )

    def build(self, input_shape):
        self._check_shape(input_shape)
        if not self.layer.built:
            self.layer._maybe_build(KerasTensor((None,) + tuple(input_shape[2:]), self.compute_dtype))
        self.built = True

    def compute_output_spec(self, inputs, training=None, mask=None):
        self._check_shape(inputs.shape)
        step = KerasTensor((None,) + tuple(inputs.shape[2:]), inputs.dtype)
        if not self.layer.built:
            self.layer._maybe_build(step)
        inner = self.layer.compute_output_spec(step)
        batch, steps = inputs.shape[0], inputs.shape[1]
        return tree.map_structure(lambda t: KerasTensor((batch, steps) + tuple(t.shape[1:]), t.dtype), inner)

    def compute_output_shape(self, input_shape):
        spec = self.compute_output_spec(KerasTensor(tuple(input_shape), self.compute_dtype))
        return tree.map_structure(lambda t: t.shape, spec)

    def call(self, inputs, training=None, mask=None):
        shape = ops.shape(inputs)
        self._check_shape(shape)
        batch, steps = shape[0], shape[1]
        if mask is not None:
            mshape = ops.shape(mask)
            if len(mshape) < 2 or tuple(mshape[:2]) != (batch, steps):
                raise ValueError(
                    f"The `mask` passed to the `TimeDistributed` layer has a shape {tuple(mshape)} that is "
                    f"incompatible with the input shape {tuple(shape)}. The first two dimensions of the mask "
                    f"(batch size and timesteps) must match the input's: ({batch}, {steps})."
                )
        kwargs = {}
        if self.layer._call_has_training and training is not None:
            kwargs["training"] = training
        if self.layer._call_has_mask and mask is not None:
            kwargs["mask"] = ops.reshape(mask, (batch * steps,) + tuple(ops.shape(mask)[2:]))
        folded = ops.reshape(inputs, (batch * steps,) + tuple(shape[2:]))
        outputs = self.layer(folded, **kwargs)
        return tree.map_structure(lambda y: ops.reshape(y, (batch, steps) + tuple(ops.shape(y)[1:])), outputs)

    def compute_mask(self, inputs, mask=None):
        return mask
