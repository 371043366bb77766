"""ReversibleEmbedding: an Embedding that also maps vectors back to logits over its vocabulary."""

import math

import numpy as np

from highlevel import ops
from highlevel.backends.contract import dtypes as _dtypes
from highlevel.keras_tensor import KerasTensor

from .embedding import Embedding


class ReversibleEmbedding(Embedding):
    """An embedding usable in reverse, as a language model's output projection
    (``keras.layers.ReversibleEmbedding``).

    ``layer(ids)`` looks up vectors as :class:`Embedding` does; ``layer(vectors, reverse=True)`` returns
    ``vectors @ embeddings.T`` (with ``tie_weights``, the default) or ``vectors @ reverse_embeddings`` (a
    separate ``(output_dim, input_dim)`` weight otherwise): logits over the ``input_dim`` tokens.

    Args:
        input_dim: the vocabulary size.
        output_dim: the size of the vectors.
        tie_weights: reverse with the transposed embeddings (True) or a separate trainable matrix.
        embeddings_initializer: initializer of the table (default ``"uniform"``); the separate reverse matrix
            uses it too.
        embeddings_regularizer: optional regularizer of the table.
        embeddings_constraint: optional constraint applied to the table after each update.
        mask_zero: whether index 0 is padding (then ``compute_mask`` returns ``inputs != 0``), as in Embedding.
        reverse_dtype: the dtype the reverse product is computed in (e.g. "float32" under mixed precision);
            None: the compute dtype.
        logit_soft_cap: if set, reverse logits become ``cap · tanh(logits / cap)``.
        quantization_config: a :class:`highlevel.quantizers.QuantizationConfig` used when the layer is built
            under a quantized dtype policy or quantized; None: the mode's default.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Raises:
        ValueError: if ``reverse_dtype`` is not a float dtype, or ``logit_soft_cap`` is not a positive number.

    >>> import highlevel as hl
    >>> layer = hl.layers.ReversibleEmbedding(5, 2, embeddings_initializer="ones")
    >>> vectors = layer(hl.ops.convert_to_tensor([[1, 4]]))
    >>> hl.ops.convert_to_numpy(layer(vectors, reverse=True)).shape
    (1, 2, 5)

    Quantized (``layer.quantize("int8")`` or ``"int4"``), both directions use the integer table: the lookup
    dequantizes the rows it takes, and the reverse product quantizes its input vectors per row (int8, as Keras
    does) and rescales the integer logits. With ``tie_weights=False`` the separate matrix is quantized too, one
    scale per vocabulary entry (int4: packed two values to a byte along its first axis, grouped along it when
    the int4 config has a ``block_size``).
    """

    def __init__(
        self,
        input_dim,
        output_dim,
        tie_weights=True,
        embeddings_initializer="uniform",
        embeddings_regularizer=None,
        embeddings_constraint=None,
        mask_zero=False,
        reverse_dtype=None,
        logit_soft_cap=None,
        quantization_config=None,
        **kwargs,
    ):
        super().__init__(
            input_dim,
            output_dim,
            embeddings_initializer=embeddings_initializer,
            embeddings_regularizer=embeddings_regularizer,
            embeddings_constraint=embeddings_constraint,
            mask_zero=mask_zero,
            quantization_config=quantization_config,
            **kwargs,
        )
        if reverse_dtype is not None:
            reverse_dtype = _dtypes.standardize_dtype(reverse_dtype)
            if not _dtypes.is_float_dtype(reverse_dtype):
                raise ValueError(f"`reverse_dtype` must be a float dtype or None; received {reverse_dtype!r}.")
        if logit_soft_cap is not None and (
            isinstance(logit_soft_cap, bool) or not isinstance(logit_soft_cap, (int, float)) or logit_soft_cap <= 0
        ):
            raise ValueError(f"`logit_soft_cap` must be a positive number or None; received {logit_soft_cap!r}.")
        self.tie_weights = bool(tie_weights)
        self.reverse_dtype = reverse_dtype
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape=None):
        if self.built:
            return
        super().build(input_shape)
        if not self.tie_weights and self.quantization_mode not in ("int8", "int4"):
            self.reverse_embeddings = self.add_weight(
                shape=(self.output_dim, self.input_dim),
                initializer=self.embeddings_initializer,
                name="reverse_embeddings",
            )
        self.built = True

    def _check_vectors(self, inputs):
        if inputs.shape[-1] != self.output_dim:
            raise ValueError(
                f"Layer '{self.name}' (ReversibleEmbedding) in reverse mode takes vectors of size output_dim="
                f"{self.output_dim}; received an input of shape {tuple(inputs.shape)}."
            )

    def _soft_cap(self, logits):
        if self.logit_soft_cap is None:
            return logits
        cap = float(self.logit_soft_cap)
        return ops.multiply(ops.tanh(ops.divide(logits, cap)), cap)

    def call(self, inputs, reverse=False):
        if not reverse:
            return super().call(inputs)
        self._check_vectors(inputs)
        table = self._lora_weight() if self.lora_enabled else self.embeddings.value  # merged with LoRA on
        kernel = ops.transpose(table) if self.tie_weights else self.reverse_embeddings.value
        dtype = self.reverse_dtype or self.compute_dtype
        return self._soft_cap(ops.matmul(ops.cast(inputs, dtype), ops.cast(kernel, dtype)))

    # ---------------------------------------------------------------- quantization
    _reverse_names = ("reverse_embeddings", "reverse_embeddings_scale", "reverse_embeddings_zero")

    def quantize(self, mode=None, type_check=True, config=None):
        """Quantizes the table (and the separate reverse matrix, without ``tie_weights``) to int8 or int4.

        Args:
            mode: ``"int8"`` or ``"int4"``; optional when ``config`` names it.
            type_check: refuse a subclass of the layer, as Keras does.
            config: a :class:`highlevel.quantizers.QuantizationConfig`, or None for the mode's default.

        Returns:
            None.

        Raises:
            ValueError: the layer is not built or is quantized already, or the mode or config is invalid.
            NotImplementedError: ``mode`` is not int8 or int4, or the layer is a subclass (with ``type_check``).

        >>> import highlevel as hl
        >>> layer = hl.layers.ReversibleEmbedding(6, 4, tie_weights=False)
        >>> layer.build()
        >>> layer.quantize("int4", config=hl.quantizers.Int4QuantizationConfig(block_size=None))
        >>> [tuple(w.shape) for w in (layer.reverse_embeddings, layer.reverse_embeddings_scale)]
        [(2, 6), (6,)]
        """
        from highlevel.backends.contract.interop import front_class
        from highlevel.quantization import resolve

        mode, config = resolve(self, mode, config)
        if type_check and front_class(type(self)) is not self._quantizable_class():
            raise self._not_implemented_error("quantize")
        if mode not in self._quant_modes:
            raise NotImplementedError(
                f"Layer ReversibleEmbedding cannot be quantized to mode {mode!r}; it implements {self._quant_modes}."
            )
        reverse_values = None
        if not self.tie_weights:
            from .quantization import _block_size

            self.quantization_config = config
            matrix = self.reverse_embeddings
            reverse_values = self._quantized_reverse(ops.convert_to_numpy(matrix), mode, _block_size(self, config))
            self._own_weights = [v for v in self._own_weights if v is not matrix]
            self.reverse_embeddings = None
        super().quantize(mode, type_check=False, config=config)
        for name, value in (reverse_values or {}).items():
            getattr(self, name).assign(value)

    def _quantized_reverse(self, matrix, mode, block_size):
        """``{variable name: numpy array}``: the quantized reverse matrix ``(output_dim, input_dim)``, one scale
        per column (reduced over its first axis), int4 packed along that axis."""
        from highlevel import quantizers

        config = self.quantization_config
        if mode == "int4" and block_size is not None:
            q, scale, zero = (
                ops.convert_to_numpy(t)
                for t in quantizers.abs_max_quantize_grouped_with_zero_point(
                    matrix, block_size=block_size, value_range=(-8, 7), dtype="int8", to_numpy=True
                )
            )
            packed = ops.convert_to_numpy(quantizers.pack_int4(q, axis=0)[0])
            return {"reverse_embeddings": packed, "reverse_embeddings_scale": scale, "reverse_embeddings_zero": zero}
        if mode == "int8":
            default = quantizers.AbsMaxQuantizer(axis=0)
        else:
            default = quantizers.AbsMaxQuantizer(axis=0, value_range=(-8, 7), output_dtype="int8")
        quantizer = quantizers.QuantizationConfig.weight_quantizer_or_default(config, default)
        q, scale = quantizer(matrix, to_numpy=True)
        q = ops.convert_to_numpy(q)
        if mode == "int4":
            q = ops.convert_to_numpy(quantizers.pack_int4(q, axis=0)[0])
        return {"reverse_embeddings": q, "reverse_embeddings_scale": np.squeeze(ops.convert_to_numpy(scale), 0)}

    def quantized_build(self, embeddings_shape, mode, config=None):
        """Creates the quantized table, its scales and, without ``tie_weights``, the quantized reverse matrix.

        Args:
            embeddings_shape: ``(input_dim, output_dim)``, the float table's shape.
            mode: ``"int8"`` or ``"int4"``.
            config: the quantization config, or None (then the policy's settings apply; the reverse product
                quantizes its inputs per row unless the config says otherwise).

        Returns:
            None.

        Raises:
            NotImplementedError: the layer does not implement ``mode``.

        >>> import highlevel as hl
        >>> layer = hl.layers.ReversibleEmbedding(10, 5, tie_weights=False, dtype="int4/2_from_float32")
        >>> layer.build()
        >>> [tuple(w.shape) for w in (layer.reverse_embeddings, layer.reverse_embeddings_scale)]
        [(3, 10), (3, 10)]
        """
        from highlevel import quantizers

        from .quantization import _block_size

        super().quantized_build(embeddings_shape, mode, config)
        self.inputs_quantizer = quantizers.QuantizationConfig.activation_quantizer_or_default(
            config, quantizers.AbsMaxQuantizer(axis=-1)
        )
        if self.tie_weights:
            return
        rows = self.output_dim if mode == "int8" else (self.output_dim + 1) // 2
        self.reverse_embeddings = self.add_weight(
            shape=(rows, self.input_dim), initializer="zeros", dtype="int8", trainable=False, name="reverse_embeddings"
        )
        block_size = _block_size(self, config) if mode == "int4" else None
        scale_shape = (self.input_dim,)
        if block_size is not None:
            scale_shape = (math.ceil(self.output_dim / block_size), self.input_dim)
        self.reverse_embeddings_scale = self.add_weight(
            shape=scale_shape, initializer="ones", trainable=False, autocast=False, name="reverse_embeddings_scale"
        )
        if block_size is not None:
            # float, as Keras stores this zero point
            self.reverse_embeddings_zero = self.add_weight(
                shape=scale_shape, initializer="zeros", trainable=False, autocast=False, name="reverse_embeddings_zero"
            )

    def _quant_saved_names(self):
        names = super()._quant_saved_names()
        return names + [n for n in self._reverse_names if getattr(self, n, None) is not None]

    def _int8_call(self, inputs, reverse=False):
        if not reverse:
            return super()._int8_call(inputs)
        return self._quantized_reverse_call(inputs)

    def _int4_call(self, inputs, reverse=False):
        if not reverse:
            return super()._int4_call(inputs)
        return self._quantized_reverse_call(inputs)

    def _quantized_reverse_call(self, inputs):
        """Logits from the quantized table: an integer product rescaled per column, or (int4 in groups, whose
        zero points do not factor out) the product with the dequantized matrix."""
        from highlevel import quantizers

        from .quantization import integer_matmul

        self._check_vectors(inputs)
        compute = self.compute_dtype
        grouped = self.quantization_mode == "int4" and self._int4_block_size is not None
        kernel = scale = float_kernel = None
        if self.tie_weights:
            if grouped:
                float_kernel = ops.transpose(self._dequantized_weight(compute))
            else:
                table = self.embeddings if self.quantization_mode == "int8" else self._unpacked()
                kernel, scale = ops.transpose(table), self.embeddings_scale
        else:
            kernel, scale = self.reverse_embeddings, self.reverse_embeddings_scale
            if self.quantization_mode == "int4":
                kernel = quantizers.unpack_int4(kernel, self.output_dim, axis=0)
            if grouped:
                groups = ops.cast(self.g_idx, "int32")
                zeros = ops.take(self.reverse_embeddings_zero, groups, axis=0)
                scales = ops.take(scale, groups, axis=0)
                float_kernel = ops.cast(ops.multiply(ops.subtract(ops.cast(kernel, "float32"), zeros), scales), compute)
        x, x_scale = inputs, None
        if self.inputs_quantizer:
            x, x_scale = self.inputs_quantizer(inputs)
        if float_kernel is not None:
            logits = ops.matmul(ops.cast(x, compute), float_kernel)
        else:
            if x_scale is not None:
                logits = ops.cast(integer_matmul(x, kernel), compute)
            else:
                logits = ops.matmul(ops.cast(x, compute), ops.cast(kernel, compute))
            logits = ops.divide(logits, ops.cast(scale, compute))
        if x_scale is not None:
            logits = ops.divide(logits, ops.cast(x_scale, compute))
        if self.lora_enabled and self.tie_weights:
            update = ops.matmul(ops.cast(inputs, "float32"), ops.transpose(self._lora_delta()))
            logits = ops.cast(ops.add(ops.cast(logits, "float32"), update), compute)
        return self._soft_cap(logits)

    def compute_mask(self, inputs, mask=None):
        # Token ids carry the padding mask forward; vectors being reversed carry none.
        if self.mask_zero and not _dtypes.is_float_dtype(_dtypes.standardize_dtype(inputs.dtype)):
            return ops.not_equal(inputs, 0)
        return None

    def compute_output_shape(self, input_shape, reverse=False):
        if reverse:
            return (*tuple(input_shape)[:-1], self.input_dim)
        return super().compute_output_shape(input_shape)

    def compute_output_spec(self, inputs, reverse=False, **kwargs):
        if reverse:
            return KerasTensor(
                self.compute_output_shape(inputs.shape, reverse=True), self.reverse_dtype or self.compute_dtype
            )
        return super().compute_output_spec(inputs)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "tie_weights": self.tie_weights,
                "reverse_dtype": self.reverse_dtype,
                "logit_soft_cap": self.logit_soft_cap,
            }
        )
        return config


ReversibleEmbedding._quantizable_base = ReversibleEmbedding
