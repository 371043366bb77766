"""The LSTM layer's fused time loop (``ops.lstm_sequence``, on engines with ``fused_recurrence``) computes what
the step-by-step loop computes: outputs, final states and every weight's gradient, also reading the sequence
backwards and from given initial states; ``use_cudnn=False`` keeps the step-by-step loop."""

import numpy as np
import pytest

from highlevel import layers, ops


def _outputs_and_grads(backend, layer, x, h0, c0, cot):
    x, h0, c0, cot = (ops.convert_to_tensor(a) for a in (x, h0, c0, cot))

    def loss(*values):
        (seq, h, c), _ = layer.stateless_call(list(values), [], x, initial_state=[h0, c0])
        return ops.sum(seq * cot) + ops.sum(h * cot[:, 0]) + 2.0 * ops.sum(c * cot[:, -1])

    values = [v.value for v in layer.trainable_weights]
    value, grads = backend.value_and_grad(loss, argnums=tuple(range(len(values))))(*values)
    (seq, h, c), _ = layer.stateless_call(values, [], x, initial_state=[h0, c0])
    return [ops.convert_to_numpy(t) for t in (value, seq, h, c, *grads)]


@pytest.mark.parametrize("go_backwards", [False, True])
@pytest.mark.parametrize("use_bias", [True, False])
def test_fused_loop_matches_the_step_loop(backend, monkeypatch, go_backwards, use_bias):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(3, 7, 4)).astype("float32")
    h0, c0 = (rng.normal(size=(3, 5)).astype("float32") for _ in range(2))
    cot = rng.normal(size=(3, 7, 5)).astype("float32")
    kwargs = dict(return_sequences=True, return_state=True, go_backwards=go_backwards, use_bias=use_bias)
    fused, loop = layers.LSTM(5, **kwargs), layers.LSTM(5, use_cudnn=False, **kwargs)
    fused.build((3, 7, 4))
    loop.build((3, 7, 4))
    weights = [w + rng.normal(scale=0.3, size=w.shape).astype("float32") for w in fused.get_weights()]
    fused.set_weights(weights)
    loop.set_weights(weights)

    calls = []
    engine_op = type(backend).lstm_sequence
    monkeypatch.setattr(
        type(backend), "lstm_sequence", lambda self, *a, **k: calls.append(1) or engine_op(self, *a, **k)
    )
    want = _outputs_and_grads(backend, loop, x, h0, c0, cot)
    assert calls == []  # use_cudnn=False: the step loop
    got = _outputs_and_grads(backend, fused, x, h0, c0, cot)
    assert bool(calls) == backend.capabilities.fused_recurrence
    assert len(got) == len(want) == 4 + (3 if use_bias else 2)
    for name, a, b in zip(["loss", "sequence", "h", "c", "kernel", "recurrent_kernel", "bias"], got, want):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-5, err_msg=name)
    assert np.abs(want[-1]).max() > 1e-2  # gradients that are not all zero
