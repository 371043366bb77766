"""ReversibleEmbedding: an Embedding that also maps vectors back to logits over its vocabulary."""

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
        quantization_config: accepted as in Keras; this layer cannot be quantized yet (its reverse product
            would need the quantized table), so it must be None.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Raises:
        ValueError: if ``reverse_dtype`` is not a float dtype, or ``logit_soft_cap`` is not a positive number.

    >>> import highlevel as hl
    >>> layer = hl.layers.ReversibleEmbedding(5, 2, embeddings_initializer="ones")
    >>> vectors = layer(hl.ops.convert_to_tensor([[1, 4]]))
    >>> hl.ops.convert_to_numpy(layer(vectors, reverse=True)).shape
    (1, 2, 5)
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
        if quantization_config is not None:
            raise NotImplementedError(
                "ReversibleEmbedding cannot be quantized yet; received quantization_config="
                f"{quantization_config!r}. Leave it None (quantize the model's other layers)."
            )
        super().__init__(
            input_dim,
            output_dim,
            embeddings_initializer=embeddings_initializer,
            embeddings_regularizer=embeddings_regularizer,
            embeddings_constraint=embeddings_constraint,
            mask_zero=mask_zero,
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

    _quant_modes = ()

    def build(self, input_shape=None):
        if self.built:
            return
        super().build(input_shape)
        if not self.tie_weights:
            self.reverse_embeddings = self.add_weight(
                shape=(self.output_dim, self.input_dim),
                initializer=self.embeddings_initializer,
                name="reverse_embeddings",
            )
        self.built = True

    def call(self, inputs, reverse=False):
        if not reverse:
            return super().call(inputs)
        if inputs.shape[-1] != self.output_dim:
            raise ValueError(
                f"Layer '{self.name}' (ReversibleEmbedding) in reverse mode takes vectors of size output_dim="
                f"{self.output_dim}; received an input of shape {tuple(inputs.shape)}."
            )
        table = self._lora_weight() if self.lora_enabled else self.embeddings.value  # merged with LoRA on
        kernel = ops.transpose(table) if self.tie_weights else self.reverse_embeddings.value
        dtype = self.reverse_dtype or self.compute_dtype
        logits = ops.matmul(ops.cast(inputs, dtype), ops.cast(kernel, dtype))
        if self.logit_soft_cap is not None:
            cap = float(self.logit_soft_cap)
            logits = ops.multiply(ops.tanh(ops.divide(logits, cap)), cap)
        return logits

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
