"""``hl.dtype_policies``: names parsed as Keras parses them, configs equal to Keras's, round trips, the map's
lookup rules, and layers carrying a quantized policy through their config. (Policies hold no tensors; one engine.)"""

import json

import pytest

import highlevel as hl
from highlevel import dtype_policies as P

NAMES = [
    "float32",
    "mixed_bfloat16",
    "int8_from_float32",
    "int8_from_mixed_bfloat16",
    "int4_from_float32",
    "int4/128_from_float32",
    "int4/-1_from_mixed_bfloat16",
    "float8_from_float32",
    "float8_from_mixed_bfloat16",
    "gptq/4/128_from_float32",
    "gptq/8/-1_from_bfloat16",
    "awq/4/64_from_float32",
]


@pytest.fixture(autouse=True)
def _default_policy():
    hl.mixed_precision.set_dtype_policy(None)
    yield
    hl.mixed_precision.set_dtype_policy(None)


def _summary(policy):
    return (
        type(policy).__name__.replace("FloatDTypePolicy", "DTypePolicy"),
        policy.name,
        policy.compute_dtype,
        policy.variable_dtype,
        policy.quantization_mode,
        policy.get_config(),
    )


@pytest.mark.parametrize("name", NAMES)
def test_names_parse_as_keras_and_round_trip(keras, name):
    ours = P.get(name)
    assert _summary(ours) == _summary(keras.dtype_policies.get(name))
    assert repr(ours) == repr(keras.dtype_policies.get(name))
    assert P.deserialize(json.loads(json.dumps(P.serialize(ours)))) == ours
    assert type(ours).from_config(ours.get_config()) == ours
    # Keras's serialized form loads as the same policy.
    assert P.deserialize(keras.dtype_policies.serialize(keras.dtype_policies.get(name))) == ours
    assert hl.mixed_precision.get(name) == ours  # one parser behind both namespaces


def test_policy_attributes():
    assert P.get("int4/32_from_float32").block_size == 32
    gptq = P.get("gptq/3/64_from_float32")
    assert (gptq.weight_bits, gptq.group_size, gptq.mode) == (3, 64, "gptq")
    assert P.get("float8_from_float32").amax_history_length == 1024
    assert P.QuantizedFloat8DTypePolicy("float8", "float32", 16).amax_history_length == 16
    assert P.DTypePolicy is hl.mixed_precision.DTypePolicy is hl.DTypePolicy and P.FloatDTypePolicy is P.DTypePolicy
    assert P.DTypePolicy("float32").quantization_mode is None
    # The source defaults to the global policy.
    hl.mixed_precision.set_dtype_policy("mixed_bfloat16")
    assert P.QuantizedDTypePolicy("int8").name == "int8_from_mixed_bfloat16"


def test_equality():
    assert P.get("int8_from_float32") == P.QuantizedDTypePolicy("int8", "float32")
    assert P.get("int8_from_float32") != P.get("int4_from_float32")
    assert P.get("int8_from_float32") != P.DTypePolicy("float32")
    assert P.get("gptq/4/128_from_float32") != P.get("gptq/4/64_from_float32")
    assert len({P.get("int8_from_float32"), P.QuantizedDTypePolicy("int8", "float32")}) == 1


@pytest.mark.parametrize(
    "name,match",
    [
        ("float8", "'<mode>_from_<source>'"),
        ("int8_from_nothing", "Cannot convert 'nothing'"),
        ("int8_from_float16", "compute_dtype 'float16'"),
        ("int3_from_float32", "Cannot convert 'int3_from_float32'"),
        ("int4/0_from_float32", "block_size 0"),
        ("int4/x_from_float32", "must be integers"),
        ("gptq/5/128_from_float32", "weight_bits 5.*2, 3, 4 and 8"),
        ("gptq/4_from_float32", "'gptq/<weight_bits>/<group_size>'"),
        ("awq/8/128_from_float32", "4 bits only"),
        ("awq/4/-2_from_float32", "group_size -2"),
    ],
)
def test_bad_names(name, match):
    with pytest.raises(ValueError, match=match):
        P.get(name)


def test_bad_arguments():
    with pytest.raises(ValueError, match="Invalid quantization mode 'int2'"):
        P.QuantizedDTypePolicy("int2", "float32")
    with pytest.raises(TypeError, match="amax_history_length.*'16'"):
        P.QuantizedFloat8DTypePolicy("float8", "float32", "16")
    with pytest.raises(ValueError, match="Unknown dtype policy class 'Nope'"):
        P.deserialize({"class_name": "Nope", "config": {}})
    with pytest.raises(ValueError, match="serialized dtype policy"):
        P.deserialize([1])
    with pytest.raises(TypeError, match="takes a DTypePolicy; received 'float32'"):
        P.serialize("float32")


