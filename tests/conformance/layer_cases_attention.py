"""Conformance cases of the attention layers (Attention, AdditiveAttention, MultiHeadAttention, GroupQueryAttention).

The runner calls a layer on one tensor or on a list of tensors with no other arguments, so every case
builds its layer inside :class:`_Call`, a small wrapper holding the attention layer and its call arguments
(masks as numpy constants, ``use_causal_mask``...). The wrapper has no weights of its own: the weights the
runner draws and the gradients it compares are the attention layer's.
"""

import numpy as np

import highlevel as hl

from .layer_case import LayerCase, normal


class _Call(hl.layers.Layer):
    """Calls ``inner`` on the runner's list of inputs: ``inner(inputs, **kwargs)``, or ``inner(*inputs,
    **kwargs)`` with ``spread`` (MultiHeadAttention takes query, value, key as separate arguments)."""

    def __init__(self, inner, spread=False, **call_kwargs):
        super().__init__(dtype=inner.dtype)
        self.inner = inner
        self.spread = spread
        self.call_kwargs = call_kwargs

    def call(self, inputs):
        kwargs = {
            k: (hl.ops.convert_to_tensor(v) if isinstance(v, np.ndarray) else v) for k, v in self.call_kwargs.items()
        }
        if kwargs.get("mask") is not None:
            kwargs["mask"] = [None if m is None else hl.ops.convert_to_tensor(m) for m in kwargs["mask"]]
        return self.inner(*inputs, **kwargs) if self.spread else self.inner(list(inputs), **kwargs)


def _padding(batch, steps, lengths):
    return np.arange(steps)[None, :] < np.asarray(lengths)[:, None]


def _attention_mask(batch, t, s):
    m = np.random.default_rng(0).random((batch, t, s)) < 0.6
    m[:, :, 0] = True  # every query row keeps something to attend to
    return m


def _wrap(cls_name, layer_kwargs, spread=False, **call_kwargs):
    return lambda dtype: _Call(getattr(hl.layers, cls_name)(dtype=dtype, **layer_kwargs), spread=spread, **call_kwargs)


L = LayerCase
CASES = [
    L(
        "attention_dot",
        "Attention",
        inputs=[normal(2, 3, 4), normal(2, 5, 4)],
        like="einsum",
        build=_wrap("Attention", {}),
    ),
    L(
        "attention_dot_scale_causal_masked",
        "Attention",
        inputs=[normal(2, 4, 3), normal(2, 4, 3)],
        like="einsum",
        build=_wrap(
            "Attention",
            {"use_scale": True},
            use_causal_mask=True,
            mask=[_padding(2, 4, [3, 4]), _padding(2, 4, [4, 2])],
        ),
    ),
    L(
        "attention_concat_key",
        "Attention",
        inputs=[normal(2, 3, 4), normal(2, 5, 2), normal(2, 5, 4)],
        like="einsum",
        build=_wrap("Attention", {"score_mode": "concat", "use_scale": True}),
    ),
    L(
        "additive_attention",
        "AdditiveAttention",
        inputs=[normal(2, 3, 4), normal(2, 5, 4)],
        like="einsum",
        build=_wrap("AdditiveAttention", {}, mask=[None, _padding(2, 5, [5, 2])]),
    ),
    L(
        "mha_self",
        "MultiHeadAttention",
        inputs=[normal(2, 5, 6), normal(2, 5, 6)],
        like="einsum",
        build=_wrap("MultiHeadAttention", {"num_heads": 2, "key_dim": 3}, spread=True),
    ),
    L(
        "mha_causal_attention_mask",
        "MultiHeadAttention",
        inputs=[normal(2, 4, 6), normal(2, 4, 6)],
        like="einsum",
        build=_wrap(
            "MultiHeadAttention",
            {"num_heads": 3, "key_dim": 2, "value_dim": 4, "output_shape": 5},
            spread=True,
            use_causal_mask=True,
            attention_mask=_attention_mask(2, 4, 4),
        ),
    ),
    L(
        "mha_cross_key_masks",
        "MultiHeadAttention",
        inputs=[normal(2, 3, 4), normal(2, 5, 6), normal(2, 5, 2)],
        like="einsum",
        build=_wrap(
            "MultiHeadAttention",
            {"num_heads": 2, "key_dim": 2, "use_bias": False, "use_gate": True},
            spread=True,
            value_mask=_padding(2, 5, [5, 3]),
            key_mask=_padding(2, 5, [4, 5]),
        ),
    ),
    L(
        "mha_attention_axes_2d",
        "MultiHeadAttention",
        inputs=[normal(2, 3, 2, 4), normal(2, 3, 2, 4)],
        like="einsum",
        build=_wrap("MultiHeadAttention", {"num_heads": 2, "key_dim": 2, "attention_axes": (1, 2)}, spread=True),
    ),
    L(
        "gqa_self",
        "GroupQueryAttention",
        inputs=[normal(2, 5, 6), normal(2, 5, 6)],
        like="einsum",
        build=_wrap(
            "GroupQueryAttention", {"head_dim": 3, "num_query_heads": 4, "num_key_value_heads": 2}, spread=True
        ),
    ),
    L(
        "gqa_causal_window_gate",
        "GroupQueryAttention",
        inputs=[normal(2, 4, 6), normal(2, 4, 6)],
        like="einsum",
        build=_wrap(
            "GroupQueryAttention",
            {"head_dim": 2, "num_query_heads": 3, "num_key_value_heads": 1, "sliding_window": 2, "use_gate": True},
            spread=True,
            use_causal_mask=True,
        ),
    ),
]
