"""LambdaCallback: the given functions are called by fit/evaluate/predict, in order, with their arguments."""

import numpy as np
import pytest

import highlevel as hl


def test_hooks_called_in_order(backend):
    x = np.ones((6, 2), "float32")
    y = np.zeros((6, 1), "float32")
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    calls = []

    def log(name):
        return lambda *args: calls.append((name,) + tuple(a for a in args if isinstance(a, int)))

    names = [
        "on_train_begin",
        "on_train_end",
        "on_epoch_begin",
        "on_epoch_end",
        "on_train_batch_begin",
        "on_train_batch_end",
        "on_test_begin",
        "on_test_end",
        "on_test_batch_begin",
        "on_test_batch_end",
        "on_predict_begin",
        "on_predict_end",
        "on_predict_batch_begin",
        "on_predict_batch_end",
    ]
    cb = hl.callbacks.LambdaCallback(**{n: log(n[3:]) for n in names})
    model.fit(x, y, batch_size=3, epochs=2, verbose=0, validation_data=(x, y), validation_batch_size=6, callbacks=[cb])
    epoch = lambda e: [
        ("epoch_begin", e),
        ("train_batch_begin", 0),
        ("train_batch_end", 0),  # noqa: E731
        ("train_batch_begin", 1),
        ("train_batch_end", 1),
        ("test_begin",),
        ("test_batch_begin", 0),
        ("test_batch_end", 0),
        ("test_end",),
        ("epoch_end", e),
    ]
    assert calls == [("train_begin",)] + epoch(0) + epoch(1) + [("train_end",)]
    calls.clear()
    model.predict(x, batch_size=6, verbose=0, callbacks=[cb])
    assert calls == [("predict_begin",), ("predict_batch_begin", 0), ("predict_batch_end", 0), ("predict_end",)]
    # the logs reach the functions
    seen = {}
    model.fit(
        x,
        y,
        epochs=1,
        verbose=0,
        callbacks=[hl.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.update(logs))],
    )
    assert set(seen) == {"loss"}


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown hook 'on_epoch_ending'"):
        hl.callbacks.LambdaCallback(on_epoch_ending=print)
    with pytest.raises(TypeError, match="must be a function"):
        hl.callbacks.LambdaCallback(on_epoch_end=3)
    cb = hl.callbacks.LambdaCallback()
    cb.on_epoch_end(0, {})  # hooks not given do nothing
