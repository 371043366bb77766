"""LoRA on Dense, EinsumDense, Embedding and the convolutions: only the factors train, the merged weight gives the
same outputs, saving keeps predictions, and real Keras 3 computes the same with the same weights and reads and
writes the same ``.keras`` files."""

import importlib.util

import numpy as np
import pytest

import highlevel as hl

from .keras_oracle import keras_module, to_numpy

needs_keras = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None or importlib.util.find_spec("h5py") is None,
    reason="the Keras oracle (keras, h5py) is not installed",
)

RANK, ALPHA = 2, 3.0

# kind: (constructor arguments shared by highlevel and Keras, input shape without batch, integer input)
KINDS = {
    "Dense": ({"units": 3}, (4,), False),
    "EinsumDense": ({"equation": "abc,cd->abd", "output_shape": (None, 3), "bias_axes": "d"}, (2, 4), False),
    "Embedding": ({"input_dim": 6, "output_dim": 3}, (5,), True),
    "Conv2D": ({"filters": 3, "kernel_size": 2}, (4, 4, 2), False),
}
FACTORS = {"Embedding": ["lora_embeddings_a", "lora_embeddings_b"]}
BASE = {"Embedding": "embeddings"}


def _inputs(kind, batch=3, seed=1):
    _, shape, integer = KINDS[kind]
    rng = np.random.default_rng(seed)
    if integer:
        return rng.integers(0, KINDS[kind][0]["input_dim"], size=(batch, *shape)).astype("int32")
    return rng.normal(size=(batch, *shape)).astype("float32")


def _layer(module, kind, **kwargs):
    return getattr(module.layers, kind)(**KINDS[kind][0], **kwargs)


def _built(module, kind, **kwargs):
    layer = _layer(module, kind, **kwargs)
    layer.build((None, *KINDS[kind][1]))
    return layer


def _random_weights(layer, seed=2):
    """Random values (non-zero factors too) of the shapes of ``layer``'s weights, in its order."""
    rng = np.random.default_rng(seed)
    return [rng.normal(scale=0.5, size=tuple(w.shape)).astype("float32") for w in layer.weights]


def _with_lora(kind, seed=2):
    layer = _built(hl, kind)
    layer.enable_lora(RANK, lora_alpha=ALPHA)
    layer.set_weights(_random_weights(layer, seed))
    return layer


@pytest.mark.parametrize("kind", list(KINDS))
def test_trainable_weights_are_the_factors_and_the_bias(backend, kind):
    layer = _built(hl, kind)
    layer.enable_lora(RANK)
    name = layer.name
    factors = [f"{name}/{f}" for f in FACTORS.get(kind, ["lora_kernel_a", "lora_kernel_b"])]
    bias = [] if kind == "Embedding" else [f"{name}/bias"]
    assert [w.path for w in layer.trainable_weights] == bias + factors
    assert [w.path for w in layer.non_trainable_weights] == [f"{name}/{BASE.get(kind, 'kernel')}"]
    assert all(w.dtype == "float32" for w in layer.trainable_weights[len(bias) :])
    # b starts at zero: enabling LoRA does not change the output
    x = _inputs(kind)
    plain = _built(hl, kind)
    plain.set_weights(layer.get_weights()[:-2])
    np.testing.assert_allclose(to_numpy(layer(x)), to_numpy(plain(x)), atol=1e-6)


@pytest.mark.parametrize("kind", list(KINDS))
def test_output_equals_a_plain_layer_with_the_merged_weight(backend, kind):
    layer = _with_lora(kind)
    weights = layer.get_weights()
    base, rest, (a, b) = weights[0], weights[1:-2], weights[-2:]
    merged = base + (ALPHA / RANK) * np.matmul(a, b)
    plain = _built(hl, kind)
    plain.set_weights([merged, *rest])
    x = _inputs(kind)
    np.testing.assert_allclose(to_numpy(layer(x)), to_numpy(plain(x)), rtol=1e-5, atol=1e-5)
    assert not np.allclose(to_numpy(layer(x)), to_numpy(_built(hl, kind)(x)))  # the factors do change it


