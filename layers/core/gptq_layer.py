"""The GPTQ form of a Dense layer: the variables Keras 3 stores and the forward pass over them.

``layer.quantize("gptq", config=GPTQConfig(...))`` only prepares the layer: it gets the policy
``"gptq/<bits>/<group_size>_from_<float policy>"`` and zero-filled GPTQ variables, and keeps computing with its
float kernel while :func:`highlevel.quantizers.gptq_calibration.gptq_quantize` runs the calibration data through
it (collecting the Hessian of its inputs) and then writes the quantized values. From then on (and in a layer
built or loaded under a GPTQ policy) the kernel is::

    quantized_kernel   uint8 (out, in), or (ceil(out / 2), in) with two 4-bit levels per byte
    kernel_scale       float32 (out, groups)
    kernel_zero        uint8 (out, groups)
    g_idx              float32 (in,): the group of input i is int(g_idx[i])

and the layer computes ``x @ ((q - zero[g]) * scale[g])ᵀ + bias``. AWQ (``quantize("awq")``) stores the same
plus ``awq_scales`` (in,), always with 4 bits, and divides the dequantized kernel by them. Once calibrated, the
layer's ``kernel`` is None (Keras's ``kernel`` property gives the levels instead);
``_gptq_dequantized_kernel()`` gives the float kernel the variables stand for.

>>> import highlevel as hl
>>> layer = hl.layers.Dense(3, dtype="gptq/4/-1_from_float32")
>>> layer.build((None, 4))
>>> [(w.name, w.dtype, tuple(w.shape)) for w in layer.weights][:2]
[('kernel', 'uint8', (2, 4)), ('kernel_scale', 'float32', (3, 1))]
"""

import math

import numpy as np

from highlevel import ops


def _gptq_setting(layer, config, name):
    """``weight_bits`` or ``group_size``: the config's while quantizing, else the layer's GPTQ policy's."""
    from highlevel import quantizers

    if isinstance(config, (quantizers.GPTQConfig, quantizers.AWQConfig)):
        return getattr(config, name)
    value = getattr(layer.dtype_policy, name, None)
    if value is None:
        raise ValueError(
            f"Layer '{layer.name}': GPTQ needs `{name}` from a GPTQConfig or a GPTQ dtype policy such as "
            f"'gptq/4/128_from_float32'; received config={config!r} and dtype_policy={layer.dtype_policy.name!r}."
        )
    return int(value)


