"""TerminateOnNaN: training stops at the first batch with a NaN/inf loss."""

import numpy as np
import pytest

import highlevel as hl


def nan_data():
    x = np.ones((16, 2), "float32")
    x[9] = np.nan  # in the third batch of 4
    return x, np.zeros((16, 1), "float32")


def test_stops_at_the_first_nan_batch(backend, capsys):
    x, y = nan_data()
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    batches = []
    record = hl.callbacks.LambdaCallback(on_train_batch_end=lambda batch, logs: batches.append(batch))
    history = model.fit(
        x, y, batch_size=4, epochs=3, shuffle=False, verbose=0, callbacks=[hl.callbacks.TerminateOnNaN(), record]
    )
    assert batches == [0, 1, 2] and history.epoch == [0]
    assert np.isnan(history.history["loss"][0])
    assert "Batch 2: Invalid loss nan, terminating training" in capsys.readouterr().out


def test_raise_error_and_inf(backend):
    x, y = nan_data()
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    ended = []
    record = hl.callbacks.LambdaCallback(on_train_end=lambda logs: ended.append(True))
    with pytest.raises(RuntimeError, match="batch 2. Loss value: nan"):
        model.fit(
            x,
            y,
            batch_size=4,
            epochs=1,
            shuffle=False,
            verbose=0,
            callbacks=[hl.callbacks.TerminateOnNaN(raise_error=True), record],
        )
    assert ended == []  # no clean-up hooks ran

    class Fake:
        stop_training = False

    cb = hl.callbacks.TerminateOnNaN()
    cb.set_model(Fake())
    cb.on_batch_end(0, {})
    cb.on_batch_end(1, {"loss": hl.ops.convert_to_tensor(1.0)})
    assert not cb.model.stop_training
    cb.on_batch_end(2, {"loss": float("-inf")})
    assert cb.model.stop_training


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_the_nan_batch_update_never_reaches_the_weights(backend, optimizer):
    # Batch 2 (rows 8-11) holds a NaN: training must stop with the weights and optimizer state of batch 1,
    # exactly those of a run over the first two batches only.
    x, y = nan_data()
    y = np.arange(16, dtype="float32").reshape(16, 1) / 16.0

    def trained(x, y, epochs, callbacks):
        hl.utils.set_random_seed(3)
        model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(3, activation="relu"), hl.layers.Dense(1)])
        model.compile(optimizer=optimizer, loss="mse")
        model.fit(x, y, batch_size=4, epochs=epochs, shuffle=False, verbose=0, callbacks=callbacks)
        return model

    guarded = trained(x, y, 2, [hl.callbacks.TerminateOnNaN()])
    clean = trained(x[:8], y[:8], 1, [])
    # (not bitwise: the guarded step runs an engine's generic Adam kernel, the clean one may run its fused one)
    for got, want in zip(guarded.get_weights(), clean.get_weights()):
        assert np.all(np.isfinite(got))
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    for got, want in zip(guarded.optimizer.variables, clean.optimizer.variables):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-7)
    assert int(guarded.optimizer.iterations.numpy()) == 2


def test_the_guard_is_dropped_after_training(backend):
    x, y = nan_data()
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0, callbacks=[hl.callbacks.TerminateOnNaN()])
    assert not getattr(model, "_guard_nonfinite", False)
    # without the callback, Keras's behaviour: the NaN update is applied
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    assert np.isnan(model.get_weights()[0]).all()


def test_a_finite_loss_with_nan_gradients_stops_without_an_update(backend, monkeypatch):
    # The loss is finite but a gradient is NaN (what TensorFlow's fused matmul + ReLU gives on a NaN input on
    # some CPUs): the guard keeps the step out of the weights, and the step reports a NaN loss so training stops.
    from highlevel.trainers import trainer as trainer_module

    x = np.ones((12, 2), "float32")
    y = np.zeros((12, 1), "float32")
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    model.build((None, 2))
    calls = []
    real = trainer_module.step_sync.value_and_grad

    def poisoned(fn, variables, x):
        out, grads = real(fn, variables, x)
        calls.append(1)
        if len(calls) == 2:  # the second batch: finite loss, NaN gradients
            grads = [g * float("nan") for g in grads]
        return out, grads

    monkeypatch.setattr(trainer_module.step_sync, "value_and_grad", poisoned)
    weights = []
    record = hl.callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: weights.append(model.get_weights()))
    history = model.fit(
        x, y, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[hl.callbacks.TerminateOnNaN(), record]
    )
    assert len(weights) == 2 and history.epoch == [0]  # stopped at the second batch
    for got, want in zip(weights[1], weights[0]):
        np.testing.assert_array_equal(got, want)  # that batch changed nothing
    assert int(model.optimizer.iterations.numpy()) == 1
    assert np.isnan(history.history["loss"][0])