def test_fit_trains_only_the_factors(backend):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 4)).astype("float32")
    y = x @ rng.normal(size=(4, 2)).astype("float32")
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(2, lora_rank=2, name="d")])
    dense = model.layers[0]
    base = dense.kernel.numpy().copy()
    factors = [dense.lora_kernel_a.numpy().copy(), dense.lora_kernel_b.numpy().copy()]
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="mse")
    losses = model.fit(x, y, epochs=25, batch_size=32, verbose=0).history["loss"]
    assert losses[-1] < 0.5 * losses[0], losses
    np.testing.assert_array_equal(dense.kernel.numpy(), base)
    for before, after in zip(factors, [dense.lora_kernel_a.numpy(), dense.lora_kernel_b.numpy()]):
        assert not np.allclose(before, after)


def test_config_writes_lora_only_when_set_and_round_trips(backend):
    assert "lora_rank" not in hl.layers.Dense(2).get_config()
    config = hl.layers.Conv1D(2, 3, lora_rank=4, lora_alpha=8).get_config()
    assert (config["lora_rank"], config["lora_alpha"]) == (4, 8)
    again = hl.layers.Conv1D.from_config(config)
    again.build((None, 5, 2))
    assert again.lora_enabled and (again.lora_rank, again.lora_alpha) == (4, 8)
    assert hl.layers.Embedding(4, 2, lora_rank=3).get_config()["lora_alpha"] == 3  # None means the rank


def _lora_model():
    inputs = hl.Input((5,), dtype="int32")
    x = hl.layers.Embedding(6, 4, lora_rank=2, name="emb")(inputs)
    x = hl.layers.Conv1D(3, 2, lora_rank=2, lora_alpha=4, name="conv")(x)
    x = hl.layers.EinsumDense("abc,cd->abd", (None, 2), lora_rank=1, name="ein")(x)
    outputs = hl.layers.Dense(1, lora_rank=2, name="dense")(x)
    model = hl.Model(inputs, outputs)
    model.set_weights(_random_weights(model, seed=5))
    return model


@pytest.mark.parametrize("filename", ["m.keras", "m.hl.zip"])
def test_saving_keeps_the_predictions(backend, tmp_path, filename):
    model = _lora_model()
    x = _inputs("Embedding", batch=4)
    expected = to_numpy(model(x))
    model.save(tmp_path / filename)
    loaded = hl.saving.load_model(tmp_path / filename)
    np.testing.assert_allclose(to_numpy(loaded(x)), expected, rtol=1e-5, atol=1e-5)
    conv = loaded.get_layer("conv")
    assert conv.lora_enabled and (conv.lora_rank, conv.lora_alpha) == (2, 4)
    # the merged kernel sits in the kernel's slot and the factors restart from zero, as in Keras
    assert not np.any(conv.lora_kernel_b.numpy())
    assert not np.array_equal(conv.kernel.numpy(), model.get_layer("conv").kernel.numpy())


def test_weights_files_keep_the_predictions(backend, tmp_path):
    model = _lora_model()
    x = _inputs("Embedding", batch=4)
    model.save_weights(tmp_path / "m.weights.h5")
    other = _lora_model()
    other.load_weights(tmp_path / "m.weights.h5")
    np.testing.assert_allclose(to_numpy(other(x)), to_numpy(model(x)), rtol=1e-5, atol=1e-5)


