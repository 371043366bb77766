"""ReduceLROnPlateau: the learning-rate sequence matches Keras's callback, in fit and on scripted logs."""

import warnings

import numpy as np
import pytest

import highlevel as hl


def scripted(values, key="score"):
    def write(epoch, logs):
        logs[key] = values[epoch]

    return hl.callbacks.LambdaCallback(on_epoch_end=write)


def test_reduces_the_learning_rate_in_fit(backend):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(8, 3)).astype("float32")
    y = x[:, :1].astype("float32")
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
    weights = []
    record = hl.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: weights.append(model.get_weights()))
    scores = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    plateau = hl.callbacks.ReduceLROnPlateau(monitor="score", mode="min", factor=0.5, patience=1)
    # min_lr clamps later reductions; the compiled step must use the reduced rate: lr=0 leaves the weights.
    to_zero = hl.callbacks.ReduceLROnPlateau(monitor="score", mode="min", factor=0.0, patience=4)
    history = model.fit(x, y, batch_size=4, epochs=6, verbose=0, callbacks=[scripted(scores), plateau, to_zero, record])
    # `to_zero` runs after `plateau`, so the logged rate is the one after plateau's reduction of that epoch
    np.testing.assert_allclose(history.history["learning_rate"][:5], [0.1, 0.05, 0.025, 0.0125, 0.00625], rtol=1e-6)
    assert float(hl.ops.convert_to_numpy(model.optimizer.learning_rate)) == 0.0
    for before, after in zip(weights[4], weights[5]):
        np.testing.assert_array_equal(before, after)


class _FakeOptimizer:
    def __init__(self, lr):
        self.learning_rate = np.float32(lr)
        self.name = "sgd"


class _FakeModel:
    def __init__(self, lr):
        self.optimizer = _FakeOptimizer(lr)
        self.metrics = []
        self.stop_training = False


class _Float32Setter(_FakeOptimizer):
    """Stores the learning rate as float32, like a variable."""

    def __setattr__(self, name, value):
        object.__setattr__(self, name, np.float32(value) if name == "learning_rate" else value)


def _drive(cb, values, lr=1.0):
    model = _FakeModel(lr)
    model.optimizer = _Float32Setter(lr)
    cb.set_model(model)
    cb.on_train_begin({})
    lrs = []
    for epoch, v in enumerate(values):
        cb.on_epoch_end(epoch, {"score": v})
        lrs.append(float(model.optimizer.learning_rate))
    return lrs


SEQUENCES = [
    [5, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3],
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    [1.0, 0.99995, 0.9999, 0.98, 0.98, 0.97, 0.97, 0.97, 0.97, 0.97],
]
CONFIGS = [
    dict(patience=1),
    dict(patience=2, factor=0.5),
    dict(patience=1, cooldown=2),
    dict(patience=1, factor=0.2, min_lr=0.01),
    dict(patience=0, factor=0.5, min_delta=0.0),
    dict(patience=1, mode="max"),
    dict(patience=2, cooldown=1, min_delta=0.015),
]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_matches_keras(config):
    keras = pytest.importorskip("keras")
    config = dict({"mode": "min"}, **config)
    for values in SEQUENCES:
        values = [float(v) for v in values]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = _drive(keras.callbacks.ReduceLROnPlateau(monitor="score", **config), values)
        got = _drive(hl.callbacks.ReduceLROnPlateau(monitor="score", **config), values)
        np.testing.assert_array_equal(got, want, err_msg=str(values))


def test_arguments_and_missing_metric(capsys):
    with pytest.raises(ValueError, match="factor >= 1.0"):
        hl.callbacks.ReduceLROnPlateau(factor=1.5)
    cb = hl.callbacks.ReduceLROnPlateau(monitor="val_loss", patience=0, factor=0.5, verbose=1, min_delta=0)
    model = _FakeModel(1.0)
    cb.set_model(model)
    cb.on_train_begin()
    with pytest.warns(UserWarning, match="Available metrics are: loss,learning_rate"):
        cb.on_epoch_end(0, {"loss": 1.0})
    cb.on_epoch_end(1, {"val_loss": 1.0})
    cb.on_epoch_end(2, {"val_loss": 1.0})
    assert "Epoch 3: ReduceLROnPlateau reducing learning rate to 0.5." in capsys.readouterr().out


def test_baseline_counts_epochs_that_do_not_beat_it(backend):
    x = np.ones((4, 2), "float32")
    y = np.zeros((4, 1), "float32")

    def rates(**kwargs):
        model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
        model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
        plateau = hl.callbacks.ReduceLROnPlateau(monitor="score", mode="min", factor=0.5, patience=2, **kwargs)
        history = model.fit(x, y, epochs=3, verbose=0, callbacks=[scripted([1.0, 1.0, 1.0]), plateau])
        return history.history["learning_rate"]

    # (each epoch logs the rate it trained with). Without a baseline the first epoch's 1.0 is the best so far:
    # the cut comes at the end of the third epoch, too late to show in the logs.
    np.testing.assert_allclose(rates(), [0.1, 0.1, 0.1], rtol=1e-6)
    # With baseline 0.5, the first two epochs already fail to beat it: the cut comes one epoch earlier.
    np.testing.assert_allclose(rates(baseline=0.5), [0.1, 0.1, 0.05], rtol=1e-6)
