"""A DTypePolicyMap in quantization: layers built under a map take their quantization mode (and dtypes) from
their path's entry, as in Keras; quantizing such a layer records its quantized policy in the map, and the map
survives the config, ``.keras`` (also into Keras) and ``.weights.h5``."""

import importlib.util
import warnings

import numpy as np
import pytest

import highlevel as hl

from .keras_oracle import keras_module, to_numpy

needs_keras = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="the Keras oracle (keras) is not installed"
)

ENTRIES = {"first": "int8_from_float32", "second": "int4/2_from_float32", "emb": "int4/-1_from_float32"}


def _model(module, entries):
    policies = module.dtype_policies.DTypePolicyMap()
    for path, name in entries.items():
        policies[path] = name
    inputs = module.Input((3,), dtype="int32")
    x = module.layers.Embedding(7, 4, name="emb", dtype=policies)(inputs)
    x = module.layers.Dense(5, name="first", dtype=policies)(x)
    x = module.layers.EinsumDense("abc,cd->abd", (None, 4), name="second", dtype=policies)(x)
    outputs = module.layers.Dense(2, name="last", dtype=policies)(x)
    return module.Model(inputs, outputs), policies


def _layout(model):
    return {
        layer.name: (layer.quantization_mode, sorted((w.name, tuple(w.shape), str(w.dtype)) for w in layer.weights))
        for layer in model.layers
        if layer.weights
    }


def _float_weights(model, seed=4):
    rng = np.random.default_rng(seed)
    return [rng.normal(scale=0.5, size=tuple(w.shape)).astype("float32") for w in model.weights]


def test_layers_take_their_mode_from_their_entry_in_the_map(backend):
    import highlevel.dtype_policies  # noqa: F401

    model, policies = _model(hl, ENTRIES)
    layout = _layout(model)
    assert {name: mode for name, (mode, _) in layout.items()} == {
        "emb": "int4",
        "first": "int8",
        "second": "int4",
        "last": None,
    }
    assert model.get_layer("first").dtype_policy is policies  # the layer keeps the map, as in Keras
    assert model.get_layer("first").kernel.dtype == "int8" and model.get_layer("last").kernel.dtype == "float32"
    # groups of 2 over the 5 contracted inputs of "second": 3 groups with a zero point each
    assert ("kernel_zero", (3, 4), "int8") in layout["second"][1]
    ids = np.array([[1, 2, 6], [0, 5, 3]], "int32")
    assert to_numpy(model(ids)).shape == (2, 3, 2)


@needs_keras
def test_the_layers_of_a_map_match_keras(backend):
    import highlevel.dtype_policies  # noqa: F401

    keras = keras_module()
    ours, _ = _model(hl, ENTRIES)
    theirs, _ = _model(keras, ENTRIES)
    assert _layout(ours) == _layout(theirs)


def test_setting_a_policy_on_a_layer_under_a_map_sets_its_entry(backend):
    import highlevel.dtype_policies  # noqa: F401

    model, policies = _model(hl, {})
    model.set_weights(_float_weights(model))
    ids = np.array([[1, 2, 6]], "int32")
    expected = to_numpy(model(ids))
    layer = model.get_layer("last")
    layer.dtype_policy = "int8_from_float32"  # a built layer: this quantizes it
    assert layer.dtype_policy is policies and policies["last"].name == "int8_from_float32"
    assert layer.quantization_mode == "int8" and layer.kernel.dtype == "int8"
    assert model.get_layer("first").quantization_mode is None
    got = to_numpy(model(ids))
    assert 0 < np.abs(got - expected).max() < 0.05 * np.abs(expected).max()


def test_model_quantize_records_the_modes_in_the_map_and_saving_keeps_them(backend, tmp_path):
    """Keras builds the quantized policy's name from the map's own name here and fails; highlevel quantizes
    each layer from the policy of its path and records the result in the map."""
    import highlevel.dtype_policies  # noqa: F401

    model, policies = _model(hl, {})
    model.set_weights(_float_weights(model))
    model.quantize("int8", filters=["first", "last"])
    model.quantize("int4", filters=lambda layer: layer.name == "second")
    assert sorted(policies) == ["first", "last", "second"]
    assert policies["second"].name == "int4/128_from_float32" and policies["emb"].quantization_mode is None
    ids = np.array([[1, 2, 6], [0, 5, 3]], "int32")
    expected = to_numpy(model(ids))
    # the config alone rebuilds the same quantized layers
    rebuilt = hl.Model.from_config(model.get_config())
    assert _layout(rebuilt) == _layout(model)
    model.save(tmp_path / "map.keras")
    loaded = hl.saving.load_model(tmp_path / "map.keras")
    assert isinstance(loaded.get_layer("first").dtype_policy, hl.dtype_policies.DTypePolicyMap)
    assert {layer.name: layer.quantization_mode for layer in loaded.layers if layer.weights} == {
        "emb": None,
        "first": "int8",
        "second": "int4",
        "last": "int8",
    }
    np.testing.assert_allclose(to_numpy(loaded(ids)), expected, rtol=1e-6, atol=1e-6)
    model.save_weights(tmp_path / "map.weights.h5")
    rebuilt.load_weights(tmp_path / "map.weights.h5")
    np.testing.assert_allclose(to_numpy(rebuilt(ids)), expected, rtol=1e-6, atol=1e-6)


@needs_keras
def test_a_saved_map_model_loads_in_keras(backend, tmp_path):
    import highlevel.dtype_policies  # noqa: F401

    keras = keras_module()
    model, _ = _model(hl, {})
    model.set_weights(_float_weights(model))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.quantize("int4", filters=["emb", "second"])
    model.save(tmp_path / "map.keras")
    theirs = keras.saving.load_model(tmp_path / "map.keras")
    assert type(theirs.get_layer("second").dtype_policy).__name__ == "DTypePolicyMap"
    assert [layer.quantization_mode for layer in theirs.layers[1:]] == ["int4", None, "int4", None]
    ids = np.array([[1, 2, 6], [0, 5, 3]], "int32")
    np.testing.assert_allclose(np.asarray(theirs(ids)), to_numpy(model(ids)), rtol=1e-5, atol=1e-5)


def test_a_layer_created_in_a_name_scope_takes_the_scoped_entry(backend):
    import highlevel.dtype_policies  # noqa: F401

    policies = hl.dtype_policies.DTypePolicyMap()
    policies["block/proj"] = "int8_from_float32"
    with hl.name_scope("block"):
        inside = hl.layers.Dense(2, name="proj", dtype=policies)
    outside = hl.layers.Dense(2, name="proj", dtype=policies)
    inside.build((None, 3))
    outside.build((None, 3))
    assert (inside.path, inside.quantization_mode, inside.kernel.dtype) == ("block/proj", "int8", "int8")
    assert (outside.path, outside.quantization_mode, outside.kernel.dtype) == ("proj", None, "float32")
