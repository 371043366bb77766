"""NaN and infinity in the data: refused before any update with ``hl.config.set_check_numerics(True)``, and
``TerminateOnNaN`` stops training with finite weights on every backend (TensorFlow included)."""

import numpy as np
import pytest

import highlevel as hl


@pytest.fixture
def checked():
    hl.config.set_check_numerics(True)
    try:
        yield
    finally:
        hl.config.set_check_numerics(False)


def _model():
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(8, activation="relu"), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(0.05), loss="mse")
    return model


def _data(n=32):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 4)).astype("float32")
    return x, x.sum(axis=1, keepdims=True).astype("float32")


def _same(model, before):
    for a, b in zip(before, model.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_check_numerics_refuses_nonfinite_batches(backend, checked):
    x, y = _data()
    model = _model()
    before = model.get_weights()
    x_bad = x.copy()
    x_bad[3, 2] = np.nan
    with pytest.raises(
        ValueError, match=r"fit: batch 0 has 1 NaN and 0 infinite values in x \(first at index \(3, 2\)\)"
    ):
        model.fit(x_bad, y, batch_size=8, shuffle=False, verbose=0)
    _same(model, before)
    y_bad = y.copy()
    y_bad[20, 0] = np.inf
    with pytest.raises(ValueError, match=r"fit: batch 2 has 0 NaN and 1 infinite values in y"):
        model.fit(x, y_bad, batch_size=8, shuffle=False, verbose=0)
    with pytest.raises(ValueError, match=r"evaluate: batch 2 .* in y"):
        model.evaluate(x, y_bad, batch_size=8, verbose=0)
    with pytest.raises(ValueError, match=r"predict: batch 0 has 1 NaN"):
        model.predict(x_bad, batch_size=8, verbose=0)
    with pytest.raises(ValueError, match=r"train_on_batch: batch 0 has 1 NaN .* in x"):
        model.train_on_batch(x_bad[:8], y[:8])
    weights = np.ones(32, "float32")
    weights[30] = np.nan
    with pytest.raises(ValueError, match=r"in sample_weight"):
        model.fit(x, y, sample_weight=weights, batch_size=8, verbose=0)
    # clean data still trains, and the model learns
    history = model.fit(x, y, batch_size=8, epochs=20, verbose=0).history
    assert history["loss"][-1] < 0.5 * history["loss"][0]


def test_check_numerics_is_off_by_default(backend):
    assert hl.config.check_numerics() is False
    x, y = _data()
    x[3, 2] = np.nan
    model = _model()
    model.fit(x, y, batch_size=8, verbose=0)  # as in Keras: not refused
    assert not all(np.isfinite(w).all() for w in model.get_weights())  # and the weights silently became NaN


def test_check_numerics_takes_only_booleans():
    with pytest.raises(ValueError, match="True or False; received 1"):
        hl.config.set_check_numerics(1)


def test_terminate_on_nan_stops_on_nan_data_with_finite_weights(backend):
    x, y = _data()
    x_bad = x.copy()
    x_bad[17, 1] = np.nan  # batch 2 of 4
    model = _model()
    history = model.fit(
        x_bad, y, batch_size=8, epochs=5, shuffle=False, verbose=0, callbacks=[hl.callbacks.TerminateOnNaN()]
    ).history
    assert len(history["loss"]) == 1  # stopped in the first epoch
    assert model.stop_training
    assert all(np.isfinite(w).all() for w in model.get_weights())
    assert np.isfinite(model.predict(x, verbose=0)).all()
    # and the model trains on afterwards
    history = model.fit(x, y, batch_size=8, epochs=20, verbose=0).history
    assert history["loss"][-1] < 0.5 * history["loss"][0]


def test_terminate_on_nan_stops_when_the_loss_diverges(backend):
    x, y = _data()
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(1e6), loss="mse")
    history = model.fit(
        x * 1e10, y, batch_size=8, epochs=5, verbose=0, callbacks=[hl.callbacks.TerminateOnNaN()]
    ).history
    assert len(history["loss"]) == 1
    assert all(np.isfinite(w).all() for w in model.get_weights())
