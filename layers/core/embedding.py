"""A lookup table from integer indices to dense vectors."""

from highlevel import constraints, initializers, ops, regularizers
from highlevel.backends.contract import dtypes as _dtypes
from highlevel.index_range import check_index_range
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from .lora import LoRAMixin
from .quantization import QuantizationMixin


def _check_positive_int(name, value):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(
            f"Received an invalid value for `{name}`, expected a positive integer. "
            f"Received: {name}={value!r} (of type {type(value).__name__})."
        )


class Embedding(QuantizationMixin, LoRAMixin, Layer):
    """Turns non-negative integer indices into dense vectors of fixed size (``keras.layers.Embedding``).

    ``outputs[..., :] = embeddings[inputs[...], :]``.

    Args:
        input_dim: positive int, the vocabulary size (largest index + 1).
        output_dim: positive int, the size of each vector.
        embeddings_initializer: initializer of the ``(input_dim, output_dim)`` table (default ``"uniform"``:
            uniform in ``[-0.05, 0.05)``, as Keras).
        embeddings_regularizer: regularizer of the table.
        embeddings_constraint: constraint of the table.
        mask_zero: whether index 0 is padding: then ``compute_mask`` returns ``inputs != 0`` and index 0 should
            not be used as a word (make ``input_dim`` one larger).
        weights: optional initial table, a ``(input_dim, output_dim)`` array (or a one-element list of it).
        lora_rank: a positive int to enable LoRA when the layer is built (see ``enable_lora``): the table is
            frozen and two trainable low-rank factors adjust it; None (default) leaves LoRA off.
        lora_alpha: the LoRA update is scaled by ``lora_alpha / lora_rank``; None means ``lora_rank``.
        quantization_config: a :class:`highlevel.quantizers.QuantizationConfig` used when the layer is built
            under a quantized dtype policy or quantized; None: the mode's default.
        **kwargs: base layer arguments (``name``, ``dtype``, ``activity_regularizer``...).

    Input shape: integer tensor of any shape ``(batch_size, ...)``. Float inputs are cast to int32 (as
    Keras); boolean or non-numeric inputs are rejected.

    Output shape: ``(batch_size, ..., output_dim)``.

    >>> import highlevel as hl
    >>> layer = hl.layers.Embedding(10, 3, mask_zero=True)
    >>> ids = hl.ops.convert_to_tensor([[1, 2, 0]])
    >>> hl.ops.shape(layer(ids)), hl.ops.convert_to_numpy(layer.compute_mask(ids)).tolist()
    ((1, 3, 3), [[True, True, False]])
    """

    _lora_target = "embeddings"
    _lora_factor_names = ("lora_embeddings_a", "lora_embeddings_b")
    _lora_regularizer_attr = "embeddings_regularizer"
    _lora_constraint_attr = "embeddings_constraint"
    _quant_target = "embeddings"
    _quant_channel_axis = 0

    def __init__(
        self,
        input_dim,
        output_dim,
        embeddings_initializer="uniform",
        embeddings_regularizer=None,
        embeddings_constraint=None,
        mask_zero=False,
        weights=None,
        lora_rank=None,
        lora_alpha=None,
        quantization_config=None,
        **kwargs,
    ):
        _check_positive_int("input_dim", input_dim)
        _check_positive_int("output_dim", output_dim)
        kwargs.pop("input_length", None)  # Keras 2's argument, ignored (and dropped) as Keras 3 does
        super().__init__(**kwargs)
        self._init_lora(lora_rank, lora_alpha)
        self._init_quantization(quantization_config)
        self.input_dim = input_dim
        self.output_dim = output_dim
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = bool(mask_zero)
        self.supports_masking = self.mask_zero
        # Indices must not be cast to the float compute dtype.
        self.autocast = False
        if weights is not None:
            self.build()
            if not (isinstance(weights, list) and len(weights) == 1):
                weights = [weights]
            self.set_weights(weights)

    def build(self, input_shape=None):
        if self.built:
            return
        if self.quantization_mode:
            self.quantized_build((self.input_dim, self.output_dim), self.quantization_mode, self.quantization_config)
        else:
            self.embeddings = self.add_weight(
                shape=(self.input_dim, self.output_dim),
                initializer=self.embeddings_initializer,
                regularizer=self.embeddings_regularizer,
                constraint=self.embeddings_constraint,
                name="embeddings",
            )
        self.built = True
        self._build_lora()

    def _check_range(self, indices):
        """Indices must lie in ``[0, input_dim)``: a negative one would wrap around silently. Checked where they
        are known (eager) and, with ``hl.config.enable_index_checks()``, inside compiled steps."""
        template = (
            f"Layer '{self.name}' (Embedding) has input_dim={self.input_dim}, so its indices must be in "
            f"[0, {self.input_dim}); received indices from {{lo}} to {{hi}}. Map the data into that range, or "
            "raise input_dim."
        )
        return check_index_range(indices, 0, self.input_dim, template)

    def _indices(self, inputs):
        dtype = _dtypes.standardize_dtype(ops.dtype(inputs))
        if dtype in ("int32", "int64"):
            return inputs
        if dtype == "bool" or not (_dtypes.is_int_dtype(dtype) or _dtypes.is_float_dtype(dtype)):
            raise TypeError(
                f"Layer '{self.name}' (Embedding) expects integer indices, but received an input of dtype "
                f"{dtype}. Cast it to an integer dtype, e.g. hl.ops.cast(x, 'int32')."
            )
        return ops.cast(inputs, "int32")

    def call(self, inputs):
        indices = self._indices(inputs)
        indices = self._check_range(indices)
        outputs = ops.take(self.embeddings, indices, axis=0)
        if self.lora_enabled:
            # Only the looked-up rows of the update: take rows of the first factor, then multiply.
            factor_a, factor_b = self._lora_factors()
            update = ops.matmul(ops.take(factor_a, indices, axis=0), factor_b)
            outputs = ops.add(ops.cast(outputs, "float32"), ops.multiply(update, self.lora_alpha / self.lora_rank))
        return ops.cast(outputs, self.compute_dtype)

    def _quantized_lookup(self, inputs, rows):
        """The looked-up rows of the quantized table, dequantized, plus LoRA's update."""
        indices = self._check_range(self._indices(inputs))
        values = ops.take(rows, indices, axis=0)
        scale = ops.take(self.embeddings_scale, indices, axis=0)
        compute = self.compute_dtype
        if self.quantization_mode == "int4" and self._int4_block_size is not None:
            groups = ops.cast(self.g_idx, "int32")
            scales = ops.take(scale, groups, axis=-1)
            zeros = ops.take(ops.take(self.embeddings_zero, indices, axis=0), groups, axis=-1)
            outputs = ops.multiply(ops.subtract(ops.cast(values, compute), ops.cast(zeros, compute)), scales)
        else:
            outputs = ops.divide(ops.cast(values, compute), ops.cast(ops.expand_dims(scale, -1), compute))
        if self.lora_enabled:
            factor_a, factor_b = self._lora_factors()
            update = ops.matmul(ops.take(factor_a, indices, axis=0), factor_b)
            outputs = ops.add(ops.cast(outputs, "float32"), ops.multiply(update, self.lora_alpha / self.lora_rank))
        return ops.cast(outputs, compute)

    def quantized_build(self, embeddings_shape, mode, config=None):
        """Creates the quantized table and its scales (zeros and ones until assigned).

        Args:
            embeddings_shape: ``(input_dim, output_dim)``, the float table's shape.
            mode: ``"int8"`` or ``"int4"``.
            config: the quantization config, or None (then the policy's settings apply).

        Returns:
            None.

        Raises:
            NotImplementedError: the layer does not implement ``mode``.

        >>> import highlevel as hl
        >>> layer = hl.layers.Embedding(10, 5, dtype="int4/-1_from_float32")
        >>> layer.build()
        >>> [tuple(w.shape) for w in (layer.embeddings, layer.embeddings_scale)]
        [(10, 3), (10,)]
        """
        return super().quantized_build(embeddings_shape, mode, config)

    def _int8_call(self, inputs):
        return self._quantized_lookup(inputs, self.embeddings)

    def _int4_call(self, inputs):
        return self._quantized_lookup(inputs, self._unpacked())

    def compute_mask(self, inputs, mask=None):
        if not self.mask_zero:
            return None
        return ops.not_equal(inputs, 0)

    def compute_output_shape(self, input_shape):
        return (*tuple(input_shape), self.output_dim)

    def compute_output_spec(self, inputs):
        self._indices(inputs)  # the same dtype check as an eager call
        return KerasTensor(self.compute_output_shape(inputs.shape), self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "input_dim": self.input_dim,
                "output_dim": self.output_dim,
                "embeddings_initializer": initializers.serialize(self.embeddings_initializer),
                "embeddings_regularizer": regularizers.serialize(self.embeddings_regularizer),
                "embeddings_constraint": constraints.serialize(self.embeddings_constraint),
                "mask_zero": self.mask_zero,
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


Embedding._quantizable_base = Embedding
