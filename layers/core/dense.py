"""The densely connected layer: ``activation(inputs @ kernel + bias)`` on the last axis."""

from highlevel import activations, constraints, initializers, ops, regularizers
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer

from .gptq_layer import GPTQMixin
from .lora import LoRAMixin
from .quantization import QuantizationMixin, integer_matmul

# The activation functions ops.dense applies itself (with their default arguments they are the ops of that name).
_FUSED_ACTIVATIONS = {
    None: None,
    activations.linear: None,
    activations.relu: "relu",
    activations.sigmoid: "sigmoid",
    activations.tanh: "tanh",
}
_NOT_FUSED = object()


class Dense(GPTQMixin, QuantizationMixin, LoRAMixin, Layer):
    """A densely connected layer (``keras.layers.Dense``).

    Computes ``activation(dot(inputs, kernel) + bias)`` where ``kernel`` has shape ``(input_dim, units)``.
    Inputs of rank greater than 2 are multiplied on their last axis (the kernel is shared over the
    other axes).

    Args:
        units: positive int, the size of the output's last axis.
        activation: an activation name or callable; None means linear (``a(x) = x``).
        use_bias: whether to add a bias vector of shape ``(units,)``.
        kernel_initializer: initializer of the kernel (default ``"glorot_uniform"``).
        bias_initializer: initializer of the bias (default ``"zeros"``).
        kernel_regularizer: regularizer of the kernel.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the layer's output.
        kernel_constraint: constraint of the kernel.
        bias_constraint: constraint of the bias.
        lora_rank: a positive int to enable LoRA when the layer is built (see ``enable_lora``): the kernel
            is frozen and two trainable low-rank factors adjust it; None (default) leaves LoRA off.
        lora_alpha: the LoRA update is scaled by ``lora_alpha / lora_rank``; None means ``lora_rank``.
        quantization_config: a :class:`highlevel.quantizers.QuantizationConfig` used when the layer is built
            under a quantized dtype policy (``dtype="int8_from_float32"``) or quantized; None: the mode's default.
        **kwargs: base layer arguments (``name``, ``dtype``, ``trainable``, ``input_shape``...).

    Input shape:
        ``(batch_size, ..., input_dim)``, rank at least 2.

    Output shape:
        ``(batch_size, ..., units)``.

    Raises:
        ValueError: if ``units`` is not a positive int.

    >>> import highlevel as hl
    >>> layer = hl.layers.Dense(4, activation="relu")
    >>> y = layer(hl.ops.ones((2, 3)))
    >>> hl.ops.shape(y), [w.path for w in layer.weights]
    ((2, 4), ['dense/kernel', 'dense/bias'])
    """

    def __init__(
        self,
        units,
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        lora_rank=None,
        lora_alpha=None,
        quantization_config=None,
        **kwargs,
    ):
        if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
            raise ValueError(
                f"Received an invalid value for `units`, expected a positive integer. Received: units={units!r}"
            )
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True
        self._init_lora(lora_rank, lora_alpha)
        self._init_quantization(quantization_config)

    def build(self, input_shape):
        input_dim = input_shape[-1] if input_shape else None
        if input_dim is None:
            raise ValueError(
                f"Layer '{self.name}' needs the size of the last axis of its input to create its kernel, but "
                f"received input_shape={input_shape}. Give the input a known last dimension."
            )
        if self.quantization_mode:
            self.quantized_build((input_dim, self.units), self.quantization_mode, self.quantization_config)
        if self.quantization_mode in (None, "float8"):
            self.kernel = self.add_weight(
                shape=(input_dim, self.units),
                initializer=self.kernel_initializer,
                regularizer=self.kernel_regularizer,
                constraint=self.kernel_constraint,
                name="kernel",
            )
        if self.use_bias:
            self.bias = self.add_weight(
                shape=(self.units,),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
                name="bias",
            )
        else:
            self.bias = None
        # From now on, a call with another last-axis size is an error that names both sizes.
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self.built = True
        self._build_lora()

    def call(self, inputs, training=None):
        # ``training`` is accepted as in Keras (a subclass may use it); the layer behaves the same either way.
        # One fused op (matmul, bias and, for the stock activations, the activation: ops.dense), which eager
        # engines run as fewer graph nodes; other activations are applied to its output.
        # With LoRA on, the same op runs with the merged kernel.
        kernel = self._lora_weight()
        fused = _FUSED_ACTIVATIONS.get(self.activation, _NOT_FUSED)
        if fused is not _NOT_FUSED:
            return ops.dense(inputs, kernel, self.bias, activation=fused)
        x = ops.dense(inputs, kernel, self.bias)
        return self.activation(x) if self.activation is not None else x

    def _finish(self, x, inputs):
        """LoRA's update, the bias and the activation after the quantized product."""
        if self.lora_enabled:
            a, b = self._lora_factors()
            update = ops.matmul(ops.matmul(ops.cast(inputs, "float32"), a), b)
            x = ops.cast(ops.add(x, ops.multiply(update, self.lora_alpha / self.lora_rank)), self.compute_dtype)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x) if self.activation is not None else x

    def _int8_call(self, inputs, training=None):
        compute = self.compute_dtype

        @ops.custom_gradient
        def product(x, kernel, scale):
            def grad_fn(*args, upstream=None):
                if upstream is None:
                    (upstream,) = args
                float_kernel = ops.divide(ops.cast(kernel, compute), ops.cast(scale, compute))
                return ops.matmul(upstream, ops.transpose(float_kernel)), None, None

            out_scale = scale
            if self.inputs_quantizer:
                x, x_scale = self.inputs_quantizer(x, axis=-1)
                out_scale = ops.multiply(out_scale, x_scale)
                y = integer_matmul(x, kernel)
            else:
                y = ops.matmul(x, ops.cast(kernel, compute))
            return ops.divide(ops.cast(y, compute), ops.cast(out_scale, compute)), grad_fn

        x = product(inputs, ops.convert_to_tensor(self.kernel), ops.convert_to_tensor(self.kernel_scale))
        return self._finish(x, inputs)

    def _int4_call(self, inputs, training=None):
        compute = self.compute_dtype
        per_channel = self._int4_block_size is None

        @ops.custom_gradient
        def product(x, kernel):
            def grad_fn(*args, upstream=None):
                if upstream is None:
                    (upstream,) = args
                return ops.matmul(upstream, ops.transpose(self._dequantized_weight(compute))), None

            if not per_channel:
                return ops.matmul(x, self._dequantized_weight(compute)), grad_fn
            values, scale = self._unpacked(), self.kernel_scale
            if self.inputs_quantizer:
                x, x_scale = self.inputs_quantizer(x, axis=-1)
                y = integer_matmul(x, values)
                scale = ops.multiply(scale, x_scale)
            else:
                y = ops.matmul(x, ops.cast(values, compute))
            return ops.divide(ops.cast(y, compute), ops.cast(scale, compute)), grad_fn

        x = product(inputs, ops.convert_to_tensor(self.kernel))
        return self._finish(x, inputs)

    _quant_modes = ("int8", "int4", "float8", "gptq", "awq")

    def _float8_call(self, inputs, training=None):
        x, kernel = self._float8_operands(inputs, training)
        y = self._float8_output_gradient(ops.matmul(x, kernel))
        bias = self._float8_bias()
        if bias is not None:
            y = ops.add(y, bias)
        return self.activation(y) if self.activation is not None else y

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)[:-1] + (self.units,)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "units": self.units,
                "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint),
                **self._lora_config(),
                **self._quantization_config_entry(),
            }
        )
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if config.get("quantization_config") is not None:
            from highlevel import quantizers

            config["quantization_config"] = quantizers.deserialize(config["quantization_config"])
        return cls(**config)


Dense._quantizable_base = Dense
