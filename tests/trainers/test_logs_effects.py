"""The numbers in the logs are the ones they claim to be.

- ``train_on_batch`` reports the metrics of its batch, not a running mean over the earlier calls and the last
  ``fit`` (Keras resets the metrics first; we did not).
- Every compiled metric has its own entry, under the name Keras gives it: a weighted metric is called
  ``weighted_<name>`` only when a plain one took ``<name>``, and a repeated name gets a counter. (A weighted metric
  was always called ``weighted_<name>``, so a callback watching ``val_mae`` found nothing, and two metrics of one
  name wrote one entry.)
"""

import os
import warnings

import numpy as np
import pytest

import highlevel as hl

RNG = np.random.default_rng(0)
X = RNG.normal(size=(8, 3)).astype("float32")
Y = RNG.normal(size=(8, 1)).astype("float32")
SW = RNG.uniform(0.1, 1.0, size=8).astype("float32")


def test_train_on_batch_reports_its_own_batch(backend, step_mode):
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(0.0), loss="mse", metrics=["mae"], **step_mode)
    model.fit(X, Y, batch_size=4, epochs=1, verbose=0)
    kernel, bias = model.get_weights()
    error = X @ kernel + bias - Y
    for rows in (slice(0, 2), slice(2, 8), slice(0, 2)):
        logs = model.train_on_batch(X[rows], Y[rows], return_dict=True)
        np.testing.assert_allclose(logs["loss"], np.mean(error[rows] ** 2), rtol=1e-5)
        np.testing.assert_allclose(logs["mae"], np.mean(np.abs(error[rows])), rtol=1e-5)


def log_names(lib):
    """The keys of ``evaluate``'s logs for a few metric lists, one and two outputs."""
    out = []
    single = [(["mae", "mse"], ["mae", "mae"]), (None, ["mae"]), (["mae", "mae"], None), (["mse"], ["mae"])]
    for metrics, weighted in single:
        model = lib.Sequential([lib.Input((3,)), lib.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse", metrics=metrics, weighted_metrics=weighted)
        out.append(sorted(model.evaluate(X, Y, sample_weight=SW, verbose=0, return_dict=True)))
    inputs = lib.Input((3,))
    model = lib.Model(inputs, {"a": lib.layers.Dense(1, name="a")(inputs), "b": lib.layers.Dense(1, name="b")(inputs)})
    model.compile(
        optimizer="sgd",
        loss="mse",
        metrics={"a": ["mae", "mae"], "b": ["mse"]},
        weighted_metrics={"a": ["mae", "mse"], "b": ["mae"]},
    )
    out.append(sorted(model.evaluate(X, {"a": Y, "b": Y}, sample_weight=SW, verbose=0, return_dict=True)))
    return out


def test_metric_names_match_keras():
    # The engine Keras loads unless it is loaded already: TensorFlow, its default (tests/layers/core's oracle needs it).
    os.environ.setdefault("KERAS_BACKEND", "tensorflow")
    keras = pytest.importorskip("keras")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = log_names(keras)
    with hl.config.backend_scope("native"):
        got = log_names(hl)
    assert got == want
    assert want[1] == ["loss", "mae"] and "weighted_mae_1" in want[0]  # what the cases are about


def test_same_named_metrics_each_report_their_own_value():
    with hl.config.backend_scope("native"):
        model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse", metrics=["mae"], weighted_metrics=["mae"])
        logs = model.evaluate(X, Y, sample_weight=SW, verbose=0, return_dict=True)
        error = np.abs(model.predict(X, verbose=0) - Y)[:, 0]
    np.testing.assert_allclose(logs["mae"], error.mean(), rtol=1e-5)
    np.testing.assert_allclose(logs["weighted_mae"], np.sum(error * SW) / SW.sum(), rtol=1e-5)
