"""``MultiHeadAttention`` without returned scores or dropout runs through ``ops.dot_product_attention`` on
engines with a fused attention kernel (``capabilities.fused_attention``): the same outputs and weight
gradients as the explicit scores-softmax-product path it takes when the scores are returned, with a mask too."""

import numpy as np
import pytest

from highlevel import layers, ops


@pytest.mark.parametrize("masked", [False, True])
def test_fused_and_explicit_attention_agree(backend, monkeypatch, masked):
    rng = np.random.default_rng(0)
    x = ops.convert_to_tensor(rng.normal(size=(2, 6, 8)).astype("float32"))
    mask = ops.convert_to_tensor(rng.random((2, 6, 6)) > 0.3) if masked else None
    cot = ops.convert_to_tensor(rng.normal(size=(2, 6, 8)).astype("float32"))
    layer = layers.MultiHeadAttention(2, 4)
    layer(x, x)
    values = [v.value for v in layer.trainable_weights]
    calls = []
    engine_op = type(backend).dot_product_attention
    monkeypatch.setattr(
        type(backend), "dot_product_attention", lambda self, *a, **k: calls.append(1) or engine_op(self, *a, **k)
    )

    def run(scores):
        def loss(*vals):
            out, _ = layer.stateless_call(list(vals), [], x, x, attention_mask=mask, return_attention_scores=scores)
            out = out[0] if scores else out
            return ops.sum(out * cot)

        value, grads = backend.value_and_grad(loss, argnums=tuple(range(len(values))))(*values)
        return [ops.convert_to_numpy(t) for t in (value, *grads)]

    explicit = run(True)
    assert calls == []
    fused = run(False)
    assert bool(calls) == backend.capabilities.fused_attention
    for a, b in zip(fused, explicit):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
    assert np.abs(explicit[1]).max() > 1e-3
