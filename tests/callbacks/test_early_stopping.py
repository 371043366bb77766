"""EarlyStopping: stopping epoch, best-weight restoration, modes and warnings, against Keras's callback."""

import warnings

import numpy as np
import pytest

import highlevel as hl


def tiny_model(optimizer=None, metrics=None, run_eagerly=False):
    # Tests of the callback's logic alone run eagerly: tracing a step per model would dominate their time.
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, activation="tanh"), hl.layers.Dense(1)])
    model.compile(optimizer=optimizer or hl.optimizers.SGD(0.05), loss="mse", metrics=metrics, run_eagerly=run_eagerly)
    return model


def data(n=16):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype("float32")
    return x, (x[:, :1] - x[:, 1:2]).astype("float32")


def scripted(values, key="score"):
    """A callback that writes ``values[epoch]`` into the epoch logs (before the callbacks that follow it)."""

    def write(epoch, logs):
        logs[key] = values[epoch]

    return hl.callbacks.LambdaCallback(on_epoch_end=write)


def test_stops_at_the_right_epoch_and_restores_the_best_weights(backend):
    hl.utils.set_random_seed(0)
    x, y = data()
    model = tiny_model()
    seen = []
    record = hl.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(model.get_weights()))
    stop = hl.callbacks.EarlyStopping(monitor="score", mode="min", patience=2, restore_best_weights=True)
    scores = [3.0, 2.0, 1.0, 1.5, 1.2, 0.5, 0.1, 0.0]
    history = model.fit(x, y, batch_size=8, epochs=8, verbose=0, callbacks=[record, scripted(scores), stop])
    # best at epoch 2; epochs 3 and 4 do not improve: stop after epoch 4
    assert history.epoch == [0, 1, 2, 3, 4]
    assert stop.stopped_epoch == 4 and stop.best_epoch == 2 and stop.best == 1.0
    assert not np.allclose(seen[4][0], seen[2][0])
    for got, want in zip(model.get_weights(), seen[2]):
        np.testing.assert_array_equal(got, want)


def test_without_restore_keeps_the_last_weights_and_reuse_resets(backend):
    x, y = data()
    model = tiny_model(run_eagerly=True)
    seen = []
    record = hl.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(model.get_weights()))
    stop = hl.callbacks.EarlyStopping(monitor="score", patience=1, mode="max")
    model.fit(x, y, epochs=6, verbose=0, callbacks=[record, scripted([1.0, 2.0, 1.5, 3.0, 0, 0]), stop])
    assert stop.stopped_epoch == 2
    for got, want in zip(model.get_weights(), seen[-1]):
        np.testing.assert_array_equal(got, want)
    # on_train_begin resets the state: a second fit starts from scratch
    history = model.fit(x, y, epochs=6, verbose=0, callbacks=[scripted([5.0, 6.0, 7.0, 4.0, 0, 0]), stop])
    assert len(history.epoch) == 4 and stop.stopped_epoch == 3 and stop.best == 7.0


def test_auto_mode_follows_the_metric_direction(backend):
    x, y = data()
    model = tiny_model(metrics=["mae"], run_eagerly=True)
    stop = hl.callbacks.EarlyStopping(monitor="val_loss")
    model.fit(x, y, epochs=1, verbose=0, validation_data=(x, y), callbacks=[stop])
    assert stop._is_improvement(0.1, 0.2)
    model = tiny_model(metrics=["accuracy"], run_eagerly=True)
    stop = hl.callbacks.EarlyStopping(monitor="accuracy")
    model.fit(x, (y > 0).astype("float32"), epochs=1, verbose=0, callbacks=[stop])
    assert stop._is_improvement(0.9, 0.5) and not stop._is_improvement(0.5, 0.9)
    stop = hl.callbacks.EarlyStopping(monitor="mae")
    model = tiny_model(metrics=["mae"], run_eagerly=True)
    model.fit(x, y, epochs=1, verbose=0, callbacks=[stop])
    assert stop._is_improvement(0.1, 0.2)


def test_undeterminable_direction_and_missing_metric(backend):
    x, y = data()
    model = tiny_model(run_eagerly=True)
    with pytest.raises(ValueError, match="mode='max'"):
        model.fit(x, y, epochs=1, verbose=0, callbacks=[hl.callbacks.EarlyStopping(monitor="mystery")])
    with pytest.warns(UserWarning, match="Available metrics are: loss"):
        history = model.fit(x, y, epochs=2, verbose=0, callbacks=[hl.callbacks.EarlyStopping(monitor="val_loss")])
    assert len(history.epoch) == 2
    with pytest.warns(UserWarning, match="unknown"):
        assert hl.callbacks.EarlyStopping(mode="bigger").mode == "auto"


class _FakeModel:
    """Just enough of a model for both Keras's and highlevel's callback."""

    def __init__(self):
        self.stop_training = False
        self.metrics = []
        self.w = 0

    def get_weights(self):
        return [np.array(self.w)]

    def set_weights(self, weights):
        self.w = int(weights[0])


def _drive(cb, values):
    model = _FakeModel()
    cb.set_model(model)
    cb.on_train_begin({})
    ran = 0
    for epoch, v in enumerate(values):
        model.w = epoch
        cb.on_epoch_end(epoch, {"score": v})
        ran += 1
        if model.stop_training:
            break
    cb.on_train_end({})
    return ran, cb.stopped_epoch, cb.best, cb.wait, model.w


SEQUENCES = [
    [5, 4, 4.05, 3.9, 3.95, 4, 4.2, 1],
    [1, 2, 3, 2, 1, 0, 5, 6],
    [3, 3, 3, 3, 3],
    [0.5, 0.2, 0.3, 0.1, 0.15, 0.14, 0.13, 0.2, 0.3, 0.4],
]
CONFIGS = [
    dict(patience=0),
    dict(patience=2),
    dict(patience=1, min_delta=0.06),
    dict(patience=2, baseline=0.25),
    dict(patience=1, start_from_epoch=3),
    dict(patience=2, mode="max"),
    dict(patience=1, restore_best_weights=True),
    dict(patience=3, baseline=2.5, restore_best_weights=True),
]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_matches_keras(config):
    keras = pytest.importorskip("keras")
    config = dict({"mode": "min"}, **config)
    for values in SEQUENCES:
        values = [float(v) for v in values]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = _drive(keras.callbacks.EarlyStopping(monitor="score", **config), values)
        got = _drive(hl.callbacks.EarlyStopping(monitor="score", **config), values)
        assert got[0] == want[0] and got[1] == want[1] and got[3] == want[3] and got[4] == want[4], (values, got, want)
        assert (got[2] is None and want[2] is None) or float(got[2]) == float(want[2])


def test_verbose_messages(capsys):
    cb = hl.callbacks.EarlyStopping(monitor="score", mode="min", verbose=1, restore_best_weights=True)
    _drive(cb, [1.0, 2.0, 3.0])
    out = capsys.readouterr().out
    assert "Epoch 2: early stopping" in out and "best epoch: 1" in out
