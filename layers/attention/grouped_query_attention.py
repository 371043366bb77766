"""GroupQueryAttention: multi-head attention in which groups of query heads share one key/value head."""

import math
import numbers

from highlevel import constraints, initializers, ops, regularizers
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ..activations.softmax import Softmax
from ..core.einsum_dense import EinsumDense
from ..regularization.dropout import Dropout
from ._masks import as_bool_mask, causal_mask, sliding_window_mask


def _shape(x):
    return tuple(x.shape)


def _positive_int(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"`{name}` of GroupQueryAttention must be a positive integer; received {name}={value!r}.")
    return int(value)


class GroupQueryAttention(Layer):
    """Grouped-query attention (``keras.layers.GroupQueryAttention``; Ainslie et al., 2023).

    ``num_query_heads`` query heads attend through ``num_key_value_heads`` key/value heads, each shared by
    ``num_query_heads // num_key_value_heads`` consecutive query heads: one key/value head is multi-query
    attention, as many as query heads is multi-head attention. Inputs are ``(batch, length, features)``; the
    output has the query's shape. Masks (the inputs' own, ``attention_mask``, ``use_causal_mask``,
    ``sliding_window``) combine as in MultiHeadAttention.

    Args:
        head_dim: the size of each head.
        num_query_heads: the number of query heads.
        num_key_value_heads: the number of key/value heads; must divide ``num_query_heads``.
        dropout: dropout rate on the attention probabilities (training only).
        use_bias: the projections have biases.
        sliding_window: if set, position ``i`` attends only to positions ``j`` with ``|i - j| < sliding_window``.
        flash_attention: accepted for Keras compatibility; highlevel computes attention explicitly, and
            ``True`` only keeps Keras's restrictions (no dropout, no returned scores).
        kernel_initializer: initializer of the projections' kernels (default ``"glorot_uniform"``).
        bias_initializer: initializer of the projections' biases (default ``"zeros"``).
        kernel_regularizer: optional regularizer of the projections' kernels.
        bias_regularizer: optional regularizer of the projections' biases.
        activity_regularizer: optional regularizer of the layer's output.
        kernel_constraint: optional constraint applied to the projections' kernels after each update.
        bias_constraint: optional constraint applied to the projections' biases after each update.
        use_gate: multiply the attention output by a sigmoid gate computed from the query.
        seed: the dropout's seed.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Raises:
        ValueError: if a head count or ``head_dim`` is not a positive int, ``num_query_heads`` is not a multiple of
            ``num_key_value_heads``, ``dropout`` is outside ``[0, 1)``, or ``flash_attention=True`` is combined with
            dropout.

    >>> import highlevel as hl
    >>> layer = hl.layers.GroupQueryAttention(head_dim=4, num_query_heads=4, num_key_value_heads=2)
    >>> out, scores = layer(hl.ops.ones((1, 3, 8)), hl.ops.ones((1, 5, 8)), return_attention_scores=True)
    >>> hl.ops.shape(out), hl.ops.shape(scores)
    ((1, 3, 8), (1, 4, 3, 5))
    """

    def __init__(
        self,
        head_dim,
        num_query_heads,
        num_key_value_heads,
        dropout=0.0,
        use_bias=True,
        sliding_window=None,
        flash_attention=None,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        use_gate=False,
        seed=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.head_dim = _positive_int(head_dim, "head_dim")
        self.num_query_heads = _positive_int(num_query_heads, "num_query_heads")
        self.num_key_value_heads = _positive_int(num_key_value_heads, "num_key_value_heads")
        if self.num_query_heads % self.num_key_value_heads:
            raise ValueError(
                f"`num_query_heads` ({num_query_heads}) must be a multiple of `num_key_value_heads` "
                f"({num_key_value_heads}): each key/value head serves a whole group of query heads."
            )
        self.num_repeats = self.num_query_heads // self.num_key_value_heads
        if isinstance(dropout, bool) or not isinstance(dropout, (int, float)) or not 0 <= dropout < 1:
            raise ValueError(f"`dropout` must be a float in [0, 1); received dropout={dropout!r}.")
        self.dropout = float(dropout)
        if sliding_window is not None:
            _positive_int(sliding_window, "sliding_window")
        self.sliding_window = sliding_window
        self._flash_attention = bool(flash_attention)
        if self._flash_attention and self.dropout > 0:
            raise ValueError("Dropout is not supported with flash_attention=True; set dropout=0.0 or disable it.")
        self.use_bias = bool(use_bias)
        self.use_gate = bool(use_gate)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.seed = seed
        self._inverse_sqrt_head_dim = 1.0 / math.sqrt(float(self.head_dim))

    def _projection(self, equation, heads, bias_axes, name, activation=None):
        return EinsumDense(
            equation,
            output_shape=(None, heads, self.head_dim),
            bias_axes=bias_axes if self.use_bias else None,
            activation=activation,
            name=name,
            # A fresh initializer per projection, so that unseeded ones do not repeat the same draw.
            kernel_initializer=initializers.get(initializers.serialize(self.kernel_initializer)),
            bias_initializer=initializers.get(initializers.serialize(self.bias_initializer)),
            kernel_regularizer=self.kernel_regularizer,
            bias_regularizer=self.bias_regularizer,
            activity_regularizer=self.activity_regularizer,
            kernel_constraint=self.kernel_constraint,
            bias_constraint=self.bias_constraint,
            dtype=self.dtype_policy,
        )

    def build(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        self.compute_output_shape(query_shape, value_shape, key_shape)
        self.feature_dim = query_shape[-1]
        self._query_dense = self._projection("bqm,muh->bquh", self.num_query_heads, "uh", "query")
        self._query_dense.build(query_shape)
        self._key_dense = self._projection("bkm,mvh->bkvh", self.num_key_value_heads, "vh", "key")
        self._key_dense.build(key_shape)
        if self.use_gate:
            self._gate_dense = self._projection("bqm,muh->bquh", self.num_query_heads, "uh", "gate", "sigmoid")
            self._gate_dense.build(query_shape)
        self._value_dense = self._projection("bkm,mvh->bkvh", self.num_key_value_heads, "vh", "value")
        self._value_dense.build(value_shape)
        self._softmax = Softmax(axis=-1, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self.dropout, dtype=self.dtype_policy, seed=self.seed)
        self._output_dense = EinsumDense(
            "bquh,uhm->bqm",
            output_shape=(None, self.feature_dim),
            bias_axes="m" if self.use_bias else None,
            name="attention_output",
            kernel_initializer=initializers.get(initializers.serialize(self.kernel_initializer)),
            bias_initializer=initializers.get(initializers.serialize(self.bias_initializer)),
            kernel_regularizer=self.kernel_regularizer,
            bias_regularizer=self.bias_regularizer,
            activity_regularizer=self.activity_regularizer,
            kernel_constraint=self.kernel_constraint,
            bias_constraint=self.bias_constraint,
            dtype=self.dtype_policy,
        )
        self._output_dense.build((None, None, self.num_query_heads, self.head_dim))
        self.built = True

    def __call__(self, query, value=None, key=None, **kwargs):
        if value is None:
            raise ValueError(
                f"Layer '{self.name}' (GroupQueryAttention) needs a `value` tensor: call it as "
                "`layer(query, value)` (self-attention: `layer(x, x)`)."
            )
        if not self.built:
            self.build(_shape(query), _shape(value), None if key is None else _shape(key))
        # `key` always goes positionally, so that a functional model's input masks are [query, value, key].
        return super().__call__(query, value, key, **kwargs)

    def _attention_mask(self, query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask):
        auto = None

        def both(a, b):
            return b if a is None else ops.logical_and(a, b)

        if query_mask is not None:
            auto = ops.expand_dims(as_bool_mask(query_mask), -1)  # (B, T, 1)
        if value_mask is not None:
            auto = both(auto, ops.expand_dims(as_bool_mask(value_mask), -2))  # (B, 1, S)
        if key_mask is not None:
            auto = both(auto, ops.expand_dims(as_bool_mask(key_mask), -2))
        q_len, v_len = ops.shape(query)[1], ops.shape(value)[1]
        if use_causal_mask:
            auto = both(auto, causal_mask(q_len, v_len))
        if self.sliding_window is not None:
            auto = both(auto, sliding_window_mask(q_len, v_len, self.sliding_window))
        attention_mask = as_bool_mask(attention_mask)
        if auto is None:
            return attention_mask
        return auto if attention_mask is None else ops.logical_and(attention_mask, auto)

    def call(
        self,
        query,
        value,
        key=None,
        query_mask=None,
        value_mask=None,
        key_mask=None,
        attention_mask=None,
        return_attention_scores=False,
        training=None,
        use_causal_mask=False,
        mask=None,
    ):
        if self._flash_attention and return_attention_scores:
            raise ValueError("Attention scores cannot be returned with flash_attention=True; disable it to get them.")
        if isinstance(mask, (list, tuple)):
            masks = list(mask) + [None] * 3
            query_mask = masks[0] if query_mask is None else query_mask
            value_mask = masks[1] if value_mask is None else value_mask
            key_mask = (masks[2] if key is not None else None) if key_mask is None else key_mask
        elif mask is not None and query_mask is None:
            query_mask = mask
        if key is None:
            key = value
        attention_mask = self._attention_mask(
            query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask
        )
        gate = self._gate_dense(query) if self.use_gate else None
        q = self._query_dense(query)
        k = ops.repeat(self._key_dense(key), self.num_repeats, axis=2)  # (B, S, query heads, head_dim)
        v = ops.repeat(self._value_dense(value), self.num_repeats, axis=2)
        q = ops.multiply(q, ops.cast(self._inverse_sqrt_head_dim, ops.dtype(q)))
        scores = ops.einsum("bquh,bkuh->buqk", q, k)
        if attention_mask is not None:
            for _ in range(4 - len(ops.shape(attention_mask))):
                attention_mask = ops.expand_dims(attention_mask, -3)  # a heads axis before (T, S)
        scores = self._softmax(scores, mask=attention_mask)
        used = self._dropout_layer(scores, training=training) if self.dropout > 0 else scores
        output = ops.einsum("buqk,bkuh->bquh", used, v)
        if gate is not None:
            output = ops.multiply(output, gate)
        output = self._output_dense(output)
        if return_attention_scores:
            return output, scores
        return output

    def compute_mask(self, inputs, previous_mask=None):
        # The output is aligned with the query: it keeps the query's mask (Keras names the argument as the base
        # class does here).
        if isinstance(previous_mask, (list, tuple)):
            return previous_mask[0] if previous_mask else None
        return previous_mask

    def compute_output_shape(self, query_shape, value_shape, key_shape=None):
        query_shape, value_shape = tuple(query_shape), tuple(value_shape)
        key_shape = value_shape if key_shape is None else tuple(key_shape)
        if query_shape[-1] != value_shape[-1]:
            raise ValueError(
                f"The last dimensions of query and value must be equal; received query_shape={query_shape} "
                f"and value_shape={value_shape}."
            )
        if value_shape[1:-1] != key_shape[1:-1]:
            raise ValueError(
                "All dimensions of `value` and `key`, except the last one, must be equal. Received: "
                f"value_shape={value_shape} and key_shape={key_shape}"
            )
        return query_shape

    def compute_output_spec(self, query, value, key=None, return_attention_scores=False, **kwargs):
        q_shape, v_shape = _shape(query), _shape(value)
        out = KerasTensor(
            self.compute_output_shape(q_shape, v_shape, None if key is None else _shape(key)), self.compute_dtype
        )
        if not return_attention_scores:
            return out
        return out, KerasTensor((q_shape[0], self.num_query_heads, q_shape[1], v_shape[1]), self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "head_dim": self.head_dim,
                "num_query_heads": self.num_query_heads,
                "num_key_value_heads": self.num_key_value_heads,
                "use_bias": self.use_bias,
                "use_gate": self.use_gate,
                "sliding_window": self.sliding_window,
                "dropout": self.dropout,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint),
                "seed": self.seed,
            }
        )
        return config
