"""Flattens every axis but the batch axis into one."""

import math
import numbers

from highlevel import config as _config
from highlevel import ops
from highlevel.input_spec import InputSpec
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer


class Flatten(Layer):
    """Flattens the input to ``(batch, features)``; does not affect the batch size (``keras.layers.Flatten``).

    An input of shape ``(batch,)`` becomes ``(batch, 1)``.

    Args:
        data_format: ``"channels_last"`` (default) or ``"channels_first"``. With ``"channels_first"`` the
            channel axis (axis 1) is moved last before flattening, so that the element order matches a
            channels-last model's.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    >>> import highlevel as hl
    >>> hl.ops.shape(hl.layers.Flatten()(hl.ops.ones((2, 3, 4))))
    (2, 12)
    >>> hl.layers.Flatten().compute_output_shape((None, 3, 4))
    (None, 12)
    """

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _config.standardize_data_format(data_format, "Flatten")
        self.input_spec = InputSpec(min_ndim=1)
        self.built = True

    def call(self, inputs):
        shape = tuple(ops.shape(inputs))
        rank = len(shape)
        if self.data_format == "channels_first" and rank > 2:
            inputs = ops.transpose(inputs, (0, *range(2, rank), 1))
        rest = shape[1:]
        # The batch size is -1 unless it is a plain int: inside a traced function (a TensorFlow graph, a JAX or
        # torch export with a free batch) it is a tensor or a symbol that a reshape cannot take.
        batch = shape[0] if isinstance(shape[0], numbers.Integral) else -1
        if not all(isinstance(d, numbers.Integral) for d in rest):
            return ops.reshape(inputs, (batch, -1))
        size = math.prod(rest)
        # -1 also when the rest determines it: a tracer that reads sizes as Python ints (torch.onnx) would otherwise
        # write the traced batch size into the program as a constant.
        return ops.reshape(inputs, (-1 if size else batch, size))

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        rest = input_shape[1:]
        if not rest:
            return (input_shape[0], 1)
        return (input_shape[0], None if any(d is None for d in rest) else math.prod(rest))

    def compute_output_spec(self, inputs):
        return KerasTensor(self.compute_output_shape(inputs.shape), inputs.dtype)

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config