def test_policy_map_lookup_matches_keras(keras):
    def build(module):
        policies = module.dtype_policies.DTypePolicyMap(default_policy="float32")
        policies["encoder/layer_0/dense"] = "bfloat16"
        policies["encoder/.*"] = "float16"
        policies["decoder"] = "int8_from_float32"
        return policies

    ours, theirs = build(hl), build(keras)
    for path in ["encoder/layer_0/dense", "encoder/attention/query", "decoder", "decoder/attention", "head"]:
        assert ours[path].name == theirs[path].name
    assert (ours.name, ours.compute_dtype, ours.quantization_mode, len(ours)) == (
        theirs.name,
        theirs.compute_dtype,
        theirs.quantization_mode,
        len(theirs),
    )
    assert "decoder" in ours and "decoder/attention" not in ours and sorted(ours) == sorted(theirs)
    ours["encoder/attention/.*"] = "bfloat16"
    with pytest.raises(ValueError, match="'encoder/attention/query' matches more than one key"):
        ours["encoder/attention/query"]
    with pytest.raises(ValueError, match="'decoder' is already in the DTypePolicyMap"):
        ours["decoder"] = "float32"
    del ours["decoder"]
    assert ours["decoder"].name == "float32"
    with pytest.raises(ValueError, match="Cannot use 'int8_from_nothing'.*'x'"):
        ours["x"] = "int8_from_nothing"
    with pytest.raises(ValueError, match="default_policy cannot be a DTypePolicyMap"):
        P.DTypePolicyMap(ours)
    with pytest.raises(TypeError, match="policy_map must be a dict.*list"):
        P.DTypePolicyMap(None, [])


def test_policy_map_round_trips():
    policies = P.DTypePolicyMap("mixed_bfloat16", {"a/dense": "int4/64_from_mixed_bfloat16", "b/.*": "float32"})
    rebuilt = P.deserialize(json.loads(json.dumps(P.serialize(policies))))
    assert isinstance(rebuilt, P.DTypePolicyMap) and rebuilt == policies
    assert rebuilt["a/dense"].block_size == 64 and rebuilt["b/x"].name == "float32"
    # Without a default, the map follows the global policy.
    follows = P.DTypePolicyMap()
    hl.mixed_precision.set_dtype_policy("mixed_float16")
    assert follows.compute_dtype == "float16" and follows.name == "map_mixed_float16"


def test_layer_keeps_a_quantized_policy_through_its_config():
    layer = hl.layers.Dense(3, dtype="int8_from_mixed_bfloat16")
    assert isinstance(layer.dtype_policy, P.QuantizedDTypePolicy)
    assert (layer.compute_dtype, layer.variable_dtype, layer.dtype_policy.quantization_mode) == (
        "bfloat16",
        "float32",
        "int8",
    )
    again = hl.layers.Dense.from_config(json.loads(json.dumps(layer.get_config())))
    assert again.dtype_policy == layer.dtype_policy


def test_layer_keeps_a_policy_map_through_its_config():
    policies = P.DTypePolicyMap("mixed_bfloat16", {"block/dense": "int8_from_mixed_bfloat16"})
    layer = hl.layers.Dense(3, dtype=policies)
    assert layer.compute_dtype == "bfloat16" and layer.dtype_policy["block/dense"].quantization_mode == "int8"
    again = hl.layers.Dense.from_config(json.loads(json.dumps(layer.get_config())))
    assert isinstance(again.dtype_policy, P.DTypePolicyMap) and again.dtype_policy == policies


@pytest.mark.parametrize("name", NAMES)
def test_keras_archive_spelling_both_ways(keras, name):
    from highlevel.saving import keras_config

    dense = {"module": "highlevel.layers.core.dense", "class_name": "Dense", "config": {"units": 2, "dtype": name}}
    written = keras_config.object_to_keras(dense)["config"]["dtype"]
    assert keras.dtype_policies.deserialize(written) == keras.dtype_policies.get(name)
    assert keras_config.object_from_keras(keras_config.object_to_keras(dense))["config"]["dtype"] == name
    # What Keras itself writes reads back as the same name.
    from_keras = {"module": "keras.layers", "class_name": "Dense", "config": {"units": 2, "dtype": None}}
    from_keras["config"]["dtype"] = keras.dtype_policies.serialize(keras.dtype_policies.get(name))
    assert keras_config.object_from_keras(from_keras)["config"]["dtype"] == name
