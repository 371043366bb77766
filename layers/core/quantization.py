"""int8 and int4 forms of a layer with one weight matrix (Dense, Embedding), shared as LoRA is.

The float weight ``w`` (shape ``(rows, cols)``) becomes integers and scales, as Keras 3 stores them:

* **int8**: ``w_q = round(w * s)`` clipped to ``[-127, 127]``, with one scale ``s = 127 / max|w|`` per channel
  (per output column of a kernel, per row of an embeddings table); ``w ≈ w_q / s``.
* **int4**, per channel (``block_size`` None or -1): the same in ``[-8, 7]``, two values packed per int8 byte
  along the last axis.
* **int4**, in groups of ``block_size`` along the reduced axis (Keras's default, 128): asymmetric, with a scale
  and an integer zero point per group and channel; ``w ≈ (w_q - zero) * scale``; ``g_idx`` maps each position
  to its group.

A layer using the mixin names its weight and its orientation in class attributes, calls
:meth:`_init_quantization` in ``__init__`` and, in ``build``, :meth:`quantized_build` instead of creating the
float weight when its policy is quantized; it computes in ``_int8_call`` / ``_int4_call``.
"""

import math

import numpy as np

from highlevel import ops
from highlevel.backends.contract.interop import front_class
from highlevel.quantization import resolve

from .lora import LIBRARY_STATE_HOOKS


def integer_matmul(x_int8, kernel_int8):
    """``x @ kernel`` of two int8 tensors, accumulated exactly in int32 (an integer product on every engine).

    Args:
        x_int8: int8 tensor ``(..., k)``.
        kernel_int8: int8 tensor ``(k, n)``.

    Returns:
        The int32 product ``(..., n)``.

    >>> import highlevel as hl
    >>> a = hl.ops.full((1, 300), 100, dtype="int8")
    >>> hl.ops.convert_to_numpy(integer_matmul(a, hl.ops.full((300, 1), 100, dtype="int8"))).tolist()
    [[3000000]]
    """
    return ops.int8_matmul(x_int8, kernel_int8)


def integer_einsum(equation, x_int8, kernel_int8):
    """``einsum(equation, x, kernel)`` of two int8 tensors, accumulated exactly in int32.

    Args:
        equation: the einsum equation of the two operands.
        x_int8: int8 tensor.
        kernel_int8: int8 tensor.

    Returns:
        The int32 result.

    >>> import highlevel as hl
    >>> a = hl.ops.full((1, 300), 100, dtype="int8")
    >>> hl.ops.convert_to_numpy(integer_einsum("ab,bc->ac", a, hl.ops.full((300, 1), 100, dtype="int8"))).tolist()
    [[3000000]]
    """
    return ops.einsum(equation, ops.cast(x_int8, "int32"), ops.cast(kernel_int8, "int32"))


#: The float8 training state Keras keeps per Dense / EinsumDense: a scale and a history of absolute maxima for
#: the inputs, the kernel and the output gradient, in its saving order.
FLOAT8_VARIABLES = (
    "inputs_scale",
    "inputs_amax_history",
    "kernel_scale",
    "kernel_amax_history",
    "outputs_grad_scale",
    "outputs_grad_amax_history",
)


def _block_size(layer, config):
    """The int4 group size: the config's, else the quantized policy's; None means per channel."""
    from highlevel import quantizers

    if isinstance(config, quantizers.Int4QuantizationConfig):
        size = config.block_size
    else:
        size = getattr(layer._path_policy(), "block_size", None)
    return None if size is None or size == -1 else int(size)


def _quantized_policy(mode, policy):
    """The quantized policy of ``mode`` over a float ``policy`` (a quantized one stays as it is)."""
    if getattr(policy, "quantization_mode", None) is not None:
        return policy
    from highlevel import dtype_policies

    return dtype_policies.get(f"{mode}_from_{policy.name}")


