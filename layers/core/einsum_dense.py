"""A dense layer of any dimensionality, written as an einsum equation between the input and a kernel."""

import re
import string

import numpy as np

from highlevel import activations, constraints, initializers, ops, regularizers
from highlevel.initializers import VarianceScaling
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer

from .gptq_layer import EinsumGPTQMixin
from .lora import LoRAMixin
from .quantization import QuantizationMixin

_FORMS = (
    # (pattern on the equation with "..." replaced by "0", where the ellipsis is)
    (re.compile(r"^([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)$"), None),
    (re.compile(r"^0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)$"), "left"),
    (re.compile(r"^([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0$"), "right"),
)


def _parse_equation(equation):
    """``(input_spec, weight_spec, output_spec, elided_side)`` of an equation; ``elided_side`` is None,
    ``"left"`` or ``"right"``."""
    if not isinstance(equation, str):
        raise TypeError(f"`equation` must be a string such as 'ab,bc->ac'; received equation={equation!r}.")
    compact = equation.replace(" ", "").replace("...", "0")
    for pattern, elided_side in _FORMS:
        match = pattern.match(compact)
        if match:
            return match.groups() + (elided_side,)
    raise ValueError(
        f"Invalid einsum equation '{equation}'. Equations must be in the form [X],[Y]->[Z], "
        "...[X],[Y]->...[Z], or [X]...,[Y]->[Z]..., e.g. 'ab,bc->ac'."
    )


def analyze_einsum(equation, bias_axes, input_shape, partial_output_shape):
    """Works out the weight shapes of an EinsumDense layer.

    Args:
        equation: ``"ab,bc->ac"``, ``"...ab,bc->...ac"`` or ``"ab...,bc->ac..."``.
        bias_axes: the output letters that get a bias, or None.
        input_shape: the full input shape (batch axis first).
        partial_output_shape: the output shape without the batch axis and the elided axes.

    Returns:
        ``(kernel_shape, bias_shape or None, full_output_shape, input_axes, output_axes)`` where
        ``input_axes``/``output_axes`` are the kernel axes that count as fan-in and fan-out.
    """
    input_spec, weight_spec, output_spec, elided_side = _parse_equation(equation)
    input_shape = tuple(input_shape)
    rank = len(input_shape)
    elided = rank - len(input_spec)
    if (elided_side is None and elided != 0) or elided < 0:
        raise ValueError(
            f"The einsum equation '{equation}' describes inputs of rank "
            f"{len(input_spec) if elided_side is None else f'>= {len(input_spec)}'}, but the input has shape "
            f"{input_shape} (rank {rank})."
        )
    partial = list(partial_output_shape)
    # The user's output_shape leaves out the batch axis and the axes that the ellipsis stands for.
    if elided_side == "left":
        output_shape = [input_shape[0]] + list(input_shape[1:elided]) + partial
        in_pos = {c: elided + i for i, c in enumerate(input_spec)}
        out_pos = {c: elided + i for i, c in enumerate(output_spec)}
    else:
        output_shape = [input_shape[0]] + partial + (list(input_shape[rank - elided :]) if elided else [])
        in_pos = {c: i for i, c in enumerate(input_spec)}
        out_pos = {c: i for i, c in enumerate(output_spec)}
    if len(output_shape) != len(output_spec) + elided:
        raise ValueError(
            f"`output_shape`={tuple(partial_output_shape)} does not fit the einsum equation '{equation}': "
            f"the output '{output_spec}' needs {len(output_spec) + elided - len(output_shape) + len(partial)} "
            "size(s) after the batch axis (the ellipsis axes are added automatically)."
        )
    for c in output_spec:
        if c not in input_spec and c not in weight_spec:
            raise ValueError(
                f"Dimension '{c}' was specified in the output '{output_spec}' but has no corresponding dim in "
                f"the input spec '{input_spec}' or the weight spec '{weight_spec}' of equation '{equation}'."
            )
    for c in input_spec:
        if c in out_pos:
            want, have = output_shape[out_pos[c]], input_shape[in_pos[c]]
            if want is not None and have is not None and want != have:
                raise ValueError(
                    f"Input shape and output shape do not match at shared dimension '{c}' of equation "
                    f"'{equation}': the input has {have} and output_shape asks for {want}. "
                    f"Input shape: {input_shape}; output_shape: {tuple(partial_output_shape)}."
                )
            if want is None:
                output_shape[out_pos[c]] = have
    kernel_shape, input_axes, output_axes = [], [], []
    for i, c in enumerate(weight_spec):
        if c in out_pos:
            kernel_shape.append(output_shape[out_pos[c]])
            output_axes.append(i)
        elif c in in_pos:
            kernel_shape.append(input_shape[in_pos[c]])
            input_axes.append(i)
        else:
            raise ValueError(
                f"Weight dimension '{c}' did not have a match in either the input spec '{input_spec}' or the "
                f"output spec '{output_spec}' of equation '{equation}'. For this layer, the weight must be "
                "fully specified."
            )
    bias_shape = None
    if bias_axes is not None:
        for c in bias_axes:
            if c not in output_spec:
                raise ValueError(
                    f"Bias dimension '{c}' was requested, but is not part of the output spec '{output_spec}' "
                    f"of equation '{equation}'."
                )
        # The bias broadcasts against the trailing output axes, from the first biased letter onwards.
        first = min(output_spec.index(c) for c in bias_axes)
        bias_shape = [output_shape[out_pos[c]] if c in bias_axes else 1 for c in output_spec[first:]]
        if elided_side == "right":
            bias_shape += [1] * elided
    return kernel_shape, bias_shape, output_shape, input_axes, output_axes


