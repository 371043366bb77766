"""ReversibleEmbedding vs Keras 3: lookups and reverse logits (tied, untied, soft-capped), masks, configs,
errors, and a tiny language model that learns and reloads."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers

from .keras_oracle import assert_config_round_trip, keras_module

RNG = np.random.default_rng(7)


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"tie_weights": False}, {"logit_soft_cap": 2.0}, {"tie_weights": False, "reverse_dtype": "float64"}],
)
def test_matches_keras(backend, kwargs):
    keras = keras_module()
    ids = RNG.integers(0, 6, size=(2, 3)).astype("int32")
    vectors = RNG.normal(size=(2, 3, 4)).astype("float32") * 2.0
    ours = layers.ReversibleEmbedding(6, 4, **kwargs)
    theirs = keras.layers.ReversibleEmbedding(6, 4, **kwargs)
    ours(hl.ops.convert_to_tensor(ids))
    theirs(ids)
    weights = [RNG.normal(size=tuple(w.shape)).astype("float32") for w in ours.weights]
    ours.set_weights(weights)
    theirs.set_weights(weights)
    forward = hl.ops.convert_to_numpy(ours(hl.ops.convert_to_tensor(ids)))
    np.testing.assert_allclose(forward, np.asarray(theirs(ids)), rtol=1e-6)
    logits = hl.ops.convert_to_numpy(ours(hl.ops.convert_to_tensor(vectors), reverse=True))
    want = np.asarray(theirs(vectors, reverse=True))
    assert logits.shape == want.shape == (2, 3, 6) and logits.dtype == want.dtype
    np.testing.assert_allclose(logits, want, rtol=1e-5, atol=1e-5)


def test_mask_soft_cap_and_shapes(backend):
    layer = layers.ReversibleEmbedding(5, 3, mask_zero=True, logit_soft_cap=1.5)
    ids = hl.ops.convert_to_tensor([[2, 0, 4]])
    vectors = layer(ids)
    assert hl.ops.convert_to_numpy(hl.masking.get_keras_mask(vectors)).tolist() == [[True, False, True]]
    logits = hl.ops.convert_to_numpy(layer(hl.ops.multiply(vectors, 100.0), reverse=True))
    assert np.abs(logits).max() <= 1.5
    assert hl.masking.get_keras_mask(layer(vectors, reverse=True)) is None
    assert layer.compute_output_shape((2, 7, 3), reverse=True) == (2, 7, 5)
    assert layer.compute_output_shape((2, 7)) == (2, 7, 3)
    symbolic = layer(hl.Input((4, 3)), reverse=True)
    assert tuple(symbolic.shape) == (None, 4, 5)


def test_config_and_errors(backend):
    layer = layers.ReversibleEmbedding(6, 3, tie_weights=False, logit_soft_cap=3.0, reverse_dtype="float32")
    config = layer.get_config()
    assert (config["tie_weights"], config["logit_soft_cap"], config["reverse_dtype"]) == (False, 3.0, "float32")
    assert_config_round_trip(layer, np.array([[1, 2]], "int32"))
    assert [w.path.split("/")[-1] for w in layer.weights] == ["embeddings", "reverse_embeddings"]
    with pytest.raises(ValueError, match="logit_soft_cap"):
        layers.ReversibleEmbedding(6, 3, logit_soft_cap=0)
    with pytest.raises(ValueError, match="reverse_dtype"):
        layers.ReversibleEmbedding(6, 3, reverse_dtype="int32")
    with pytest.raises(ValueError, match="output_dim=3"):
        layers.ReversibleEmbedding(6, 3)(hl.ops.ones((2, 4)), reverse=True)


def test_tied_language_model_learns_and_reloads(backend, tmp_path):
    """Predict the next token of the cycle 0 1 2 ... 7 0 1 ... with the embedding reused as output layer."""
    hl.utils.set_random_seed(0)
    tokens = np.arange(64) % 8
    x, y = tokens[:-1].reshape(-1, 1).astype("int32"), tokens[1:].reshape(-1, 1).astype("int32")

    class TinyLM(hl.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.embed = layers.ReversibleEmbedding(8, 16)
            self.mix = layers.Dense(16, activation="tanh")

        def call(self, ids):
            return self.embed(self.mix(self.embed(ids)), reverse=True)

    model = TinyLM()
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True))
    start = float(model.evaluate(x, y, verbose=0))
    model.fit(x, y, batch_size=16, epochs=30, verbose=0)
    assert float(model.evaluate(x, y, verbose=0)) < 0.5 * start
    predicted = np.argmax(model.predict(x, verbose=0), axis=-1)
    assert (predicted == y).mean() > 0.9
    assert len(model.trainable_weights) == 3  # one embedding matrix, used both ways, and the Dense

    path = str(tmp_path / "lm.weights.h5")
    model.save_weights(path)
    again = TinyLM()
    again(x[:1])
    again.load_weights(path)
    np.testing.assert_allclose(again.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6, atol=1e-6)
