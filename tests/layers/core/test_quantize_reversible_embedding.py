"""Quantizing ReversibleEmbedding (int8, int4 per channel and in groups; tied and separate reverse matrix): the
lookup and the reverse projection compute what Keras 3's quantized layer does from the same float weights, and
quantized models save and load (also to and from Keras)."""

import importlib.util
import warnings

import numpy as np
import pytest

import highlevel as hl

from .keras_gc import MadeOnce, young_collections_only
from .keras_oracle import keras_module, to_numpy

needs_keras = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="the Keras oracle (keras) is not installed"
)

VOCAB, DIM = 12, 10
# name: (mode, int4 block size)
MODES = {"int8": ("int8", None), "int4_per_channel": ("int4", None), "int4_groups_of_4": ("int4", 4)}
CASES = [(tie, mode) for tie in (True, False) for mode in MODES]


def _layer(module, tie):
    layer = module.layers.ReversibleEmbedding(VOCAB, DIM, tie_weights=tie)
    layer.build()
    rng = np.random.default_rng(2)
    layer.set_weights([rng.normal(scale=0.5, size=tuple(w.shape)).astype("float32") for w in layer.weights])
    return layer


def _quantize(module, target, mode):
    kind, block_size = MODES[mode]
    if kind == "int4":
        target.quantize(config=module.quantizers.Int4QuantizationConfig(block_size=block_size))
    else:
        target.quantize(kind)


def _data():
    rng = np.random.default_rng(3)
    ids = rng.integers(0, VOCAB, size=(3, 5)).astype("int32")
    vectors = rng.normal(size=(3, 5, DIM)).astype("float32")
    return ids, vectors


@pytest.fixture(scope="module")
def keras_reference():
    keras = keras_module()
    ids, vectors = _data()
    out = {}
    with young_collections_only():
        for tie, mode in CASES:
            layer = _layer(keras, tie)
            _quantize(keras, layer, mode)
            variables = {w.name: np.asarray(w.numpy()) for w in layer.weights}
            out[tie, mode] = (variables, np.asarray(layer(ids)), np.asarray(layer(vectors, reverse=True)))
            out[tie, mode] += (layer.dtype_policy.name,)
    return out


@pytest.mark.parametrize("tie, mode", CASES)
def test_quantized_reverse_projection_stays_close_to_the_float_one(backend, tie, mode):
    import highlevel.quantizers  # noqa: F401

    layer = _layer(hl, tie)
    ids, vectors = _data()
    float_lookup, float_logits = to_numpy(layer(ids)), to_numpy(layer(vectors, reverse=True))
    _quantize(hl, layer, mode)
    assert layer.embeddings.dtype == "int8" and (tie or layer.reverse_embeddings.dtype == "int8")
    bound = 0.03 if mode == "int8" else 0.25
    for got, expected in ((layer(ids), float_lookup), (layer(vectors, reverse=True), float_logits)):
        error = np.linalg.norm(to_numpy(got) - expected) / np.linalg.norm(expected)
        assert 0 < error < bound, error