def test_bad_uses_get_clear_errors(backend):
    with pytest.raises(ValueError, match="not built yet"):
        hl.layers.Dense(2).enable_lora(2)
    layer = _built(hl, "Dense")
    layer.enable_lora(2)
    with pytest.raises(ValueError, match="already enabled"):
        layer.enable_lora(2)
    with pytest.raises(ValueError, match="kernel_constraint"):
        _built(hl, "Conv2D", kernel_constraint="non_neg").enable_lora(2)
    with pytest.raises(ValueError, match="embeddings_constraint"):
        _built(hl, "Embedding", embeddings_constraint="non_neg").enable_lora(2)
    with pytest.raises(ValueError, match=r"positive integer.*Received: 0"):
        hl.layers.Dense(2, lora_rank=0)
    with pytest.raises(ValueError, match="lora_alpha"):
        hl.layers.Dense(2, lora_rank=2, lora_alpha="big")


# ---------------------------------------------------------------- real Keras 3 as the oracle (one run, cached)


@pytest.fixture(scope="module")
def keras_reference(tmp_path_factory):
    """Keras's outputs for each kind with LoRA on and fixed weights, and a ``.keras`` file Keras wrote with LoRA
    layers (with its predictions)."""
    keras = keras_module()
    out = {}
    for kind in KINDS:
        layer = _built(keras, kind)
        layer.enable_lora(RANK, lora_alpha=ALPHA)
        weights = _random_weights(layer)
        layer.set_weights(weights)
        x = _inputs(kind)
        out[kind] = (weights, x, np.asarray(layer(x)))
    inputs = keras.Input((4,))
    hidden = keras.layers.Dense(3, lora_rank=2, name="d1")(inputs)
    model = keras.Model(inputs, keras.layers.Dense(1, lora_rank=1, name="d2")(hidden))
    model.set_weights(_random_weights(model, seed=7))
    x = _inputs("Dense", batch=4)
    path = tmp_path_factory.mktemp("keras_lora") / "from_keras.keras"
    model.save(path)
    out["file"] = (path, x, np.asarray(model(x)))
    return out


@needs_keras
@pytest.mark.parametrize("kind", list(KINDS))
def test_outputs_match_keras_with_the_same_weights(backend, kind, keras_reference):
    weights, x, expected = keras_reference[kind]
    layer = _built(hl, kind)
    layer.enable_lora(RANK, lora_alpha=ALPHA)
    layer.set_weights(weights)
    np.testing.assert_allclose(to_numpy(layer(x)), expected, rtol=1e-5, atol=1e-5)


@needs_keras
def test_keras_files_with_lora_move_both_ways(backend, keras_reference, tmp_path):
    path, x, expected = keras_reference["file"]
    model = hl.saving.load_model(path)
    np.testing.assert_allclose(to_numpy(model(x)), expected, rtol=1e-5, atol=1e-5)
    assert model.get_layer("d1").lora_enabled and model.get_layer("d1").lora_rank == 2
    # and back: a file of ours, with trained (non-zero) factors, predicts the same in Keras
    ours = _lora_model()
    z = _inputs("Embedding", batch=4)
    ours.save(tmp_path / "from_highlevel.keras")
    theirs = keras_module().saving.load_model(tmp_path / "from_highlevel.keras")
    assert theirs.get_layer("conv").lora_enabled
    np.testing.assert_allclose(np.asarray(theirs(z)), to_numpy(ours(z)), rtol=1e-5, atol=1e-5)


def test_reversible_embedding_reverses_with_the_merged_table(backend):
    layer = hl.layers.ReversibleEmbedding(6, 3, lora_rank=2)
    layer.build()
    layer.set_weights(_random_weights(layer, seed=4))
    table, a, b = layer.get_weights()
    merged = table + np.matmul(a, b)  # lora_alpha defaults to the rank: a scale of 1
    vectors = np.random.default_rng(0).normal(size=(2, 3)).astype("float32")
    np.testing.assert_allclose(to_numpy(layer(vectors, reverse=True)), vectors @ merged.T, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(to_numpy(layer(np.array([[1, 4]], "int32"))), merged[[[1, 4]]], rtol=1e-5, atol=1e-5)