class GPTQMixin:
    """Adds the GPTQ mode to a layer with a ``kernel (in, out)``, a ``bias`` and ``_finish`` (Dense)."""

    #: the saved name of the zero points (Keras names them ``zero_point`` in EinsumDense)
    _gptq_zero_name = "kernel_zero"

    def _gptq_matrix_shape(self, kernel_shape):
        """``(rows, cols)``: the kernel as the matrix GPTQ quantizes, inputs by outputs."""
        return tuple(kernel_shape)

    def _gptq_forward(self, inputs, kernel):
        """The layer's output with ``kernel`` (float, in the kernel's own shape)."""
        return self._finish(ops.matmul(inputs, kernel), inputs)

    def enable_lora(self, *args, **kwargs):
        """LoRA, except on a GPTQ layer (as in Keras): see :meth:`LoRAMixin.enable_lora`.

        Args:
            *args: as for :meth:`LoRAMixin.enable_lora`.
            **kwargs: as for :meth:`LoRAMixin.enable_lora`.

        Raises:
            NotImplementedError: the layer is quantized with GPTQ.

        >>> import highlevel as hl
        >>> layer = hl.layers.Dense(2, dtype="gptq/8/-1_from_float32")
        >>> layer.build((None, 3))
        >>> layer.enable_lora(1)
        Traceback (most recent call last):
        ...
        NotImplementedError: Layer 'dense...': LoRA does not combine with GPTQ quantization (as in Keras)...
        """
        if self.quantization_mode in ("gptq", "awq"):
            raise NotImplementedError(
                f"Layer '{self.name}': LoRA does not combine with GPTQ quantization (as in Keras), nor with AWQ. "
                "Enable LoRA on the float layer (and merge it) before quantizing, or use int8/int4 under LoRA."
            )
        return super().enable_lora(*args, **kwargs)

    def _gptq_prepare(self, config):
        """Starts GPTQ or AWQ (``config``'s mode): the policy and variables; the float kernel serves until
        calibration ends."""
        from highlevel import dtype_policies

        kernel_shape = tuple(int(d) for d in self.kernel.shape)
        # the layer keeps the settings only: the data and the layer structure serve calibration, and a saved
        # config holds neither
        self.quantization_config = type(config).from_config(
            {**config.get_config(), "quantization_layer_structure": None}
        )
        self._gptq_build(kernel_shape, config, calibrated=False, mode=config.mode)
        if getattr(self.dtype_policy, "quantization_mode", None) is None:
            self.dtype_policy = dtype_policies.get(f"{config.dtype_policy_string()}_from_{self.dtype_policy.name}")

    def _gptq_build(self, kernel_shape, config, calibrated=True, mode="gptq"):
        rows, cols = self._gptq_matrix_shape(kernel_shape)
        self._gptq_kernel_shape = tuple(kernel_shape)
        bits = _gptq_setting(self, config, "weight_bits")
        group_size = _gptq_setting(self, config, "group_size")
        groups = 1 if group_size == -1 else math.ceil(rows / group_size)
        self._gptq_bits = bits
        self._gptq_collector = None
        self._ptq_mode = mode
        setattr(self, f"is_{mode}_calibrated", calibrated)
        self.quantized_kernel = self.add_weight(
            shape=((cols + 1) // 2 if bits == 4 else cols, rows),
            initializer="zeros",
            dtype="uint8",
            trainable=False,
            name="kernel",
        )
        self.kernel_scale = self.add_weight(
            shape=(cols, groups), initializer="ones", trainable=False, autocast=False, name="kernel_scale"
        )
        self.kernel_zero = self.add_weight(
            shape=(cols, groups), initializer="zeros", dtype="uint8", trainable=False, name=self._gptq_zero_name
        )
        if mode == "awq":
            self.awq_scales = self.add_weight(
                shape=(rows,), initializer="ones", trainable=False, autocast=False, name="awq_scales"
            )
        self.g_idx = self.add_weight(
            shape=(rows,), initializer="zeros", dtype="float32", trainable=False, autocast=False, name="g_idx"
        )
        self._quant_orig_cols = cols
        if hasattr(self, "gptq_unpacked_column_size"):
            # EinsumDense records the column count as Keras does (a config entry)
            self.gptq_unpacked_column_size = cols
        self._is_quantized = True
        if calibrated:
            # built or loaded under a GPTQ policy: there is no float kernel
            self.kernel = None

    def _gptq_levels(self):
        """The levels ``(out, in)``, unpacked when 4-bit."""
        from highlevel import quantizers

        if self._gptq_bits == 4:
            return quantizers.unpack_int4(self.quantized_kernel, self._quant_orig_cols, axis=0, dtype="uint8")
        return self.quantized_kernel

    def _gptq_dequantized_kernel(self, dtype="float32"):
        """The float kernel ``(in, out)`` the GPTQ variables stand for."""
        groups = ops.cast(self.g_idx, "int32")
        scales = ops.take(self.kernel_scale, groups, axis=1)
        zeros = ops.cast(ops.take(self.kernel_zero, groups, axis=1), "float32")
        w = ops.multiply(ops.subtract(ops.cast(self._gptq_levels(), "float32"), zeros), scales)
        if self._ptq_mode == "awq":
            # the levels are of W * awq_scales (per input): divide it back out
            w = ops.divide(w, self.awq_scales)
        return ops.cast(ops.reshape(ops.transpose(w), self._gptq_kernel_shape), dtype)

    @property
    def _ptq_calibrated(self):
        return bool(getattr(self, f"is_{self._ptq_mode}_calibrated"))

    def _gptq_call(self, inputs, training=None):
        if not self._ptq_calibrated:
            if self._gptq_collector is not None:
                self._gptq_collector(inputs)
            kernel = ops.cast(self.kernel, self.compute_dtype)
        else:
            kernel = self._gptq_dequantized_kernel(self.compute_dtype)
        return self._gptq_forward(inputs, kernel)

    def _awq_call(self, inputs, training=None):
        return self._gptq_call(inputs, training=training)

    def _gptq_assign(self, q, scale, zero, g_idx, awq_scales=None):
        """Ends calibration: stores the GPTQ or AWQ values (``q`` as levels ``(out, in)``) and drops the float
        kernel."""
        from highlevel import quantizers

        q = np.asarray(q, "uint8")
        if self._gptq_bits == 4:
            q = ops.convert_to_numpy(quantizers.pack_int4(q, axis=0, dtype="uint8")[0])
        self.quantized_kernel.assign(q)
        self.kernel_scale.assign(scale)
        self.kernel_zero.assign(zero)
        self.g_idx.assign(g_idx)
        if awq_scales is not None:
            self.awq_scales.assign(awq_scales)
        kernel = self.kernel
        self._own_weights = [v for v in self._own_weights if v is not kernel]
        self.kernel = None
        setattr(self, f"is_{self._ptq_mode}_calibrated", True)
        self._gptq_collector = None

    def _gptq_saved_names(self):
        """The variables a GPTQ or AWQ layer saves, in Keras's order."""
        names = ["bias"] if getattr(self, "bias", None) is not None else []
        awq = ["awq_scales"] if self._ptq_mode == "awq" else []
        return names + ["quantized_kernel", "kernel_scale", "kernel_zero"] + awq + ["g_idx"]


class EinsumGPTQMixin(GPTQMixin):
    """The GPTQ mode of EinsumDense: a 2-D kernel as it is; a 3-D one as Keras reads it, by where its largest
    axis (the model width) is: first, ``(in, heads, head_dim)`` quantizes as ``(in, heads * head_dim)``;
    otherwise ``(heads, head_dim, out)`` as ``(heads * head_dim, out)``."""

    _gptq_zero_name = "zero_point"

    def _gptq_matrix_shape(self, kernel_shape):
        shape = [int(d) for d in kernel_shape]
        if len(shape) == 2:
            return tuple(shape)
        if len(shape) == 3:
            if shape.index(max(shape)) == 0:
                return shape[0], shape[1] * shape[2]
            return shape[0] * shape[1], shape[2]
        raise ValueError(
            f"Layer '{self.name}': GPTQ quantizes EinsumDense kernels of rank 2 or 3 (as Keras does); this kernel "
            f"has shape {tuple(shape)}. Leave this layer out with `filters`."
        )

    def _gptq_forward(self, inputs, kernel):
        y = ops.einsum(self.equation, inputs, kernel)
        if self.bias is not None:
            y = ops.add(y, self.bias)
        return self.activation(y) if self.activation is not None else y
