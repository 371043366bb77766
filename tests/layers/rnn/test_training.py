"""Recurrent models train on every backend (loss goes down), also with dropout and masking; on JAX and
TensorFlow the time loop is one compiled loop op (``scan`` / ``While``), not a Python loop in the graph."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers


def _sequence_task(n=64, steps=20, seed=0):
    """Predict the (scaled) sum of a noisy sequence: needs memory over all 20 steps."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, steps, 2)).astype("float32")
    y = (x[:, :, :1].sum(axis=1) / np.sqrt(steps)).astype("float32")
    return x, y


@pytest.mark.parametrize("jit_compile", [False, True])
def test_tiny_lstm_fits(backend, jit_compile):
    # an engine that compiles nothing (native) runs its own step in both cases
    jit_compile = jit_compile and backend.capabilities.supports_jit
    hl.utils.set_random_seed(0)
    x, y = _sequence_task()
    model = hl.Sequential([layers.Input((20, 2)), layers.LSTM(8), layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.Adam(0.02), loss="mse", jit_compile=jit_compile)
    history = model.fit(x, y, batch_size=16, epochs=6, verbose=0)
    losses = history.history["loss"]
    assert losses[-1] < 0.6 * losses[0], losses


def test_gru_with_dropout_and_masking_fits(backend):
    hl.utils.set_random_seed(1)
    x, y = _sequence_task(seed=1)
    x[:8, 15:] = 0.0  # padded tails, skipped through Masking
    model = hl.Sequential(
        [
            layers.Input((20, 2)),
            layers.Masking(0.0),
            layers.Bidirectional(layers.GRU(6, dropout=0.1, recurrent_dropout=0.1, seed=2)),
            layers.Dense(1),
        ]
    )
    model.compile(optimizer=hl.optimizers.Adam(0.02), loss="mse")
    history = model.fit(x, y, batch_size=16, epochs=5, verbose=0)
    losses = history.history["loss"]
    assert losses[-1] < losses[0], losses
    assert np.isfinite(model.predict(x[:4], verbose=0)).all()


def test_the_time_loop_is_one_compiled_op(backend, monkeypatch):
    """The layer's call runs its time loop as one ``scan``: which traces into jax.lax.scan on JAX and one While
    op under tf.function (on the define-by-run engines the scan is a recorded Python loop); on an engine with a
    fused recurrence kernel (native, torch), as one ``lstm_sequence`` op instead, with no scan at all."""
    layer = layers.LSTM(3, return_sequences=True)
    x = np.random.default_rng(0).normal(size=(2, 20, 4)).astype("float32")
    calls = []
    for name in ("scan", "lstm_sequence"):
        engine_op = getattr(type(backend), name)
        monkeypatch.setattr(
            type(backend), name, lambda self, *a, _n=name, _op=engine_op, **k: calls.append(_n) or _op(self, *a, **k)
        )
    layer(x)
    if backend.capabilities.fused_recurrence:
        assert calls == ["lstm_sequence"]
    else:
        assert calls == ["scan"]
    monkeypatch.undo()
    if backend.name == "jax":
        import jax

        values = [v.value for v in layer.weights]

        def run(values, x):
            out, _ = layer.stateless_call(values, [], x)
            return out

        jaxpr = str(jax.make_jaxpr(run)(values, x))
        assert jaxpr.count("scan[") == 1, jaxpr[:2000]
    elif backend.name == "tensorflow":
        import tensorflow as tf

        graph = tf.function(lambda x: layer(x)).get_concrete_function(tf.TensorSpec((2, 20, 4))).graph
        loops = [op.type for op in graph.get_operations() if "While" in op.type]
        assert len(loops) == 1, loops
        assert len(graph.get_operations()) < 200  # not 20 unrolled steps
    else:
        assert not backend.capabilities.stateless_step  # the loop runs eagerly, recorded step by step