class QuantizationMixin:
    """Adds ``quantize("int8" | "int4")``, the quantized build and the saving layout of Keras to a layer with one
    weight matrix.

    Class attributes: ``_quant_target`` (the weight's attribute, ``"kernel"``), ``_quant_channel_axis`` (the
    axis with one scale per index: 1 for a kernel ``(in, out)``, 0 for an embeddings table) and
    ``_quant_modes`` (the modes the layer implements).

    >>> import highlevel as hl
    >>> layer = hl.layers.Dense(3)
    >>> layer.build((None, 4))
    >>> layer.quantize("int8")
    >>> [(w.path, w.dtype) for w in layer.weights]
    [('dense/bias', 'float32'), ('dense/kernel', 'int8'), ('dense/kernel_scale', 'float32')]
    """

    _quant_target = "kernel"
    _quant_channel_axis = 1
    _quant_modes = ("int8", "int4")

    def _init_quantization(self, quantization_config):
        self.quantization_config = quantization_config
        self._is_quantized = False

    # ---------------------------------------------------------------- names and shapes
    @property
    def _quant_scale_name(self):
        return f"{self._quant_target}_scale"

    @property
    def _quant_zero_name(self):
        return f"{self._quant_target}_zero"

    def _quant_float_shape(self):
        """The shape of the float weight, ``(rows, cols)`` (an int4 weight is stored with half the columns)."""
        weight = getattr(self, self._quant_target)
        if getattr(self, "_is_quantized", False):
            return (int(weight.shape[0]), self._quant_orig_cols)
        return tuple(int(d) for d in weight.shape)

    def _lora_weight_shape(self):
        return self._quant_float_shape()

    def _quant_saved_names(self):
        """The variables a quantized layer saves, in Keras's order (those the layer has)."""
        if self.quantization_mode in ("gptq", "awq"):
            return self._gptq_saved_names()
        names = [self._quant_target]
        if getattr(self, "bias", None) is not None:
            names.append("bias")
        if self.quantization_mode == "float8":
            return names + list(FLOAT8_VARIABLES)
        names.append(self._quant_scale_name)
        for name in (self._quant_zero_name, "g_idx"):
            if getattr(self, name, None) is not None:
                names.append(name)
        return names

    # ---------------------------------------------------------------- quantize
    def quantize(self, mode=None, type_check=True, config=None):
        """Replaces the float weight by its quantized form and the dtype policy by the quantized policy.

        Args:
            mode: ``"int8"`` or ``"int4"`` (``"gptq"`` / ``"awq"`` on Dense and EinsumDense only prepare the layer;
                ``Model.quantize`` calibrates it); optional when ``config`` names it.
            type_check: refuse a subclass of the layer (its ``call`` may read the float weight), as Keras does.
            config: a :class:`highlevel.quantizers.QuantizationConfig` (e.g. ``Int4QuantizationConfig(
                block_size=None)`` for one int4 scale per channel); None takes the mode's default.

        Returns:
            None.

        Raises:
            ValueError: the layer is not built or is quantized already, or the mode or config is invalid.
            NotImplementedError: the layer's class does not implement ``mode`` (or is a subclass, with
                ``type_check``).

        >>> import highlevel as hl
        >>> layer = hl.layers.Embedding(10, 4)
        >>> layer.build()
        >>> layer.quantize("int8")
        >>> layer.dtype_policy.name, layer.embeddings.dtype
        ('int8_from_float32', 'int8')
        """
        mode, config = resolve(self, mode, config)
        cls = front_class(type(self))
        if type_check and cls is not self._quantizable_class():
            raise self._not_implemented_error("quantize")
        if mode not in self._quant_modes:
            raise NotImplementedError(
                f"Layer {cls.__name__} cannot be quantized to mode {mode!r}; it implements {self._quant_modes}."
            )
        if mode in ("gptq", "awq"):
            # GPTQ and AWQ prepare the layer here; its calibration (Model.quantize) writes the quantized values
            return self._gptq_prepare(config)
        self.quantization_config = config
        if mode == "float8":
            # float8 training keeps the float weight and adds the scaling state
            self.quantized_build(self._quant_float_shape(), mode, config)
            self.dtype_policy = _quantized_policy(mode, self._path_policy())
            return
        weight = getattr(self, self._quant_target)
        shape = self._quant_float_shape()
        values = self._quantized_values(ops.convert_to_numpy(weight), mode, _block_size(self, config))
        self._own_weights = [v for v in self._own_weights if v is not weight]
        setattr(self, self._quant_target, None)
        self.quantized_build(shape, mode, config)
        for name, value in values.items():
            getattr(self, name).assign(value)
        if getattr(self._path_policy(), "quantization_mode", None) is None:
            size = _block_size(self, config)
            self.dtype_policy = _quantized_policy(
                mode if mode != "int4" else f"int4/{size if size is not None else -1}", self._path_policy()
            )

    def _quantizable_class(self):
        return type(self)._quantizable_base

    def _quantized_values(self, weight, mode, block_size):
        """``{variable name: numpy array}``: the quantized form of the float ``weight`` (a numpy array)."""
        from highlevel import quantizers

        channel = self._quant_channel_axis
        reduced = 1 - channel
        config = self.quantization_config
        if mode == "int8":
            default = quantizers.AbsMaxQuantizer(axis=reduced)
            quantizer = quantizers.QuantizationConfig.weight_quantizer_or_default(config, default)
            q, scale = quantizer(weight, to_numpy=True)
            return {
                self._quant_target: ops.convert_to_numpy(q),
                self._quant_scale_name: np.squeeze(ops.convert_to_numpy(scale), axis=reduced),
            }
        if block_size is None:
            default = quantizers.AbsMaxQuantizer(axis=reduced, value_range=(-8, 7), output_dtype="int8")
            quantizer = quantizers.QuantizationConfig.weight_quantizer_or_default(config, default)
            q, scale = quantizer(weight, to_numpy=True)
            packed = quantizers.pack_int4(ops.convert_to_numpy(q), axis=-1)[0]
            return {
                self._quant_target: ops.convert_to_numpy(packed),
                self._quant_scale_name: np.squeeze(ops.convert_to_numpy(scale), axis=reduced),
            }
        # groups run along the reduced axis: put it first, as the grouped quantizer expects
        oriented = weight if reduced == 0 else weight.T
        q, scale, zero = (
            ops.convert_to_numpy(t)
            for t in quantizers.abs_max_quantize_grouped_with_zero_point(
                oriented, block_size=block_size, value_range=(-8, 7), dtype="int8", to_numpy=True
            )
        )
        if reduced != 0:
            q, scale, zero = q.T, scale.T, zero.T
        return {
            self._quant_target: ops.convert_to_numpy(quantizers.pack_int4(q, axis=-1)[0]),
            self._quant_scale_name: scale,
            self._quant_zero_name: zero,
        }

    def quantized_build(self, kernel_shape, mode, config=None):
        """Creates the quantized weights (zeros and ones until assigned) for a float weight of ``kernel_shape``.

        Args:
            kernel_shape: ``(rows, cols)`` of the float weight.
            mode: ``"int8"`` or ``"int4"``.
            config: the quantization config, or None (then the policy's settings apply).

        Returns:
            None.

        Raises:
            NotImplementedError: the layer does not implement ``mode``.

        >>> import highlevel as hl
        >>> layer = hl.layers.Dense(3, dtype="int4/-1_from_float32")
        >>> layer.build((None, 5))
        >>> [tuple(w.shape) for w in (layer.kernel, layer.kernel_scale)]
        [(5, 2), (3,)]
        """
        from highlevel import quantizers

        if mode not in self._quant_modes:
            raise NotImplementedError(
                f"Layer {front_class(type(self)).__name__} cannot be built for quantization mode {mode!r}; it "
                f"implements {self._quant_modes}."
            )
        if mode == "float8":
            return self._float8_build()
        if mode in ("gptq", "awq"):
            return self._gptq_build(kernel_shape, config, mode=mode)
        rows, cols = kernel_shape
        channel = self._quant_channel_axis
        reduced = 1 - channel
        if mode == "int8":
            self.inputs_quantizer = quantizers.QuantizationConfig.activation_quantizer_or_default(
                config, quantizers.AbsMaxQuantizer()
            )
            stored = (rows, cols)
        else:
            self.inputs_quantizer = quantizers.QuantizationConfig.activation_quantizer_or_default(config, None)
            stored = (rows, (cols + 1) // 2)
        weight = self.add_weight(
            shape=stored, initializer="zeros", dtype="int8", trainable=False, name=self._quant_target
        )
        setattr(self, self._quant_target, weight)
        block_size = _block_size(self, config) if mode == "int4" else None
        self._int4_block_size = block_size
        scale_shape = (kernel_shape[channel],)
        if block_size is not None:
            groups = math.ceil(kernel_shape[reduced] / block_size)
            scale_shape = (groups, cols) if reduced == 0 else (rows, groups)
        scale = self.add_weight(
            shape=scale_shape, initializer="ones", trainable=False, autocast=False, name=self._quant_scale_name
        )
        setattr(self, self._quant_scale_name, scale)
        if block_size is not None:
            zero = self.add_weight(
                shape=scale_shape, initializer="zeros", dtype="int8", trainable=False, name=self._quant_zero_name
            )
            setattr(self, self._quant_zero_name, zero)
            length = kernel_shape[reduced]
            groups_of = np.arange(length, dtype="float32") // block_size
            self.g_idx = self.add_weight(
                shape=(length,),
                initializer=lambda shape, dtype=None: groups_of,
                dtype="float32",
                trainable=False,
                autocast=False,
                name="g_idx",
            )
        self._quant_orig_cols = cols
        self._is_quantized = True

    # ---------------------------------------------------------------- float8 training
    def _float8_build(self):
        """The scales (ones) and histories of absolute maxima (zeros), trainable in the sense that each training
        step overwrites them with the values their custom gradient computes."""
        from highlevel.dtype_policies import QuantizedFloat8DTypePolicy

        length = getattr(
            self._path_policy(), "amax_history_length", QuantizedFloat8DTypePolicy.default_amax_history_length
        )
        for name in FLOAT8_VARIABLES:
            history = name.endswith("history")
            variable = self.add_weight(
                shape=(length,) if history else (),
                initializer="zeros" if history else "ones",
                dtype="float32",
                trainable=True,
                autocast=False,
                overwrite_with_gradient=True,
                name=name,
            )
            setattr(self, name, variable)
        self._is_quantized = True

    def _float8_round_trip(self, x, scale, history, training):
        """``x`` through float8 (e4m3) and back; with ``training``, the gradients of ``scale`` and ``history``
        are their next values (delayed scaling), the gradient of ``x`` passes straight through."""
        from highlevel import quantizers
        from highlevel.quantizers.float8 import dtype_max

        compute = self.compute_dtype

        @ops.custom_gradient
        def round_trip(x, scale, history):
            new_scale = new_history = None
            if training:
                new_scale = quantizers.compute_float8_scale(ops.max(history, axis=0), scale, dtype_max("float8_e4m3fn"))
                new_history = quantizers.compute_float8_amax_history(x, history)

            def grad_fn(*args, upstream=None):
                if upstream is None:
                    (upstream,) = args
                return upstream, new_scale, new_history

            return quantizers.quantize_and_dequantize(x, scale, "float8_e4m3fn", compute), grad_fn

        return round_trip(x, scale, history)

    def _float8_output_gradient(self, y):
        """``y`` unchanged; its gradient goes through float8 (e5m2) with the output-gradient scale."""
        from highlevel import quantizers
        from highlevel.quantizers.float8 import dtype_max

        compute = self.compute_dtype

        @ops.custom_gradient
        def passthrough(y, scale, history):
            def grad_fn(*args, upstream=None):
                if upstream is None:
                    (upstream,) = args
                new_scale = quantizers.compute_float8_scale(ops.max(history, axis=0), scale, dtype_max("float8_e5m2"))
                rounded = quantizers.quantize_and_dequantize(upstream, scale, "float8_e5m2", compute)
                return rounded, new_scale, quantizers.compute_float8_amax_history(upstream, history)

            return y, grad_fn

        return passthrough(y, self.outputs_grad_scale.value, self.outputs_grad_amax_history.value)

    def _float8_operands(self, inputs, training):
        """The inputs and the kernel, each through float8 with its own scale."""
        if self.lora_enabled:
            raise NotImplementedError(
                f"Layer '{self.name}': float8 training does not combine with LoRA (as in Keras). Use LoRA on an "
                "int8 or int4 layer, or train the float8 layer without it."
            )
        x = self._float8_round_trip(inputs, self.inputs_scale.value, self.inputs_amax_history.value, training)
        kernel = getattr(self, self._quant_target)
        w = self._float8_round_trip(kernel.value, self.kernel_scale.value, self.kernel_amax_history.value, training)
        return x, w

    def _float8_bias(self):
        """The bias as Keras adds it in float8 mode: rounded through bfloat16 when computing in float32."""
        if self.bias is None:
            return None
        bias = self.bias.value
        if self.compute_dtype == "float32":
            bias = ops.cast(ops.cast(bias, "bfloat16"), "float32")
        return bias

    # ---------------------------------------------------------------- the weight, dequantized
    def _unpacked(self):
        """The int4 weight, one value per element, ``(rows, cols)``."""
        from highlevel import quantizers

        return quantizers.unpack_int4(getattr(self, self._quant_target), self._quant_orig_cols, axis=-1)

    def _dequantized_weight(self, dtype="float32"):
        """The float weight the quantized variables stand for (what LoRA merging and gradients use)."""
        scale = getattr(self, self._quant_scale_name)
        if self.quantization_mode == "int8":
            return ops.divide(ops.cast(getattr(self, self._quant_target), dtype), self._broadcast_scale(scale))
        values = self._unpacked()
        if self._int4_block_size is None:
            return ops.divide(ops.cast(values, dtype), self._broadcast_scale(scale))
        reduced = 1 - self._quant_channel_axis
        groups = ops.cast(self.g_idx, "int32")
        scales = ops.take(scale, groups, axis=reduced)
        zeros = ops.cast(ops.take(getattr(self, self._quant_zero_name), groups, axis=reduced), dtype)
        return ops.cast(ops.multiply(ops.subtract(ops.cast(values, dtype), zeros), scales), dtype)

    def _broadcast_scale(self, scale):
        """A per-channel scale shaped to divide the ``(rows, cols)`` weight."""
        return scale if self._quant_channel_axis == 1 else ops.expand_dims(scale, -1)

    # ---------------------------------------------------------------- saving
    def _uses_own_state_hooks(self):
        return bool(getattr(self, "_is_quantized", False)) or super()._uses_own_state_hooks()

    def save_own_variables(self, store):
        """Writes the quantized variables in Keras's order (``kernel``, ``bias``, ``kernel_scale``, ...); with
        LoRA on, the weight is first merged with the factors' update and quantized again."""
        if not getattr(self, "_is_quantized", False):
            return super().save_own_variables(store)
        values = {name: ops.convert_to_numpy(getattr(self, name)) for name in self._quant_saved_names()}
        if self.lora_enabled:
            merged = ops.add(self._dequantized_weight(), self._lora_delta())
            values.update(
                self._quantized_values(ops.convert_to_numpy(merged), self.quantization_mode, self._int4_block_size)
            )
        for i, name in enumerate(self._quant_saved_names()):
            store[str(i)] = values[name]

    def load_own_variables(self, store):
        """Reads what :meth:`save_own_variables` writes; with LoRA on, the factors restart from zero."""
        if not getattr(self, "_is_quantized", False):
            return super().load_own_variables(store)
        names = self._quant_saved_names()
        if len(store) != len(names):
            raise ValueError(
                f"Layer '{self.name}' (quantized, {self.quantization_mode}) expects {len(names)} saved variables "
                f"({names}) but the saved state holds {len(store)} ({sorted(store)}). Build the same layer with "
                "the same dtype policy."
            )
        for i, name in enumerate(names):
            variable, value = getattr(self, name), store[str(i)]
            if tuple(value.shape) != tuple(variable.shape):
                raise ValueError(
                    f"Layer '{self.name}': variable '{variable.path}' has shape {tuple(variable.shape)} but the "
                    f"saved value has shape {tuple(value.shape)}."
                )
            variable.assign(value)
        if self.lora_enabled:
            for factor in self._lora_factors():
                factor.assign(ops.zeros(tuple(factor.shape), dtype=factor.dtype))

    def _quantization_config_entry(self):
        config = self.quantization_config
        if config is None:
            return {"quantization_config": None}
        from highlevel import quantizers

        return {"quantization_config": quantizers.serialize(config)}


LIBRARY_STATE_HOOKS.update({QuantizationMixin.save_own_variables, QuantizationMixin.load_own_variables})