@needs_keras
@pytest.mark.parametrize("tie, mode", CASES)
def test_quantized_reversible_embedding_matches_keras(backend, tie, mode, keras_reference):
    import highlevel.quantizers  # noqa: F401

    variables, lookup, logits, policy = keras_reference[tie, mode]
    layer = _layer(hl, tie)
    _quantize(hl, layer, mode)
    assert layer.dtype_policy.name == policy
    ours = {w.name: w.numpy() for w in layer.weights}
    assert sorted(ours) == sorted(variables)
    for name, value in variables.items():
        assert ours[name].shape == value.shape and ours[name].dtype == value.dtype, name
        if value.dtype == np.int8:
            assert np.mean(ours[name] != value) < 0.01 and np.abs(ours[name] - value.astype(int)).max() <= 1, name
        else:
            np.testing.assert_allclose(ours[name], value, rtol=1e-5, err_msg=name)
    ids, vectors = _data()
    np.testing.assert_allclose(to_numpy(layer(ids)), lookup, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(to_numpy(layer(vectors, reverse=True)), logits, rtol=1e-3, atol=1e-3)


def _tied_model(module, tie, mode):
    inputs = module.Input((5,), dtype="int32")
    layer = module.layers.ReversibleEmbedding(VOCAB, DIM, tie_weights=tie, name="rev")
    outputs = layer(module.layers.Dense(DIM, name="mix")(layer(inputs)), reverse=True)
    model = module.Model(inputs, outputs)
    rng = np.random.default_rng(4)
    model.set_weights([rng.normal(scale=0.5, size=tuple(w.shape)).astype("float32") for w in model.weights])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if MODES[mode][0] == "int4":
            model.quantize(config=module.quantizers.Int4QuantizationConfig(block_size=MODES[mode][1]))
        else:
            model.quantize("int8")
    return model


@pytest.mark.parametrize("tie, mode", [(False, "int4_groups_of_4"), (True, "int8")])
def test_quantized_model_saves_and_loads_the_same_predictions(backend, tmp_path, tie, mode):
    import highlevel.quantizers  # noqa: F401

    model = _tied_model(hl, tie, mode)
    ids, _ = _data()
    expected = to_numpy(model.predict(ids, verbose=0))
    model.save(tmp_path / "q.keras")
    loaded = hl.saving.load_model(tmp_path / "q.keras")
    assert loaded.get_layer("rev").quantization_mode == MODES[mode][0]
    np.testing.assert_allclose(to_numpy(loaded.predict(ids, verbose=0)), expected, rtol=1e-6, atol=1e-6)
    model.save_weights(tmp_path / "q.weights.h5")
    other = hl.saving.load_model(tmp_path / "q.keras")
    other.set_weights([np.zeros(tuple(w.shape), w.dtype) for w in other.weights])
    other.load_weights(tmp_path / "q.weights.h5")
    np.testing.assert_allclose(to_numpy(other.predict(ids, verbose=0)), expected, rtol=1e-6, atol=1e-6)


@pytest.fixture(scope="module")
def keras_files(tmp_path_factory):
    """``files[tie, mode]``: Keras's quantized file of that model and its outputs, made once for every backend."""

    def make(case):
        tie, mode = case
        path = tmp_path_factory.mktemp(f"keras_{tie}_{mode}") / "from_keras.keras"
        theirs = _tied_model(keras_module(), tie, mode)
        expected = np.asarray(theirs(_data()[0]))
        theirs.save(path)
        return path, expected

    return MadeOnce(make)


@needs_keras
@pytest.mark.parametrize("tie, mode", [(False, "int4_groups_of_4"), (False, "int8"), (True, "int4_per_channel")])
def test_quantized_keras_files_move_both_ways(backend, tmp_path, tie, mode, keras_files):
    import highlevel.quantizers  # noqa: F401

    keras = keras_module()
    ids, _ = _data()
    path, expected = keras_files[tie, mode]
    ours = hl.saving.load_model(path)
    assert ours.get_layer("rev").quantization_mode == MODES[mode][0]
    np.testing.assert_allclose(to_numpy(ours(ids)), expected, rtol=1e-4, atol=1e-4)
    ours = _tied_model(hl, tie, mode)
    ours.save(tmp_path / "from_highlevel.keras")
    with young_collections_only():
        back = keras.saving.load_model(tmp_path / "from_highlevel.keras")
    np.testing.assert_allclose(np.asarray(back(ids)), to_numpy(ours(ids)), rtol=1e-4, atol=1e-4)


def test_modes_it_does_not_implement_are_refused(backend):
    layer = _layer(hl, False)
    with pytest.raises(NotImplementedError, match=r"ReversibleEmbedding.*'float8'"):
        layer.quantize("float8")
    assert layer.reverse_embeddings.dtype == "float32"  # nothing was replaced

    class MyEmbedding(hl.layers.ReversibleEmbedding):
        pass

    sub = MyEmbedding(4, 2)
    sub.build()
    with pytest.raises(NotImplementedError, match="MyEmbedding"):
        sub.quantize("int8")
