"""SwapEMAWeights: evaluation sees the optimizer's moving average of the weights; training does not."""

import numpy as np
import pytest

import highlevel as hl

MOMENTUM = 0.5


def setup_model():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(8, 2)).astype("float32")
    y = (x[:, :1] * 3 - 1).astype("float32")
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(0.2, use_ema=True, ema_momentum=MOMENTUM), loss="mse")
    return model, x, y


def ema_after_each_step(steps):
    """Keras's average: the first step copies the weights, then ``m * ema + (1 - m) * w``."""
    out, ema = [], None
    for w in steps:
        ema = [np.array(a) for a in w] if ema is None else [MOMENTUM * e + (1 - MOMENTUM) * a for e, a in zip(ema, w)]
        out.append(ema)
    return out


def assert_weights_close(got, want):
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_validation_uses_the_average_and_training_the_weights(backend):
    model, x, y = setup_model()
    steps, at_test = [], []
    record_steps = hl.callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: steps.append(model.get_weights()))
    record_test = hl.callbacks.LambdaCallback(on_test_begin=lambda logs: at_test.append(model.get_weights()))
    history = model.fit(
        x,
        y,
        batch_size=4,
        epochs=2,
        shuffle=False,
        verbose=0,
        validation_data=(x, y),
        callbacks=[record_steps, hl.callbacks.SwapEMAWeights(), record_test],
    )
    emas = ema_after_each_step(steps)
    assert_weights_close(at_test[0], emas[1])
    assert_weights_close(at_test[1], emas[3])
    assert not np.allclose(emas[3][0], steps[3][0])
    kernel, bias = emas[3]
    np.testing.assert_allclose(history.history["val_loss"][1], np.mean((x @ kernel + bias - y) ** 2), rtol=1e-5)
    # swapped back after each validation; then, as in Keras, fit ends by writing the averages into the weights
    # (optimizer.finalize_variable_values)
    assert_weights_close(model.get_weights(), emas[3])

    # evaluate and predict with the callback use the average and swap back
    cb = hl.callbacks.SwapEMAWeights()
    loss = model.evaluate(x, y, verbose=0, callbacks=[cb])
    np.testing.assert_allclose(loss, np.mean((x @ kernel + bias - y) ** 2), rtol=1e-5)
    np.testing.assert_allclose(model.predict(x, verbose=0, callbacks=[cb]), x @ kernel + bias, rtol=1e-5, atol=1e-6)
    assert_weights_close(model.get_weights(), emas[3])


def test_swap_on_epoch_leaves_the_average_in_the_model(backend):
    model, x, y = setup_model()
    steps, at_end, at_begin = [], [], []
    record_steps = hl.callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: steps.append(model.get_weights()))
    record = hl.callbacks.LambdaCallback(
        on_epoch_end=lambda e, logs: at_end.append(model.get_weights()),
        on_epoch_begin=lambda e, logs: at_begin.append(model.get_weights()),
    )
    model.fit(
        x,
        y,
        batch_size=4,
        epochs=2,
        shuffle=False,
        verbose=0,
        callbacks=[record_steps, hl.callbacks.SwapEMAWeights(swap_on_epoch=True), record],
    )
    emas = ema_after_each_step(steps)
    assert_weights_close(at_end[0], emas[1])
    assert_weights_close(at_begin[1], steps[1])  # training resumes from the trained weights
    assert_weights_close(at_end[1], emas[3])
    assert_weights_close(model.get_weights(), emas[3])


def test_needs_an_ema_optimizer(backend):
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse", run_eagerly=True)
    x, y = np.ones((4, 2), "float32"), np.zeros((4, 1), "float32")
    with pytest.raises(ValueError, match="use_ema=True"):
        model.fit(x, y, epochs=1, verbose=0, validation_data=(x, y), callbacks=[hl.callbacks.SwapEMAWeights()])
