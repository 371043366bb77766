"""Attention: dot-product (Luong-style) or concat attention of a query over a value sequence."""

import numbers

from highlevel import ops, random
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._masks import as_bool_mask, causal_mask, large_offset


def _check_dropout(dropout, who):
    if not isinstance(dropout, numbers.Real) or isinstance(dropout, bool) or not 0 <= dropout < 1:
        raise ValueError(
            f"Invalid value received for argument `dropout` of {who}. Expected a float in [0, 1). "
            f"Received: dropout={dropout!r}"
        )
    return float(dropout)


class Attention(Layer):
    """Dot-product attention layer, a.k.a. Luong-style attention (``keras.layers.Attention``).

    Called on ``[query, value]`` or ``[query, value, key]`` (``key`` defaults to ``value``):

    1. scores of shape ``(batch, Tq, Tv)``: ``query @ key^T`` (``score_mode="dot"``, times a learned scalar
       ``scale`` when ``use_scale``) or ``concat_score_weight * sum(tanh(query_i + key_j))``
       (``score_mode="concat"``, the sum inside ``tanh`` scaled by ``scale`` when ``use_scale``);
    2. a softmax over ``Tv`` after masking (masked scores get ``-1e9``);
    3. the output ``softmax(scores) @ value``, of shape ``(batch, Tq, dim)``; rows whose query is masked
       are set to 0.

    Args:
        use_scale: whether to learn a scalar ``scale`` weight (initialized to 1) for the scores.
        score_mode: ``"dot"`` or ``"concat"``. ``"concat"`` adds a scalar ``concat_score_weight``.
        dropout: float in ``[0, 1)``, the fraction of the attention weights to drop in training.
        seed: optional int seed for the dropout.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: ``[query, value]`` or ``[query, value, key]``; ``query`` is ``(batch, Tq, dim)``, ``value``
            and ``key`` are ``(batch, Tv, dim)``.
        mask: optional ``[query_mask, value_mask]`` of bool tensors ``(batch, Tq)`` and ``(batch, Tv)``
            (either may be None); value positions where the mask is False get no attention; output rows
            where the query mask is False are 0. In a functional model the inputs' masks (e.g. from
            ``Embedding(mask_zero=True)``) are passed automatically.
        training: whether to apply the dropout.
        return_attention_scores: if True, return ``(output, scores)`` where ``scores`` are the attention
            weights after masking and softmax, ``(batch, Tq, Tv)`` (before dropout).
        use_causal_mask: if True, position ``i`` cannot attend to positions ``j > i``.

    Output shape: ``(batch, Tq, dim)`` (the value's last dimension), plus the scores when asked.

    Raises:
        ValueError: if ``score_mode`` is not ``"dot"`` or ``"concat"``, or ``seed`` is not None or an int.

    >>> import highlevel as hl
    >>> q = hl.ops.ones((2, 3, 4)); v = hl.ops.ones((2, 5, 4))
    >>> out, scores = hl.layers.Attention()([q, v], return_attention_scores=True)
    >>> hl.ops.shape(out), hl.ops.shape(scores)
    ((2, 3, 4), (2, 3, 5))
    """

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError(
                "Invalid value for argument score_mode. Expected one of {'dot', 'concat'}. "
                f"Received: score_mode={score_mode}"
            )
        if seed is not None and (not isinstance(seed, numbers.Integral) or isinstance(seed, bool)):
            raise ValueError(f"`seed` must be None or an int; received seed={seed!r}.")
        self.use_scale = bool(use_scale)
        self.score_mode = score_mode
        self.dropout = _check_dropout(dropout, type(self).__name__)
        self.seed = seed
        # Not a weight: SeedGenerator is neither a Layer nor a Variable, so tracking skips it.
        self.seed_generator = random.SeedGenerator(seed) if self.dropout > 0 else None
        self.supports_masking = True

    # ------------------------------------------------------------------------------------- checks
    def _validate_inputs(self, inputs, mask=None):
        name = type(self).__name__
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(
                f"{name} layer must be called on a list of inputs, namely [query, value] or [query, value, key]. "
                f"Received: inputs={inputs}."
            )
        if not 2 <= len(inputs) <= 3:
            raise ValueError(
                f"{name} layer accepts inputs list of length 2 or 3, namely [query, value] or "
                f"[query, value, key]. Received length: {len(inputs)}."
            )
        if mask is not None:
            if not isinstance(mask, (list, tuple)):
                raise ValueError(
                    f"{name} layer mask must be a list, namely [query_mask, value_mask]. Received: mask={mask}."
                )
            if not 2 <= len(mask) <= 3:
                raise ValueError(
                    f"{name} layer accepts mask list of length 2 or 3. Received: mask of length {len(mask)}."
                )

    def _validate_shapes(self, shapes):
        name = type(self).__name__
        if not all(isinstance(s, (list, tuple)) for s in shapes):  # one tensor's shape, not a list of them
            raise ValueError(
                f"{name} layer must be called on a list of inputs, namely [query, value] or [query, value, key]. "
                f"Received: one input of shape {tuple(shapes)}."
            )
        q, v = tuple(shapes[0]), tuple(shapes[1])
        k = tuple(shapes[2]) if len(shapes) > 2 else v
        if len(q) < 2 or len(v) < 2 or len(k) < 2:
            raise ValueError(
                f"{name} expects query, value and key of rank >= 2, typically (batch, T, dim). Received shapes: "
                f"query={q}, value={v}, key={k}."
            )
        if q[-1] is not None and k[-1] is not None and q[-1] != k[-1]:
            raise ValueError(
                f"{name}: the query and key must have the same last dimension (the scores compare them). "
                f"Received: query.shape={q}, key.shape={k}."
            )
        if v[-2] is not None and k[-2] is not None and v[-2] != k[-2]:
            raise ValueError(
                f"{name}: the value and key must have the same number of steps. Received: value.shape={v}, "
                f"key.shape={k}."
            )

    # -------------------------------------------------------------------------------------- build
    def build(self, input_shape):
        self._validate_inputs(input_shape)
        self._validate_shapes(input_shape)
        self.scale = None
        self.concat_score_weight = None
        if self.use_scale:
            self.scale = self.add_weight(shape=(), initializer="ones", name="scale")
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight(shape=(), initializer="ones", name="concat_score_weight")
        self.built = True

    # --------------------------------------------------------------------------------------- call
    def _calculate_scores(self, query, key):
        """``(batch, Tq, Tv)`` scores of every query step against every key step."""
        if self.score_mode == "dot":
            scores = ops.matmul(query, ops.swapaxes(key, -2, -1))
            if self.scale is not None:
                scores = ops.multiply(scores, self.scale)
            return scores
        # concat: broadcast (batch, Tq, 1, dim) + (batch, 1, Tv, dim).
        summed = ops.add(ops.expand_dims(query, -2), ops.expand_dims(key, -3))
        if self.scale is not None:
            summed = ops.multiply(self.scale, summed)
        return ops.multiply(self.concat_score_weight, ops.sum(ops.tanh(summed), axis=-1))

    def _scores_mask(self, scores, value_mask, use_causal_mask):
        """The bool mask of the scores, ``(batch, 1, Tv)`` or ``(batch or 1, Tq, Tv)``, or None."""
        if value_mask is not None:
            value_mask = ops.expand_dims(value_mask, -2)
        if not use_causal_mask:
            return value_mask
        shape = ops.shape(scores)
        causal = causal_mask(shape[-2], shape[-1])
        return causal if value_mask is None else ops.logical_and(value_mask, causal)

    def _apply_scores(self, scores, value, scores_mask=None, training=False):
        """``(softmax(masked scores) @ value, softmax weights)``; dropout on the weights in training."""
        if scores_mask is not None:
            offset = large_offset(ops.dtype(scores))
            scores = ops.where(scores_mask, scores, ops.subtract(scores, offset))
        weights = ops.softmax(scores, axis=-1)
        used = weights
        if training and self.dropout > 0:
            used = random.dropout(weights, self.dropout, seed=self.seed_generator)
        return ops.matmul(used, value), weights

    def call(self, inputs, mask=None, training=False, return_attention_scores=False, use_causal_mask=False):
        self._validate_inputs(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        q_mask = as_bool_mask(mask[0]) if mask else None
        v_mask = as_bool_mask(mask[1]) if mask else None
        scores = self._calculate_scores(query, key)
        scores_mask = self._scores_mask(scores, v_mask, use_causal_mask)
        output, weights = self._apply_scores(scores, value, scores_mask, training=training)
        if q_mask is not None:
            output = ops.where(ops.expand_dims(q_mask, -1), output, ops.zeros_like(output))
        if return_attention_scores:
            return output, weights
        return output

    def compute_mask(self, inputs, mask=None):
        self._validate_inputs(inputs, mask)
        if mask is None or mask[0] is None:
            return None
        return as_bool_mask(mask[0])

    def compute_output_shape(self, input_shape):
        self._validate_inputs(input_shape)
        return (*tuple(input_shape[0])[:-1], tuple(input_shape[1])[-1])

    def compute_output_spec(
        self, inputs, mask=None, training=None, return_attention_scores=False, use_causal_mask=False
    ):
        self._validate_inputs(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        out = KerasTensor(self.compute_output_shape([query.shape, value.shape]), self.compute_dtype)
        if return_attention_scores:
            return out, KerasTensor((*tuple(query.shape)[:-1], tuple(key.shape)[-2]), self.compute_dtype)
        return out

    def get_config(self):
        config = super().get_config()
        config.update(
            {"use_scale": self.use_scale, "score_mode": self.score_mode, "dropout": self.dropout, "seed": self.seed}
        )
        return config
