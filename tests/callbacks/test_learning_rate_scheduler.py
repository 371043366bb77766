"""LearningRateScheduler: the optimizer's learning rate follows the schedule (and the compiled step uses it)."""

import math

import numpy as np
import pytest

import highlevel as hl


def tiny_model(lr=0.1, run_eagerly=False):
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(lr), loss="mse", run_eagerly=run_eagerly)
    return model


def data(n=8):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(n, 3)).astype("float32")
    return x, x[:, :1].astype("float32") * 2


def test_schedule_sets_the_learning_rate_used_by_the_step(backend):
    x, y = data()
    model = tiny_model()
    weights = []
    record = hl.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: weights.append(model.get_weights()))
    # Epoch 1 trains with a zero learning rate: the weights must not move, also inside jit/tf.function.
    schedule = hl.callbacks.LearningRateScheduler(lambda epoch, lr: [0.1, 0.0, 0.05, lr * math.exp(-0.1)][epoch])
    history = model.fit(x, y, batch_size=4, epochs=4, verbose=0, callbacks=[schedule, record])
    np.testing.assert_allclose(
        history.history["learning_rate"], np.float32([0.1, 0.0, 0.05, 0.05 * math.exp(-0.1)]), rtol=1e-6
    )
    for before, after in zip(weights[0], weights[1]):
        np.testing.assert_array_equal(before, after)
    assert not np.allclose(weights[1][0], weights[2][0])
    assert float(hl.ops.convert_to_numpy(model.optimizer.learning_rate)) == pytest.approx(0.05 * math.exp(-0.1))


def test_keras_docstring_example_numbers():
    # Keras's example: lr kept for 10 epochs then multiplied by exp(-0.1): 0.01 -> 0.00607 after 15 epochs.
    x, y = np.arange(100, dtype="float32").reshape(5, 20) / 100, np.zeros((5, 1), "float32")
    model = hl.Sequential([hl.Input((20,)), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(0.01), loss="mse", run_eagerly=True)
    cb = hl.callbacks.LearningRateScheduler(lambda epoch, lr: lr if epoch < 10 else lr * math.exp(-0.1))
    model.fit(x, y, epochs=15, callbacks=[cb], verbose=0)
    assert round(float(hl.ops.convert_to_numpy(model.optimizer.learning_rate)), 5) == 0.00607


def test_old_api_verbose_and_bad_outputs(backend, capsys):
    x, y = data()
    model = tiny_model(run_eagerly=True)
    model.fit(
        x, y, epochs=2, verbose=0, callbacks=[hl.callbacks.LearningRateScheduler(lambda e: 0.5 / (e + 1), verbose=1)]
    )
    assert float(hl.ops.convert_to_numpy(model.optimizer.learning_rate)) == 0.25
    assert "Epoch 2: LearningRateScheduler setting learning rate to 0.25." in capsys.readouterr().out
    with pytest.raises(ValueError, match="should be a float"):
        model.fit(x, y, epochs=1, verbose=0, callbacks=[hl.callbacks.LearningRateScheduler(lambda e, lr: "fast")])
    with pytest.raises(TypeError, match="schedule"):
        hl.callbacks.LearningRateScheduler(0.1)
    # numpy and tensor scalars are accepted
    cb = hl.callbacks.LearningRateScheduler(lambda e, lr: hl.ops.convert_to_tensor(0.125))
    model.fit(x, y, epochs=1, verbose=0, callbacks=[cb])
    assert float(hl.ops.convert_to_numpy(model.optimizer.learning_rate)) == 0.125
