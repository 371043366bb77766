"""A model's output mask reaches its compiled loss and metrics: padded timesteps do not count, as in Keras.

Before, Sequential and Functional models computed their layers' masks but dropped the output's, so a model over
padded sequences (``Embedding(mask_zero=True)`` then layers that pass the mask on) averaged its loss and metrics
over the padding too, and trained on it. Keras 3 is the oracle for the losses, the metrics of ``evaluate`` and the
weights after ``fit``; the metrics of ``fit`` must equal ``evaluate``'s on the same weights (Keras on JAX leaves
the mask out of its training metrics, on PyTorch and TensorFlow it does not: we follow the latter).
"""

import functools
import os
import warnings

import numpy as np
import pytest

import highlevel as hl
from highlevel.masking import get_keras_mask, set_keras_mask

TOKENS = np.array([[3, 1, 2, 0, 0], [4, 4, 0, 0, 0], [1, 2, 3, 4, 1], [2, 0, 0, 0, 0]], "int32")
Y = np.random.default_rng(0).normal(size=(4, 5, 1)).astype("float32")
RNG = np.random.default_rng(1)
WEIGHTS = [RNG.normal(size=(5, 3)).astype("float32"), RNG.normal(size=(3, 1)).astype("float32"),
           RNG.normal(size=(1,)).astype("float32")]


def models(lib):
    sequential = lib.Sequential([lib.Input((5,), dtype="int32"), lib.layers.Embedding(5, 3, mask_zero=True),
                                 lib.layers.Dense(1)])
    inputs = lib.Input((5,), dtype="int32")
    functional = lib.Model(inputs, lib.layers.Dense(1)(lib.layers.Embedding(5, 3, mask_zero=True)(inputs)))
    for model in (sequential, functional):
        model.set_weights(WEIGHTS)
    return {"sequential": sequential, "functional": functional}


def run(lib, **compile_kwargs):
    out = {}
    for name, model in models(lib).items():
        model.compile(optimizer=lib.optimizers.SGD(0.1), loss="mse", metrics=["mae"], **compile_kwargs)
        evaluated = model.evaluate(TOKENS, Y, verbose=0, return_dict=True)
        history = model.fit(TOKENS, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
        out[name] = (evaluated, history.history, [np.array(w) for w in model.get_weights()])
    return out


@functools.lru_cache(maxsize=None)
def keras_results():
    os.environ.setdefault("KERAS_BACKEND", "jax")  # only decides which engine Keras loads, if it is not loaded yet
    keras = pytest.importorskip("keras")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run(keras)


def test_padding_counts_in_neither_loss_nor_metrics(backend, step_mode):
    want = keras_results()
    got = run(hl, **step_mode)
    keep = TOKENS != 0
    for name in ("sequential", "functional"):
        (k_eval, k_history, k_weights), (evaluated, history, weights) = want[name], got[name]
        np.testing.assert_allclose([evaluated["loss"], evaluated["mae"]], [k_eval["loss"], k_eval["mae"]], rtol=1e-5)
        np.testing.assert_allclose(history["loss"], k_history["loss"], rtol=1e-5)
        for w, k in zip(weights, k_weights):
            np.testing.assert_allclose(w, k, rtol=1e-5, atol=1e-6)
        # the first epoch's metric is computed on the weights evaluate saw (one batch)
        np.testing.assert_allclose(history["mae"][0], evaluated["mae"], rtol=1e-5)
    # what the case is about: over all timesteps the numbers differ
    embedding, kernel, bias = WEIGHTS
    error = (embedding[TOKENS] @ kernel + bias - Y)[..., 0]
    np.testing.assert_allclose(want["sequential"][0]["loss"], np.mean(error[keep] ** 2), rtol=1e-5)
    assert abs(np.mean(error ** 2) - np.mean(error[keep] ** 2)) > 0.05


def test_the_mask_lives_as_long_as_its_tensor(backend):
    out = hl.ops.ones((2, 3))
    mask = hl.ops.convert_to_tensor(np.array([[True, False, True], [True, True, False]]))
    set_keras_mask(out, mask)
    assert get_keras_mask(out) is mask
    set_keras_mask(out, None)
    assert get_keras_mask(out) is None
    set_keras_mask(out, mask)
    key = id(out)
    del out
    from highlevel import masking

    assert key not in masking._masks
    set_keras_mask(3.0, mask)  # a Python number carries no mask
    assert get_keras_mask(3.0) is None
