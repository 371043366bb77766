"""The numbers ``fit`` and ``evaluate`` report, and the weights ``fit`` leaves, against Keras 3 on the same initial
weights and data: ``validation_split`` (with sample weights), ``validation_data`` with ``validation_freq``,
``initial_epoch`` (the epochs a schedule sees), a last batch smaller than the others, and a two-output model with
``loss_weights``; also ``optimizer.iterations``. Keras runs once per process; our side on every engine.
"""

import functools
import os
import warnings

import numpy as np
import pytest

import highlevel as hl

RNG = np.random.default_rng(0)
X = RNG.normal(size=(10, 3)).astype("float32")
Y = RNG.normal(size=(10, 1)).astype("float32")
CLASSES = RNG.integers(0, 3, size=10)
SW = RNG.uniform(0.2, 2.0, size=10).astype("float32")
HIDDEN = [(RNG.normal(size=(3, 4)) * 0.5).astype("float32"), (RNG.normal(size=(4,)) * 0.1).astype("float32")]
HEAD = [(RNG.normal(size=(4, 1)) * 0.5).astype("float32"), (RNG.normal(size=(1,)) * 0.1).astype("float32")]
CLASSIFIER = [(RNG.normal(size=(4, 3)) * 0.5).astype("float32"), (RNG.normal(size=(3,)) * 0.1).astype("float32")]


def regression(lib):
    model = lib.Sequential([lib.Input((3,)), lib.layers.Dense(4, activation="tanh"), lib.layers.Dense(1)])
    model.set_weights(HIDDEN + HEAD)
    return model


def two_outputs(lib):
    inputs = lib.Input((3,))
    hidden = lib.layers.Dense(4, activation="tanh")(inputs)
    model = lib.Model(
        inputs,
        {"a": lib.layers.Dense(1, name="a")(hidden), "b": lib.layers.Dense(3, activation="softmax", name="b")(hidden)},
    )
    model.layers[1].set_weights(HIDDEN)
    model.get_layer("a").set_weights(HEAD)
    model.get_layer("b").set_weights(CLASSIFIER)
    return model


def cases(lib):
    schedule = lib.callbacks.LearningRateScheduler(lambda epoch: 0.1 * (epoch + 1))
    return {
        "validation_split": (
            regression,
            dict(weighted_metrics=["mae"]),
            dict(x=X, y=Y, sample_weight=SW, batch_size=4, epochs=2, validation_split=0.3),
            None,
        ),
        "validation_freq": (
            regression,
            dict(metrics=["mae"]),
            dict(x=X, y=Y, batch_size=4, epochs=4, validation_data=(X[:5], Y[:5]), validation_freq=2),
            None,
        ),
        "initial_epoch": (
            regression,
            {},
            dict(x=X, y=Y, batch_size=5, epochs=4, initial_epoch=2, callbacks=[schedule]),
            None,
        ),
        "small_last_batch": (
            regression,
            dict(metrics=["mae", "mse"]),
            dict(x=X, y=Y, batch_size=3, epochs=2),
            dict(x=X, y=Y, batch_size=3),
        ),
        "two_outputs": (
            two_outputs,
            dict(
                loss={"a": "mse", "b": "sparse_categorical_crossentropy"},
                loss_weights={"a": 0.3, "b": 2.0},
                metrics={"b": ["accuracy"]},
            ),
            dict(x=X, y={"a": Y, "b": CLASSES}, batch_size=4, epochs=2, validation_split=0.2),
            dict(x=X, y={"a": Y, "b": CLASSES}),
        ),
    }


def run(lib):
    out = {}
    for name, (make, compile_kwargs, fit_kwargs, evaluate_kwargs) in cases(lib).items():
        model = make(lib)
        model.compile(**dict(dict(optimizer=lib.optimizers.SGD(0.1), loss="mse"), **compile_kwargs))
        history = model.fit(shuffle=False, verbose=0, **fit_kwargs)
        evaluated = model.evaluate(verbose=0, return_dict=True, **evaluate_kwargs) if evaluate_kwargs else {}
        out[name] = (
            history.epoch,
            {k: [float(v) for v in vs] for k, vs in history.history.items()},
            {k: float(v) for k, v in evaluated.items()},
            [np.array(w) for w in model.get_weights()],
            int(np.asarray(model.optimizer.iterations)),
        )
    return out


@functools.lru_cache(maxsize=None)
def keras_results():
    # The engine Keras loads unless it is loaded already: TensorFlow, its default (tests/layers/core's oracle needs it).
    os.environ.setdefault("KERAS_BACKEND", "tensorflow")
    keras = pytest.importorskip("keras")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run(keras)


def test_fit_and_evaluate_match_keras(backend):
    want = keras_results()
    got = run(hl)
    for name, (epochs, history, evaluated, weights, iterations) in want.items():
        g_epochs, g_history, g_evaluated, g_weights, g_iterations = got[name]
        assert g_epochs == epochs and g_iterations == iterations, name
        assert set(g_history) == set(history) and set(g_evaluated) == set(evaluated), name
        for key in history:
            np.testing.assert_allclose(g_history[key], history[key], rtol=1e-5, atol=1e-6, err_msg=f"{name}: {key}")
        for key in evaluated:
            np.testing.assert_allclose(g_evaluated[key], evaluated[key], rtol=1e-5, atol=1e-6, err_msg=f"{name}: {key}")
        for g, w in zip(g_weights, weights):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=name)
