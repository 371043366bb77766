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
WEIGHTS = [
    RNG.normal(size=(5, 3)).astype("float32"),
    RNG.normal(size=(3, 1)).astype("float32"),
    RNG.normal(size=(1,)).astype("float32"),
]


def models(lib):
    sequential = lib.Sequential(
        [lib.Input((5,), dtype="int32"), lib.layers.Embedding(5, 3, mask_zero=True), lib.layers.Dense(1)]
    )
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
    # The engine Keras loads unless it is loaded already: TensorFlow, its default (tests/layers/core's oracle needs it).
    os.environ.setdefault("KERAS_BACKEND", "tensorflow")
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
    assert abs(np.mean(error**2) - np.mean(error[keep] ** 2)) > 0.05


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


class Tagger(hl.Model):
    """A subclassed sequence model: its layers are called one after the other, not through a graph."""

    def __init__(self):
        super().__init__()
        self.embed = hl.layers.Embedding(5, 3, mask_zero=True)
        self.rnn = hl.layers.SimpleRNN(2, return_sequences=True)
        self.head = hl.layers.Dense(1)

    def call(self, x):
        return self.head(self.rnn(self.embed(x)))


def test_masks_travel_between_layers_called_directly(backend):
    # As in Keras, the Embedding's mask goes with its output to the RNN (which then skips the padding) and on to
    # the model's output (so the loss leaves the padding out), in a subclassed model as in a Sequential one.
    hl.utils.set_random_seed(0)
    tagger = Tagger()
    tagger(TOKENS)
    graph = hl.Sequential(
        [
            hl.Input((5,), dtype="int32"),
            hl.layers.Embedding(5, 3, mask_zero=True),
            hl.layers.SimpleRNN(2, return_sequences=True),
            hl.layers.Dense(1),
        ]
    )
    graph.set_weights(tagger.get_weights())
    np.testing.assert_allclose(
        hl.ops.convert_to_numpy(tagger(TOKENS)), graph.predict(TOKENS, verbose=0), rtol=1e-5, atol=1e-6
    )
    unmasked = hl.Sequential(
        [
            hl.Input((5,), dtype="int32"),
            hl.layers.Embedding(5, 3),
            hl.layers.SimpleRNN(2, return_sequences=True),
            hl.layers.Dense(1),
        ]
    )
    unmasked.set_weights(tagger.get_weights())
    assert not np.allclose(unmasked.predict(TOKENS, verbose=0), graph.predict(TOKENS, verbose=0), atol=1e-3)
    for model in (tagger, graph):
        model.compile(optimizer=hl.optimizers.SGD(0.0), loss="mse")
    np.testing.assert_allclose(tagger.evaluate(TOKENS, Y, verbose=0), graph.evaluate(TOKENS, Y, verbose=0), rtol=1e-5)
    # a mask given to a Functional model's call reaches its layers
    inputs = hl.Input((5, 3))
    inner = hl.Model(inputs, hl.layers.SimpleRNN(2)(inputs))
    inner.set_weights(tagger.rnn.get_weights())
    x = hl.ops.convert_to_numpy(tagger.embed(TOKENS))
    keep = hl.ops.convert_to_tensor(TOKENS != 0)
    np.testing.assert_allclose(
        hl.ops.convert_to_numpy(inner(x, mask=keep)),
        hl.ops.convert_to_numpy(tagger.rnn(x, mask=keep))[:, -1],
        rtol=1e-5,
        atol=1e-6,
    )


def test_eager_outputs_carry_keras_mask_attribute(backend):
    out = hl.layers.Embedding(5, 2, mask_zero=True)(np.array([[1, 0, 2]]))
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(out._keras_mask), [[True, False, True]])
    passed = hl.layers.Dense(3)(out)  # Dense supports masking: the mask travels on
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(passed._keras_mask), [[True, False, True]])


def test_mask_reaches_a_custom_layer_while_the_graph_is_built(backend):
    seen = []

    class MaskedMean(hl.layers.Layer):
        def call(self, x, mask=None):
            seen.append(mask is not None)
            if mask is None:
                return hl.ops.mean(x, axis=1)
            weights = hl.ops.expand_dims(hl.ops.cast(mask, x.dtype), -1)
            return hl.ops.sum(x * weights, axis=1) / hl.ops.maximum(hl.ops.sum(weights, axis=1), 1.0)

    tokens = hl.Input((3,), dtype="int32")
    embedded = hl.layers.Embedding(5, 2, mask_zero=True, name="emb")(tokens)
    pooled = MaskedMean()(embedded)
    assert seen == [True]  # the symbolic build saw the mask, as in Keras
    model = hl.Model(tokens, pooled)
    ids = np.array([[1, 0, 2]], "int32")
    table = hl.ops.convert_to_numpy(model.get_layer("emb").embeddings)
    expected = (table[1] + table[2]) / 2  # the padding position is left out
    np.testing.assert_allclose(model.predict(ids, verbose=0), [expected], rtol=1e-5, atol=1e-6)
