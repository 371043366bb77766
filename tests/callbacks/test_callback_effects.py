"""Callbacks that change training, shown to change it: on every engine and in every step mode (compiled the
engine's way, ``jit_compile=False``, ``run_eagerly=True``), the numbers the steps produce are checked, not only
the callbacks' own attributes.

The model is ``Dense(1)`` on 3 features with the mean squared error and plain SGD, so a step's update is known in
closed form: ``w <- w - lr * grad`` with the gradient computed here in float64 from the weights before the step.
"""

import numpy as np

import highlevel as hl

RNG = np.random.default_rng(0)
X = RNG.normal(size=(8, 3)).astype("float32")
Y = RNG.normal(size=(8, 1)).astype("float32")


def linear_model(step_mode, optimizer):
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1)])
    model.compile(optimizer=optimizer, loss="mse", **step_mode)
    return model


def sgd_update(weights, lr, x=X, y=Y):
    """The weights after one plain SGD step of the mean squared error on ``(x, y)``."""
    kernel, bias = (w.astype("float64") for w in weights)
    residual = 2.0 * (x @ kernel + bias - y) / y.size
    return [kernel - lr * (x.T @ residual), bias - lr * residual.sum(axis=0)]


def assert_sgd_step(before, after, lr):
    for got, want in zip(after, sgd_update(before, lr)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def scripted(values, key="score"):
    """Writes ``values[epoch]`` into the epoch logs, for the callbacks after it to monitor."""
    return hl.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: logs.__setitem__(key, values[epoch]))


def weights_at(hook, model, store):
    return hl.callbacks.LambdaCallback(**{hook: lambda *args: store.append(model.get_weights())})


def test_early_stopping_restores_the_best_epochs_weights(backend, step_mode):
    model = linear_model(step_mode, hl.optimizers.SGD(0.1))
    at_end = []
    stop = hl.callbacks.EarlyStopping(monitor="score", mode="min", patience=2, restore_best_weights=True)
    history = model.fit(
        X,
        Y,
        batch_size=4,
        epochs=8,
        verbose=0,
        shuffle=False,
        callbacks=[weights_at("on_epoch_end", model, at_end), scripted([3, 2, 1, 1.5, 1.2, 0, 0, 0]), stop],
    )
    # best at epoch 2; epochs 3 and 4 do not improve on it: training stops after epoch 4
    assert history.epoch == [0, 1, 2, 3, 4] and stop.stopped_epoch == 4 and stop.best_epoch == 2
    assert not np.array_equal(at_end[4][0], at_end[2][0])  # training went on after the best epoch
    for got, best in zip(model.get_weights(), at_end[2]):
        np.testing.assert_array_equal(got, best)
    # the restored weights are the ones the next compiled steps use (a jitted step keeps its own copy of the state)
    kernel, bias = at_end[2]
    np.testing.assert_allclose(model.predict(X, verbose=0), X @ kernel + bias, rtol=1e-5, atol=1e-6)
    before = model.get_weights()
    model.fit(X, Y, batch_size=8, epochs=1, verbose=0)
    assert_sgd_step(before, model.get_weights(), 0.1)


def test_reduce_lr_on_plateau_lowers_the_rate_the_step_uses(backend, step_mode):
    model = linear_model(step_mode, hl.optimizers.SGD(0.1))
    at_begin = []
    plateau = hl.callbacks.ReduceLROnPlateau(monitor="score", mode="min", factor=0.5, patience=1, min_lr=0.02)
    history = model.fit(
        X,
        Y,
        batch_size=8,
        epochs=5,
        verbose=0,
        callbacks=[scripted([1.0] * 5), plateau, weights_at("on_epoch_begin", model, at_begin)],
    )
    at_begin.append(model.get_weights())
    # no improvement from epoch 1 on: halved at the end of epochs 1, 2 and 3 (then held at min_lr)
    rates = [0.1, 0.1, 0.05, 0.025, 0.02]
    np.testing.assert_allclose(history.history["learning_rate"], rates, rtol=1e-6)  # the rate each epoch ran at
    for epoch, lr in enumerate(rates):  # one step per epoch: each one moved the weights by -lr * grad
        assert_sgd_step(at_begin[epoch], at_begin[epoch + 1], lr)


