"""Bad counting arguments and targets of the wrong shape: a clear error before any update, on every backend.

Each case also checks that nothing was trained: the weights after the refused call are those before it.
"""

import re

import numpy as np
import pytest

import highlevel as hl


def _model(units=2, loss="mse"):
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(units)])
    model.compile(optimizer="sgd", loss=loss)
    return model


def _data(width=2, n=32):
    rng = np.random.default_rng(0)
    return rng.normal(size=(n, 4)).astype("float32"), rng.normal(size=(n, width)).astype("float32")


def _unchanged(model, before):
    for a, b in zip(before, model.get_weights()):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"steps_per_epoch": 0}, "steps_per_epoch must be an integer >= 1"),
        ({"steps_per_epoch": -3}, "steps_per_epoch must be an integer >= 1"),
        ({"validation_split": 0.25, "validation_steps": 0}, "validation_steps must be an integer >= 1"),
        ({"batch_size": 0}, "batch_size must be an integer >= 1"),
        ({"batch_size": 8.0}, "batch_size must be an integer >= 1"),
        ({"batch_size": True}, "batch_size must be an integer >= 1"),
        ({"epochs": -1}, "epochs must be an integer >= 0"),
        ({"epochs": 2.5}, "epochs must be an integer >= 0"),
        ({"validation_freq": 0, "validation_split": 0.25}, "validation_freq must be an integer >= 1"),
    ],
)
def test_fit_refuses_bad_counts_before_training(backend, kwargs, message):
    model = _model()
    x, y = _data()
    model.fit(x, y, epochs=1, verbose=0)
    before = model.get_weights()
    with pytest.raises(ValueError, match=message):
        model.fit(x, y, verbose=0, **kwargs)
    _unchanged(model, before)


@pytest.mark.parametrize("method", ["evaluate", "predict"])
def test_evaluate_and_predict_refuse_zero_steps(backend, method):
    model = _model()
    x, y = _data()
    with pytest.raises(ValueError, match="steps must be an integer >= 1"):
        if method == "evaluate":
            model.evaluate(x, y, steps=0, verbose=0)
        else:
            model.predict(x, steps=0, verbose=0)


def test_numpy_integers_are_counts_too(backend):
    model = _model()
    x, y = _data()
    history = model.fit(
        x,
        y,
        batch_size=np.int64(8),
        epochs=np.int32(2),
        initial_epoch=np.int64(0),
        steps_per_epoch=np.int64(3),
        validation_split=0.25,
        validation_steps=np.int16(1),
        validation_freq=np.int64(1),
        verbose=0,
    )
    assert len(history.history["loss"]) == 2 and len(history.history["val_loss"]) == 2
    assert np.isfinite(model.evaluate(x, y, batch_size=np.int64(8), steps=np.uint8(2), verbose=0))
    assert model.predict(x, batch_size=np.int64(16), verbose=0).shape == (32, 2)


@pytest.mark.parametrize(
    "loss, units, width, fix",
    [
        ("mse", 2, 1, r"give targets of shape \(batch, 2\)"),
        ("mse", 2, 3, r"give targets of shape \(batch, 2\)"),
        ("categorical_crossentropy", 3, 1, "sparse_categorical_crossentropy"),
        ("binary_crossentropy", 1, 2, r"give targets of shape \(batch, 1\)"),
        (hl.losses.Huber(), 2, 5, r"give targets of shape \(batch, 2\)"),
    ],
)
def test_targets_that_cannot_match_the_output_are_refused(backend, loss, units, width, fix):
    model = _model(units=units, loss=loss)
    x, y = _data(width=width)
    before = model.get_weights()
    with pytest.raises(ValueError, match="compares them entry by entry") as info:
        model.fit(x, y, epochs=1, verbose=0)
    assert "targets have shape (32, %d)" % width in str(info.value)
    assert re.search(fix, str(info.value))
    _unchanged(model, before)
    # The same model, fitted with good targets first, still checks those of a later evaluate.
    good = _data(width=units)[1]
    if loss == "categorical_crossentropy" or loss == "binary_crossentropy":
        good = np.eye(units, dtype="float32")[np.arange(32) % units] if units > 1 else (good > 0).astype("float32")
    model.fit(x, good, epochs=1, verbose=0)
    with pytest.raises(ValueError, match="compares them entry by entry"):
        model.evaluate(x, y, verbose=0)


def test_rank_adjusted_and_sparse_targets_still_train(backend):
    x, y = _data(width=1)
    model = _model(units=1)
    model.fit(x, y[:, 0], epochs=1, verbose=0)  # (32,) against (None, 1): Keras's rank adjustment
    labels = (np.arange(32) % 3).astype("int32")
    sparse = _model(units=3, loss="sparse_categorical_crossentropy")
    first = sparse.evaluate(x, labels, verbose=0)
    sparse.fit(x, labels, epochs=20, verbose=0)
    assert sparse.evaluate(x, labels, verbose=0) < first
