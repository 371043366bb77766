"""MultiHeadAttention: scaled dot-product attention over several learned projections ("heads")."""

import math
import numbers

import numpy as np

from highlevel import constraints, initializers, ops, regularizers
from highlevel.config import current_backend
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ..activations.softmax import Softmax
from ..core.einsum_dense import EinsumDense
from ..regularization.dropout import Dropout
from ._equations import attention_equations, normalize_attention_axes, partial_output_shape, projection_equation
from ._masks import as_bool_mask, causal_mask, sliding_window_mask


def _shape(x):
    shape = x.shape if hasattr(x, "shape") else np.shape(x)
    return tuple(None if d is None else int(d) for d in shape)


def _positive_int(value, name, allow_none=False):
    if allow_none and value is None:
        return None
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value <= 0:
        extra = " or `None`" if allow_none else ""
        raise ValueError(
            f"Received an invalid value for argument `{name}`, expected a positive integer{extra}. "
            f"Received: {name}={value!r}"
        )
    return int(value)


class MultiHeadAttention(Layer):
    """Multi-head attention from "Attention is all you need" (``keras.layers.MultiHeadAttention``).

    ``query``, ``key`` and ``value`` are projected by :class:`EinsumDense` sub-layers named ``query``,
    ``key`` and ``value`` to ``num_heads`` heads of ``key_dim`` (``value_dim`` for the value) features; each
    head computes ``softmax(q k^T / sqrt(key_dim)) v`` over the attention axes; the heads are projected back by
    the ``attention_output`` sub-layer to the query's feature size (or ``output_shape``). The weights are
    those of Keras (same shapes, order and names: ``query/kernel``, ``query/bias``, ``key/kernel``,
    ..., ``attention_output/bias``), so ``set_weights(keras_layer.get_weights())`` loads a Keras layer.

    Args:
        num_heads: the number of attention heads.
        key_dim: the size of each head for the query and key.
        value_dim: the size of each head for the value (default ``key_dim``).
        dropout: dropout rate of the attention weights, in training.
        use_bias: whether the projections have biases.
        output_shape: the output's shape after the batch and sequence axes (an int or tuple); default the
            query's last dimension.
        attention_axes: the axes attention runs over (int or tuple); None means every axis between the batch
            and the features (the sequence axis for ``(batch, T, dim)`` inputs).
        sliding_window: optional positive int: each query position attends only to key positions less than
            ``sliding_window`` steps away.
        flash_attention: a hint passed to ``ops.dot_product_attention``, which the layer uses (as Keras does)
            when no dropout applies, the scores are not returned and attention runs over one axis, on engines
            with a fused attention kernel (PyTorch); otherwise it computes the attention weights explicitly.
            As in Keras, ``True`` forbids dropout and ``return_attention_scores``.
        kernel_initializer: initializer of the projections' kernels (default ``"glorot_uniform"``); each
            projection gets its own copy.
        bias_initializer: initializer of the projections' biases (default ``"zeros"``).
        kernel_regularizer: optional regularizer of the projections' kernels (default None).
        bias_regularizer: optional regularizer of the projections' biases (default None).
        activity_regularizer: optional regularizer of the layer's output (default None).
        kernel_constraint: optional constraint applied to the projections' kernels after each update.
        bias_constraint: optional constraint applied to the projections' biases after each update.
        use_gate: if True, a sigmoid ``gate`` projection of the query multiplies the heads' output before the
            output projection (gated attention).
        seed: optional int seed of the dropout.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        query: ``(batch, T, dim)`` (or ``(batch, <dims>, dim)`` with ``attention_axes``).
        value: ``(batch, S, dim)``.
        key: optional ``(batch, S, dim)``; defaults to ``value``.
        query_mask, value_mask, key_mask: optional bool masks ``(batch, T)`` / ``(batch, S)``: False marks
            padding. In a functional model the inputs' own masks (e.g. from ``Embedding(mask_zero=True)``)
            are used when these are not given.
        attention_mask: optional bool mask ``(batch, T, S)`` (broadcast over heads and the batch): True lets
            a query position attend to a key position. Combined with the masks above and the causal mask.
        return_attention_scores: if True, return ``(output, scores)``; ``scores`` are the attention weights
            (after masking and softmax, before dropout) of shape ``(batch, num_heads, T, S)``.
        training: whether to apply dropout.
        use_causal_mask: if True, position ``i`` attends only to positions ``j <= i`` (decoder self-attention).

    A query row with no position to attend to gets all-zero weights (its output is the output bias).

    Output shape: ``(batch, T, dim)`` or ``(batch, T, *output_shape)``.

    Raises:
        ValueError: if ``num_heads``/``key_dim``/``value_dim`` are not positive ints, ``dropout`` is outside ``[0, 1)``,
            ``output_shape`` or ``attention_axes`` has the wrong type, ``seed`` is not an int, or
            ``flash_attention=True`` is combined with dropout.

    >>> import highlevel as hl
    >>> layer = hl.layers.MultiHeadAttention(num_heads=2, key_dim=3)
    >>> x = hl.ops.ones((4, 5, 8))
    >>> out, scores = layer(x, x, return_attention_scores=True, use_causal_mask=True)
    >>> hl.ops.shape(out), hl.ops.shape(scores)
    ((4, 5, 8), (4, 2, 5, 5))
    >>> [w.path.split("/")[-2:] for w in layer.weights][:2]
    [['query', 'kernel'], ['query', 'bias']]
    """

    def __init__(
        self,
        num_heads,
        key_dim,
        value_dim=None,
        dropout=0.0,
        use_bias=True,
        output_shape=None,
        attention_axes=None,
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
        self._num_heads = _positive_int(num_heads, "num_heads")
        self._key_dim = _positive_int(key_dim, "key_dim")
        self._value_dim = _positive_int(value_dim, "value_dim", allow_none=True) or self._key_dim
        if not isinstance(dropout, numbers.Real) or isinstance(dropout, bool) or not 0 <= dropout < 1:
            raise ValueError(
                f"Received an invalid value for argument `dropout`, expected a float in [0, 1). "
                f"Received: dropout={dropout!r}"
            )
        self._dropout = float(dropout)
        self._use_bias = bool(use_bias)
        self._use_gate = bool(use_gate)
        if output_shape:
            if isinstance(output_shape, numbers.Integral):
                output_shape = (int(output_shape),)
            try:
                output_shape = tuple(output_shape)
            except TypeError:
                raise ValueError(
                    f"Invalid `output_shape`: {output_shape!r}. When specified, the `output_shape` should be of "
                    "type tuple, list, or int."
                ) from None
            for d in output_shape:
                _positive_int(d, "output_shape")
        else:
            output_shape = None
        self._output_shape = output_shape
        if isinstance(attention_axes, numbers.Integral) and not isinstance(attention_axes, bool):
            attention_axes = (int(attention_axes),)
        elif attention_axes is not None:
            if not isinstance(attention_axes, (list, tuple)) or not all(
                isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in attention_axes
            ):
                raise ValueError(
                    f"`attention_axes` must be an int, list, or tuple. Received: attention_axes={attention_axes!r}"
                )
            attention_axes = tuple(int(a) for a in attention_axes)
        self._attention_axes = attention_axes
        self._sliding_window = _positive_int(sliding_window, "sliding_window", allow_none=True)
        self._flash_attention = bool(flash_attention)
        if self._flash_attention and self._dropout > 0.0:
            raise ValueError(
                "Dropout is not supported when flash attention is enabled. Please set dropout to 0.0 to use "
                "flash attention."
            )
        self._kernel_initializer = initializers.get(kernel_initializer)
        self._bias_initializer = initializers.get(bias_initializer)
        self._kernel_regularizer = regularizers.get(kernel_regularizer)
        self._bias_regularizer = regularizers.get(bias_regularizer)
        # The projections carry the activity regularizer, as in Keras; the layer itself does not.
        self._activity_regularizer = regularizers.get(activity_regularizer)
        self._kernel_constraint = constraints.get(kernel_constraint)
        self._bias_constraint = constraints.get(bias_constraint)
        if seed is not None and (not isinstance(seed, numbers.Integral) or isinstance(seed, bool)):
            raise ValueError(f"`seed` must be None or an int; received seed={seed!r}.")
        self.seed = seed
        self._inverse_sqrt_key_dim = 1.0 / math.sqrt(float(self._key_dim))
        self.supports_masking = True

    # ----------------------------------------------------------------------------------- properties
    @property
    def num_heads(self):
        return self._num_heads

    @property
    def key_dim(self):
        return self._key_dim

    @property
    def value_dim(self):
        return self._value_dim

    @property
    def dropout(self):
        return self._dropout

    @property
    def use_bias(self):
        return self._use_bias

    @property
    def attention_axes(self):
        return self._attention_axes

    @property
    def query_dense(self):
        return self._query_dense

    @property
    def key_dense(self):
        return self._key_dense

    @property
    def value_dense(self):
        return self._value_dense

    @property
    def output_dense(self):
        return self._output_dense

    # ---------------------------------------------------------------------------------------- build
    def _sublayer_kwargs(self):
        # A fresh initializer per projection, so that unseeded ones do not repeat the same draw.
        return dict(
            kernel_initializer=initializers.get(initializers.serialize(self._kernel_initializer)),
            bias_initializer=initializers.get(initializers.serialize(self._bias_initializer)),
            kernel_regularizer=self._kernel_regularizer,
            bias_regularizer=self._bias_regularizer,
            activity_regularizer=self._activity_regularizer,
            kernel_constraint=self._kernel_constraint,
            bias_constraint=self._bias_constraint,
            dtype=self.dtype_policy,
        )

    def _projection(self, input_shape, last_dims, name, bound_dims=1, activation=None):
        equation, bias_axes, rank = projection_equation(len(input_shape) - bound_dims, bound_dims, len(last_dims))
        return EinsumDense(
            equation,
            output_shape=partial_output_shape(rank, last_dims),
            bias_axes=bias_axes if self._use_bias else None,
            activation=activation,
            name=name,
            **self._sublayer_kwargs(),
        )

    def _check_shapes(self, query_shape, value_shape, key_shape):
        if value_shape[1:-1] != key_shape[1:-1]:
            raise ValueError(
                "All dimensions of `value` and `key`, except the last one, must be equal. Received: "
                f"value_shape={value_shape} and key_shape={key_shape}"
            )
        if len(query_shape) < 3 or len(value_shape) < 3:
            raise ValueError(
                "MultiHeadAttention expects query and value of rank >= 3, e.g. (batch, T, dim) and "
                f"(batch, S, dim). Received: query_shape={query_shape}, value_shape={value_shape}."
            )
        if len(query_shape) != len(value_shape):
            raise ValueError(
                "MultiHeadAttention expects query and value of the same rank. Received: "
                f"query_shape={query_shape}, value_shape={value_shape}."
            )

    def build(self, query_shape, value_shape=None, key_shape=None):
        query_shape = tuple(query_shape)
        value_shape = query_shape if value_shape is None else tuple(value_shape)
        key_shape = value_shape if key_shape is None else tuple(key_shape)
        self._check_shapes(query_shape, value_shape, key_shape)
        rank = len(query_shape) + 1  # the projected tensors: (batch, ..., heads, head_dim)
        attn_axes = normalize_attention_axes(self._attention_axes, rank)
        if not attn_axes or any(not 1 <= a < rank - 2 for a in attn_axes):
            raise ValueError(
                f"`attention_axes`={self._attention_axes} must name axes between the batch axis and the feature "
                f"axis of the query (shape {query_shape})."
            )
        self._attention_axes_built = attn_axes
        # Assignment order = weight order = Keras' order: query, key, (gate), value, attention_output.
        self._query_dense = self._projection(query_shape, [self._num_heads, self._key_dim], "query")
        self._query_dense.build(query_shape)
        self._key_dense = self._projection(key_shape, [self._num_heads, self._key_dim], "key")
        self._key_dense.build(key_shape)
        if self._use_gate:
            self._gate_dense = self._projection(
                query_shape, [self._num_heads, self._value_dim], "gate", activation="sigmoid"
            )
            self._gate_dense.build(query_shape)
        self._value_dense = self._projection(value_shape, [self._num_heads, self._value_dim], "value")
        self._value_dense.build(value_shape)
        self._dot_product_equation, self._combine_equation, scores_rank = attention_equations(rank, attn_axes)
        norm_axes = tuple(range(scores_rank - len(attn_axes), scores_rank))
        self._softmax = Softmax(axis=norm_axes, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self._dropout, seed=self.seed, dtype=self.dtype_policy)
        out_dims = list(self._output_shape) if self._output_shape else [query_shape[-1]]
        self._output_dense = self._projection(
            query_shape[:-1] + (self._num_heads, self._value_dim), out_dims, "attention_output", bound_dims=2
        )
        self._output_dense.build(query_shape[:-1] + (self._num_heads, self._value_dim))
        self.built = True

    # ----------------------------------------------------------------------------------------- call
    def __call__(self, query, value=None, key=None, **kwargs):
        if value is None:
            raise ValueError(
                f"Layer '{self.name}' (MultiHeadAttention) needs a `value` tensor: call it as "
                "`layer(query, value)` (self-attention: `layer(x, x)`)."
            )
        if not any(isinstance(x, KerasTensor) for x in (query, value, key)):
            value = self._convert_inputs(value)
            key = None if key is None else self._convert_inputs(key)
        if not self.built:
            self.build(_shape(query), _shape(value), None if key is None else _shape(key))
        # `key` always goes positionally, so that a functional model's list of input masks is
        # [query_mask, value_mask, key_mask, ...] in that order.
        return super().__call__(query, value, key, **kwargs)

    def _implicit_masks(self, mask, key):
        """(query, value, key) masks from the functional model's ``mask`` argument."""
        if mask is None:
            return None, None, None
        if not isinstance(mask, (list, tuple)):
            return mask, None, None
        masks = list(mask) + [None] * 3
        return masks[0], masks[1], (masks[2] if key is not None else None)

    def _compute_attention_mask(
        self, query, value, query_mask=None, value_mask=None, key_mask=None, attention_mask=None, use_causal_mask=False
    ):
        """The bool ``(batch or 1, T, S)`` mask combining every mask source, or None."""
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
        if self._sliding_window is not None:
            auto = both(auto, sliding_window_mask(q_len, v_len, self._sliding_window))
        attention_mask = as_bool_mask(attention_mask)
        if auto is None:
            return attention_mask
        return auto if attention_mask is None else ops.logical_and(attention_mask, auto)

    def _masked_softmax(self, scores, attention_mask=None):
        if attention_mask is not None:
            # Insert the missing axes (heads, ...) just before the query attention axes.
            axis = -len(self._attention_axes_built) * 2 - 1
            for _ in range(len(ops.shape(scores)) - len(ops.shape(attention_mask))):
                attention_mask = ops.expand_dims(attention_mask, axis)
        return self._softmax(scores, mask=attention_mask)

    def _compute_attention(self, query, key, value, attention_mask=None, training=None, return_attention_scores=True):
        """``(output, scores)`` of the projected ``query`` ``(B, T, N, key_dim)``, ``key`` and ``value``.

        Where the scores are not wanted, no dropout applies and attention runs over one sequence axis, as
        Keras does, through ``ops.dot_product_attention`` on engines with a fused attention kernel
        (``capabilities.fused_attention``); ``scores`` is then None.
        """
        if (
            not return_attention_scores
            and self._dropout == 0
            and len(ops.shape(query)) == 4
            and current_backend().capabilities.fused_attention
        ):
            if attention_mask is not None:
                attention_mask = ops.cast(ops.expand_dims(attention_mask, -3), "bool")
            output = ops.dot_product_attention(
                query,
                key,
                value,
                mask=attention_mask,
                scale=self._inverse_sqrt_key_dim,
                flash_attention=self._flash_attention,
            )
            return output, None
        query = ops.multiply(query, ops.cast(self._inverse_sqrt_key_dim, ops.dtype(query)))
        scores = ops.einsum(self._dot_product_equation, key, query)
        scores = self._masked_softmax(scores, attention_mask)
        used = self._dropout_layer(scores, training=training) if self._dropout > 0 else scores
        return ops.einsum(self._combine_equation, used, value), scores

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
            raise ValueError(
                "Returning attention scores is not supported when flash attention is enabled. Please disable "
                "flash attention to access attention scores."
            )
        implicit = self._implicit_masks(mask, key)
        query_mask = implicit[0] if query_mask is None else query_mask
        value_mask = implicit[1] if value_mask is None else value_mask
        key_mask = implicit[2] if key_mask is None else key_mask
        if key is None:
            key = value
        attention_mask = self._compute_attention_mask(
            query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask
        )
        gate = self._gate_dense(query) if self._use_gate else None
        q = self._query_dense(query)
        k = self._key_dense(key)
        v = self._value_dense(value)
        output, scores = self._compute_attention(
            q, k, v, attention_mask, training, return_attention_scores=return_attention_scores
        )
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

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        query_shape = tuple(query_shape)
        value_shape = query_shape if value_shape is None else tuple(value_shape)
        key_shape = value_shape if key_shape is None else tuple(key_shape)
        if value_shape[1:-1] != key_shape[1:-1]:
            raise ValueError(
                "All dimensions of `value` and `key`, except the last one, must be equal. Received: "
                f"value_shape={value_shape} and key_shape={key_shape}"
            )
        if self._output_shape:
            return query_shape[:-1] + tuple(self._output_shape)
        return query_shape

    def compute_output_spec(
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
        q_shape, v_shape = _shape(query), _shape(value)
        k_shape = v_shape if key is None else _shape(key)
        out = KerasTensor(self.compute_output_shape(q_shape, v_shape, k_shape), self.compute_dtype)
        if not return_attention_scores:
            return out
        axes = self._attention_axes_built
        rank = len(q_shape) + 1
        q_proj = q_shape[:-1] + (self._num_heads, self._key_dim)
        k_proj = k_shape[:-1] + (self._num_heads, self._key_dim)
        batch_dims = [i for i in range(rank) if i not in axes and i != rank - 1]
        scores_shape = tuple([q_proj[i] for i in batch_dims] + [q_proj[i] for i in axes] + [k_proj[i] for i in axes])
        return out, KerasTensor(scores_shape, self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.pop("activity_regularizer", None)
        config.update(
            {
                "num_heads": self._num_heads,
                "key_dim": self._key_dim,
                "value_dim": self._value_dim,
                "dropout": self._dropout,
                "use_bias": self._use_bias,
                "use_gate": self._use_gate,
                "output_shape": self._output_shape,
                "attention_axes": self._attention_axes,
                "sliding_window": self._sliding_window,
                "kernel_initializer": initializers.serialize(self._kernel_initializer),
                "bias_initializer": initializers.serialize(self._bias_initializer),
                "kernel_regularizer": regularizers.serialize(self._kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self._bias_regularizer),
                "activity_regularizer": regularizers.serialize(self._activity_regularizer),
                "kernel_constraint": constraints.serialize(self._kernel_constraint),
                "bias_constraint": constraints.serialize(self._bias_constraint),
                "seed": self.seed,
            }
        )
        return config