def test_learning_rate_scheduler_rate_is_the_one_each_epoch_applies(backend, step_mode):
    model = linear_model(step_mode, hl.optimizers.SGD(0.1))
    rates = [0.1, 0.01, 0.0, 0.3]
    at_begin = []
    schedule = hl.callbacks.LearningRateScheduler(lambda epoch, lr: rates[epoch])
    model.fit(
        X,
        Y,
        batch_size=4,
        epochs=4,
        verbose=0,
        shuffle=False,
        callbacks=[schedule, weights_at("on_epoch_begin", model, at_begin)],
    )
    at_begin.append(model.get_weights())
    for epoch, lr in enumerate(rates):  # two steps per epoch, on the two halves of the data
        middle = sgd_update(at_begin[epoch], lr, X[:4], Y[:4])
        for got, want in zip(at_begin[epoch + 1], sgd_update(middle, lr, X[4:], Y[4:])):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
    for before, after in zip(at_begin[2], at_begin[3]):  # a zero rate leaves the weights bit for bit
        np.testing.assert_array_equal(before, after)


def test_a_rate_set_between_two_batches_applies_to_the_next_batch(backend, step_mode):
    model = linear_model(step_mode, hl.optimizers.SGD(0.1))
    before = []

    def set_rate(batch, logs):
        model.optimizer.learning_rate = [0.2, 0.0, 0.05, 0.01][batch]
        before.append(model.get_weights())

    model.fit(
        X,
        Y,
        batch_size=2,
        epochs=1,
        verbose=0,
        shuffle=False,
        callbacks=[hl.callbacks.LambdaCallback(on_train_batch_begin=set_rate)],
    )
    before.append(model.get_weights())
    for batch, lr in enumerate([0.2, 0.0, 0.05, 0.01]):
        rows = slice(2 * batch, 2 * batch + 2)
        for got, want in zip(before[batch + 1], sgd_update(before[batch], lr, X[rows], Y[rows])):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_swap_ema_weights_evaluates_with_the_average_and_trains_the_weights(backend, step_mode):
    momentum = 0.5
    model = linear_model(step_mode, hl.optimizers.SGD(0.2, use_ema=True, ema_momentum=momentum))
    steps, at_test, at_begin = [], [], []
    history = model.fit(
        X,
        Y,
        batch_size=4,
        epochs=2,
        shuffle=False,
        verbose=0,
        validation_data=(X, Y),
        callbacks=[
            weights_at("on_train_batch_end", model, steps),
            weights_at("on_epoch_begin", model, at_begin),
            hl.callbacks.SwapEMAWeights(),
            weights_at("on_test_begin", model, at_test),
        ],
    )
    averages, average = [], None
    for trained in steps:  # the first update copies the weights; then m * average + (1 - m) * weights
        average = (
            [w.astype("float64") for w in trained]
            if average is None
            else [momentum * a + (1 - momentum) * w for a, w in zip(average, trained)]
        )
        averages.append(average)
    assert not np.allclose(averages[1][0], steps[1][0])
    for seen, want in ((at_test[0], averages[1]), (at_test[1], averages[3])):
        for got, w in zip(seen, want):
            np.testing.assert_allclose(got, w, rtol=1e-5, atol=1e-6)
    for epoch, step in ((0, 1), (1, 3)):  # validation ran on the average
        kernel, bias = averages[step]
        np.testing.assert_allclose(history.history["val_loss"][epoch], np.mean((X @ kernel + bias - Y) ** 2), rtol=1e-5)
    # after validation the trained weights came back: epoch 1 started from them and its first step moved them
    for got, trained in zip(at_begin[1], steps[1]):
        np.testing.assert_array_equal(got, trained)
    for got, want in zip(steps[2], sgd_update(steps[1], 0.2, X[:4], Y[:4])):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_terminate_on_nan_keeps_a_nan_batch_out_of_the_weights(backend, step_mode):
    # Batch 1 holds a NaN behind a relu: inside a tf.function TensorFlow fuses MatMul + BiasAdd + Relu into a kernel
    # that turns NaN into 0, so the loss came out finite while the gradients were NaN, and the update filled the
    # weights with NaN unnoticed. The guard checks the gradients too: training stops, the weights are batch 0's.
    x = np.ones((8, 2), "float32")
    x[5, 0] = np.nan
    y = np.linspace(0.0, 1.0, 8, dtype="float32")[:, None]
    hl.utils.set_random_seed(3)
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(3, activation="relu"), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse", **step_mode)
    after = []
    history = model.fit(
        x,
        y,
        batch_size=4,
        epochs=2,
        shuffle=False,
        verbose=0,
        callbacks=[hl.callbacks.TerminateOnNaN(), weights_at("on_train_batch_end", model, after)],
    )
    assert len(after) == 2 and history.epoch == [0] and np.isnan(history.history["loss"][0])
    for got, first in zip(model.get_weights(), after[0]):
        np.testing.assert_array_equal(got, first)
    assert int(model.optimizer.iterations.numpy()) == 1
