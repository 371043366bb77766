"""``sample_weight`` and ``class_weight`` change the loss, the gradients and the weighted metrics as in Keras.

Real Keras 3 is the oracle: the same initial weights, the same data, plain SGD. Compared are the loss and
metrics ``train_on_batch`` reports and the weights after it (1-D sample weights, some zero, all zero, a
``class_weight`` dict), and two epochs of ``fit`` with weighted validation data (history and final weights).
Keras runs once per process (its backend is whichever it was imported with: the numbers do not depend on it);
our side runs on every engine and in every step mode.
"""

import functools
import os
import warnings

import numpy as np
import pytest

import highlevel as hl

RNG = np.random.default_rng(0)
X = RNG.normal(size=(8, 3)).astype("float32")
Y = np.array([0, 1, 2, 1, 0, 2, 2, 1])
SW = RNG.uniform(0.2, 2.0, size=8).astype("float32")
SOME_ZERO = np.where(np.isin(np.arange(8), [1, 4, 5]), 0.0, SW).astype("float32")
KERNEL = (RNG.normal(size=(3, 3)) * 0.5).astype("float32")
BIAS = (RNG.normal(size=(3,)) * 0.1).astype("float32")

CASES = {
    "unweighted": {},
    "sample_weight": {"sample_weight": SW},
    "some_zero": {"sample_weight": SOME_ZERO},
    "all_zero": {"sample_weight": np.zeros(8, "float32")},
    "class_weight": {"class_weight": {0: 0.5, 1: 2.0, 2: 1.5}},
}


def run(lib, **compile_kwargs):
    """Every case on one model (the weights put back before each): ``{case: (logs, weights)}``."""
    model = lib.Sequential([lib.Input((3,)), lib.layers.Dense(3, activation="softmax")])
    model.compile(
        optimizer=lib.optimizers.SGD(0.5),
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
        weighted_metrics=["accuracy"],
        **compile_kwargs,
    )
    out = {}
    for case, kwargs in CASES.items():
        model.layers[0].set_weights([KERNEL, BIAS])
        logs = model.train_on_batch(X, Y, return_dict=True, **kwargs)
        out[case] = ({k: float(v) for k, v in logs.items()}, [np.array(w) for w in model.get_weights()])
    model.layers[0].set_weights([KERNEL, BIAS])
    history = model.fit(
        X, Y, sample_weight=SW, batch_size=4, epochs=2, shuffle=False, verbose=0, validation_data=(X, Y, SOME_ZERO)
    )
    out["fit"] = (
        {k: [float(v) for v in vs] for k, vs in history.history.items()},
        [np.array(w) for w in model.get_weights()],
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


def test_weighted_training_matches_keras(backend, step_mode):
    want = keras_results()
    got = run(hl, **step_mode)
    for case, (want_logs, want_weights) in want.items():
        logs, weights = got[case]
        assert set(logs) == set(want_logs), (case, sorted(logs), sorted(want_logs))
        for key in want_logs:
            np.testing.assert_allclose(logs[key], want_logs[key], rtol=1e-5, atol=1e-6, err_msg=f"{case}: {key}")
        for w, k in zip(weights, want_weights):
            np.testing.assert_allclose(w, k, rtol=1e-5, atol=1e-6, err_msg=case)
    # the cases differ from each other: a weight that had no effect would not pass unnoticed
    losses = {case: got[case][0]["loss"] for case in CASES}
    assert len({round(v, 5) for v in losses.values()}) == len(CASES) and losses["all_zero"] == 0.0
    np.testing.assert_array_equal(got["all_zero"][1][0], KERNEL)  # nothing to learn from: the weights stay