class EinsumDense(EinsumGPTQMixin, QuantizationMixin, LoRAMixin, Layer):
    """A layer that multiplies its input with a kernel by an einsum equation (``keras.layers.EinsumDense``).

    Args:
        equation: an einsum equation between the input and the kernel: ``"ab,bc->ac"``, ``"...ab,bc->...ac"``
            or ``"ab...,bc->ac..."``.
        output_shape: the expected output shape without the batch axis and without the axes the ellipsis
            stands for (an int for one axis); None entries are inferred from the input.
        activation: activation name or callable; None means linear.
        bias_axes: a string of output letters that get a bias, or None for no bias.
        kernel_initializer: initializer of the kernel (default ``"glorot_uniform"``, with fans computed from
            the kernel axes that the equation contracts and produces).
        bias_initializer: initializer of the bias (default ``"zeros"``).
        kernel_regularizer: optional regularizer of the kernel (default None).
        bias_regularizer: optional regularizer of the bias (default None).
        kernel_constraint: optional constraint applied to the kernel after each update (default None).
        bias_constraint: optional constraint applied to the bias after each update (default None).
        lora_rank: a positive int to enable LoRA when the layer is built (see ``enable_lora``): the kernel
            is frozen and two trainable low-rank factors adjust it; None (default) leaves LoRA off.
        lora_alpha: the LoRA update is scaled by ``lora_alpha / lora_rank``; None means ``lora_rank``.
        gptq_unpacked_column_size: the number of columns of a GPTQ-quantized kernel before its 4-bit values
            were packed two to a byte, which a saved GPTQ layer records so that loading can unpack its kernel
            (Keras sets it when it quantizes with GPTQ). This layer does not compute in GPTQ mode; the value is
            checked, kept and written to the config so that configs carrying it load and save unchanged.
            None (default) when the layer is not a GPTQ one.
        quantization_config: a :class:`highlevel.quantizers.QuantizationConfig` used when the layer is built
            under a quantized dtype policy or quantized (int8 or int4); None: the mode's default.
        **kwargs: base layer arguments (``name``, ``dtype``, ``activity_regularizer``...).

    Raises:
        TypeError: if ``equation`` or ``bias_axes`` is not a string.
        ValueError: if ``output_shape`` is not a positive int or a tuple of positive ints and None, or
            ``gptq_unpacked_column_size`` is not a positive int or None.

    >>> import highlevel as hl
    >>> layer = hl.layers.EinsumDense("abc,cd->abd", output_shape=(None, 64), bias_axes="d")
    >>> hl.ops.shape(layer(hl.ops.ones((2, 32, 128))))
    (2, 32, 64)
    >>> layer.compute_output_shape((None, 32, 128))
    (None, 32, 64)
    """

    def __init__(
        self,
        equation,
        output_shape,
        activation=None,
        bias_axes=None,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        lora_rank=None,
        lora_alpha=None,
        gptq_unpacked_column_size=None,
        quantization_config=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        if gptq_unpacked_column_size is not None and (
            isinstance(gptq_unpacked_column_size, bool)
            or not isinstance(gptq_unpacked_column_size, int)
            or gptq_unpacked_column_size <= 0
        ):
            raise ValueError(
                "`gptq_unpacked_column_size` must be a positive int (the column count of a GPTQ kernel before "
                f"its 4-bit values were packed) or None; received {gptq_unpacked_column_size!r}."
            )
        self.gptq_unpacked_column_size = gptq_unpacked_column_size
        self._init_lora(lora_rank, lora_alpha)
        self._init_quantization(quantization_config)
        if not isinstance(equation, str):
            raise TypeError(f"`equation` must be a string such as 'ab,bc->ac'; received equation={equation!r}.")
        self.equation = equation
        if isinstance(output_shape, int) and not isinstance(output_shape, bool):
            self.partial_output_shape = (output_shape,)
        elif isinstance(output_shape, (list, tuple)) and all(
            d is None or (isinstance(d, int) and not isinstance(d, bool) and d > 0) for d in output_shape
        ):
            self.partial_output_shape = tuple(output_shape)
        else:
            raise ValueError(
                "`output_shape` must be a positive int or a tuple of positive ints / None (without the batch "
                f"axis). Received: output_shape={output_shape!r}"
            )
        if bias_axes is not None and not isinstance(bias_axes, str):
            raise TypeError(f"`bias_axes` must be a string of output letters or None; received {bias_axes!r}.")
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        # Fail at construction on a malformed equation, not at the first call.
        _parse_equation(equation)

    def _kernel_initializer_for(self, input_axes, output_axes):
        init = self.kernel_initializer
        if isinstance(init, VarianceScaling) and (init.input_axes is None or init.output_axes is None):
            # Fans come from the contracted and produced kernel axes, not from the kernel's first/last axes.
            config = init.get_config()
            config.update(seed=init.seed, input_axes=input_axes, output_axes=output_axes)
            return type(init).from_config(config)
        return init

    def build(self, input_shape):
        kernel_shape, bias_shape, _, input_axes, output_axes = analyze_einsum(
            self.equation, self.bias_axes, input_shape, self.partial_output_shape
        )
        self.input_spec = InputSpec(ndim=len(input_shape))
        self._kernel_shape = tuple(kernel_shape)
        if self.quantization_mode:
            self.quantized_build(tuple(kernel_shape), self.quantization_mode, self.quantization_config)
        if self.quantization_mode in (None, "float8"):
            self.kernel = self.add_weight(
                shape=tuple(kernel_shape),
                initializer=self._kernel_initializer_for(input_axes, output_axes),
                regularizer=self.kernel_regularizer,
                constraint=self.kernel_constraint,
                name="kernel",
            )
        if bias_shape is not None:
            self.bias = self.add_weight(
                shape=tuple(bias_shape),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
                name="bias",
            )
        else:
            self.bias = None
        self.built = True
        self._build_lora()

    def call(self, inputs, training=None):
        x = ops.einsum(self.equation, inputs, self._lora_weight())
        if self.bias is not None:
            x = ops.add(x, self.bias)
        if self.activation is not None:
            x = self.activation(x)
        return x

    # ------------------------------------------------------------------ int8 and int4
    # int8: the kernel is quantized over its contracted axes (one scale per produced index) and the input over its
    # contracted axes (one scale per token); both scales are kept in the layout of the output (its rank, size 1
    # on the axes they do not vary along), so the integer product divides by their product directly.
    # int4 (Keras's layout): the kernel is reshaped to 2-D ``(rows, columns)`` with ``rows`` the product of its
    # contracted sizes and ``columns`` the product of the others, then quantized as a Dense kernel is: one scale
    # per column, or per group of ``block_size`` rows and column with a zero point; two values per stored byte
    # along the columns.
    _quant_modes = ("int8", "int4", "float8", "gptq", "awq")

    def _full_specs(self):
        """The equation's letters for input, kernel and output, with the ellipsis spelled out for the built rank."""
        input_spec, weight_spec, output_spec, side = _parse_equation(self.equation)
        elided = self.input_spec.ndim - len(input_spec)
        spare = "".join(c for c in string.ascii_letters if c not in input_spec + weight_spec + output_spec)[:elided]
        if side == "left":
            input_spec, output_spec = spare + input_spec, spare + output_spec
        elif side == "right":
            input_spec, output_spec = input_spec + spare, output_spec + spare
        return input_spec, weight_spec, output_spec

    def _quant_float_shape(self):
        return self._kernel_shape

    def _contracted_axes(self, spec):
        output_spec = self._full_specs()[2]
        return tuple(i for i, c in enumerate(spec) if c not in output_spec)

    def _int4_matrix_shape(self, kernel_shape):
        """``(rows, columns)`` of the 2-D int4 kernel: the products of the contracted and of the other sizes."""
        contracted = self._contracted_axes(self._full_specs()[1])
        rows = int(np.prod([d for i, d in enumerate(kernel_shape) if i in contracted], dtype="int64"))
        columns = int(np.prod([d for i, d in enumerate(kernel_shape) if i not in contracted], dtype="int64"))
        return rows, columns

    def _to_output_layout(self, scale, spec, xp=ops):
        """A scale computed with kept dims over ``spec``'s contracted axes, laid out to broadcast on the output."""
        output_spec = self._full_specs()[2]
        contracted = self._contracted_axes(spec)
        kept = [c for c in spec if c in output_spec]
        scale = xp.squeeze(scale, axis=contracted) if contracted else scale
        order = sorted(range(len(kept)), key=lambda i: output_spec.index(kept[i]))
        scale = xp.transpose(scale, order) if order != list(range(len(kept))) else scale
        for axis, c in enumerate(output_spec):
            if c not in spec:
                scale = xp.expand_dims(scale, axis)
        return scale

    def _quantized_values(self, weight, mode, block_size):
        from highlevel import quantizers

        if mode == "int4":
            # As Keras: a plain reshape (no transpose) to the 2-D layout, then the one-matrix int4 scheme.
            flat = np.reshape(weight, self._int4_matrix_shape(weight.shape))
            return QuantizationMixin._quantized_values(self, flat, mode, block_size)
        weight_spec = self._full_specs()[1]
        default = quantizers.AbsMaxQuantizer(axis=self._contracted_axes(weight_spec))
        quantizer = quantizers.QuantizationConfig.weight_quantizer_or_default(self.quantization_config, default)
        q, scale = quantizer(weight, to_numpy=True)
        scale = self._to_output_layout(ops.convert_to_numpy(scale), weight_spec, xp=np)
        return {"kernel": ops.convert_to_numpy(q), "kernel_scale": scale}

    def quantized_build(self, kernel_shape, mode, config=None):
        """Creates the quantized kernel and its scales (zeros and ones until assigned).

        Args:
            kernel_shape: the float kernel's shape.
            mode: ``"int8"``, ``"int4"`` or ``"float8"``.
            config: the quantization config, or None for the mode's default (int8: inputs quantized per token;
                int4: the policy's block size, weights only).

        Returns:
            None.

        Raises:
            NotImplementedError: for another mode.

        >>> import highlevel as hl
        >>> layer = hl.layers.EinsumDense("abc,cd->abd", (None, 4), dtype="int8_from_float32")
        >>> layer.build((None, 3, 5))
        >>> tuple(layer.kernel.shape), tuple(layer.kernel_scale.shape)
        ((5, 4), (1, 1, 4))
        >>> layer = hl.layers.EinsumDense("abc,cde->abde", (None, 2, 3), dtype="int4/-1_from_float32")
        >>> layer.build((None, 3, 5))
        >>> tuple(layer.kernel.shape), tuple(layer.kernel_scale.shape)
        ((5, 3), (6,))
        """
        from highlevel import quantizers

        if mode not in self._quant_modes:
            raise NotImplementedError(
                f"Layer EinsumDense cannot be built for quantization mode {mode!r}; it implements {self._quant_modes}."
            )
        if mode == "float8":
            return self._float8_build()
        if mode in ("gptq", "awq"):
            return self._gptq_build(kernel_shape, config, mode=mode)
        if mode == "int4":
            QuantizationMixin.quantized_build(self, self._int4_matrix_shape(kernel_shape), mode, config)
            return None
        self.inputs_quantizer = quantizers.QuantizationConfig.activation_quantizer_or_default(
            config, quantizers.AbsMaxQuantizer()
        )
        self.kernel = self.add_weight(
            shape=tuple(kernel_shape), initializer="zeros", dtype="int8", trainable=False, name="kernel"
        )
        output_spec = self._full_specs()[2]
        weight_spec = self._full_specs()[1]
        scale_shape = tuple(kernel_shape[weight_spec.index(c)] if c in weight_spec else 1 for c in output_spec)
        self.kernel_scale = self.add_weight(
            shape=scale_shape, initializer="ones", trainable=False, autocast=False, name="kernel_scale"
        )
        self._int4_block_size = None
        self._is_quantized = True
        return None

    def _dequantized_weight(self, dtype="float32"):
        if self.quantization_mode == "int4":
            flat = QuantizationMixin._dequantized_weight(self, dtype)
            return ops.reshape(flat, self._kernel_shape)
        input_spec, weight_spec, output_spec = self._full_specs()
        scale = self.kernel_scale
        dropped = tuple(i for i, c in enumerate(output_spec) if c not in weight_spec)
        scale = ops.squeeze(scale, axis=dropped) if dropped else scale
        kept_in_output = [c for c in output_spec if c in weight_spec]
        order = [kept_in_output.index(c) for c in weight_spec if c in output_spec]
        scale = ops.transpose(scale, order) if order != list(range(len(order))) else scale
        for axis in self._contracted_axes(weight_spec):
            scale = ops.expand_dims(scale, axis)
        return ops.divide(ops.cast(self.kernel, dtype), ops.cast(scale, dtype))

    def _int4_call(self, inputs, training=None):
        input_spec, weight_spec, output_spec = self._full_specs()
        compute = self.compute_dtype
        gradient_equation = f"{output_spec},{weight_spec}->{input_spec}"
        kernel = ops.cast(self._dequantized_weight(compute), compute)
        # activations are quantized only per channel (a grouped int4 layer is weight-only, as in Keras)
        quantize_inputs = self.inputs_quantizer and self._int4_block_size is None

        @ops.custom_gradient
        def product(x, kernel):
            def grad_fn(*args, upstream=None):
                if upstream is None:
                    (upstream,) = args
                return ops.einsum(gradient_equation, upstream, kernel), None

            if quantize_inputs:
                x_q, x_scale = self.inputs_quantizer(x, axis=self._contracted_axes(input_spec))
                y = ops.einsum(self.equation, ops.cast(x_q, compute), kernel)
                return ops.divide(y, ops.cast(self._to_output_layout(x_scale, input_spec), compute)), grad_fn
            return ops.einsum(self.equation, x, kernel), grad_fn

        x = product(inputs, kernel)
        if self.lora_enabled:
            update = ops.einsum(self.equation, ops.cast(inputs, "float32"), self._lora_delta())
            x = ops.cast(ops.add(x, update), compute)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        if self.activation is not None:
            x = self.activation(x)
        return x

    def _int8_call(self, inputs, training=None):
        from .quantization import integer_einsum

        input_spec, weight_spec, output_spec = self._full_specs()
        compute = self.compute_dtype
        gradient_equation = f"{output_spec},{weight_spec}->{input_spec}"

        @ops.custom_gradient
        def product(x, kernel, scale):
            def grad_fn(*args, upstream=None):
                if upstream is None:
                    (upstream,) = args
                scaled = ops.divide(upstream, ops.cast(scale, compute))
                return ops.einsum(gradient_equation, scaled, ops.cast(kernel, compute)), None, None

            if self.inputs_quantizer:
                x, x_scale = self.inputs_quantizer(x, axis=self._contracted_axes(input_spec))
                y = integer_einsum(self.equation, x, kernel)
                scale = ops.multiply(self._to_output_layout(x_scale, input_spec), scale)
            else:
                y = ops.einsum(self.equation, x, ops.cast(kernel, compute))
            return ops.divide(ops.cast(y, compute), ops.cast(scale, compute)), grad_fn

        x = product(inputs, ops.convert_to_tensor(self.kernel), ops.convert_to_tensor(self.kernel_scale))
        if self.lora_enabled:
            update = ops.einsum(self.equation, ops.cast(inputs, "float32"), self._lora_delta())
            x = ops.cast(ops.add(x, update), compute)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        if self.activation is not None:
            x = self.activation(x)
        return x

    def _float8_call(self, inputs, training=None):
        x, kernel = self._float8_operands(inputs, training)
        y = self._float8_output_gradient(ops.einsum(self.equation, x, kernel))
        bias = self._float8_bias()
        if bias is not None:
            y = ops.add(y, bias)
        return self.activation(y) if self.activation is not None else y

    def compute_output_shape(self, input_shape):
        return tuple(analyze_einsum(self.equation, self.bias_axes, input_shape, self.partial_output_shape)[2])

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "equation": self.equation,
                "output_shape": self.partial_output_shape,
                "activation": activations.serialize(self.activation),
                "bias_axes": self.bias_axes,
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
        if self.gptq_unpacked_column_size:
            config["gptq_unpacked_column_size"] = self.gptq_unpacked_column_size
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if config.get("quantization_config") is not None:
            from highlevel import quantizers

            config["quantization_config"] = quantizers.deserialize(config["quantization_config"])
        return cls(**config)


EinsumDense._quantizable_base = EinsumDense
