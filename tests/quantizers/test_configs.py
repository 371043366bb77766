"""Quantizers and quantization configs as objects: constructor checks, configs equal to Keras's, and the round
trips through ``get_config``/``from_config`` and ``serialize``/``deserialize``/``get``. (They hold no tensors, so
they run once, not per engine.)"""

import json

import pytest

import highlevel as hl
from highlevel import quantizers as Q


def _make(module, name):
    Q_ = module.quantizers
    return {
        "abs_max": lambda: Q_.AbsMaxQuantizer(axis=0, value_range=(-8, 7)),
        "int8": lambda: Q_.Int8QuantizationConfig(),
        "int8_weight_only": lambda: Q_.Int8QuantizationConfig(Q_.AbsMaxQuantizer(), None),
        "int4": lambda: Q_.Int4QuantizationConfig(block_size=64),
        "int4_per_channel": lambda: Q_.Int4QuantizationConfig(Q_.AbsMaxQuantizer(value_range=(-8, 7)), None, None),
        "float8": lambda: Q_.Float8QuantizationConfig(),
        "gptq": lambda: Q_.GPTQConfig(None, None, weight_bits=3, group_size=-1, symmetric=True),
        "awq": lambda: Q_.AWQConfig(None, None, group_size=32, num_grid_points=5),
    }[name]()


NAMES = ["abs_max", "int8", "int8_weight_only", "int4", "int4_per_channel", "float8", "gptq", "awq"]


def _plain(value):
    """A config as plain JSON values (tuples as lists; Keras's serialized quantizers reduced to class and config)."""
    if isinstance(value, dict):
        if "class_name" in value and "config" in value:
            return {"class_name": value["class_name"], "config": _plain(value["config"])}
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _keras_plain(keras, value):
    # Keras writes tuples as {"class_name": "__tuple__", "config": {"value": [...]}}.
    if isinstance(value, dict):
        if value.get("class_name") == "__tuple__":
            return [_keras_plain(keras, v) for v in value["config"]["value"]]
        if "class_name" in value and "config" in value:
            return {"class_name": value["class_name"], "config": _keras_plain(keras, value["config"])}
        return {k: _keras_plain(keras, v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_keras_plain(keras, v) for v in value]
    return value


@pytest.mark.parametrize("name", NAMES)
def test_config_matches_keras_and_round_trips(keras, name):
    ours, expected = _make(hl, name), _make(keras, name)
    assert getattr(ours, "mode", None) == getattr(expected, "mode", None)
    assert _plain(ours.get_config()) == _keras_plain(keras, expected.get_config())
    again = type(ours).from_config(ours.get_config())
    assert again == ours and again.get_config() == ours.get_config()
    # Through JSON (tuples become lists) and the namespace functions.
    text = json.dumps(Q.serialize(ours))
    rebuilt = Q.deserialize(json.loads(text))
    assert type(rebuilt) is type(ours) and rebuilt == ours
    # A Keras-serialized object loads as the same object.
    from_keras = Q.deserialize(keras.quantizers.serialize(expected))
    assert type(from_keras) is type(ours) and from_keras == ours


def test_get_by_name_dict_and_instance():
    assert isinstance(Q.get("AbsMaxQuantizer"), Q.AbsMaxQuantizer)
    assert Q.get("abs_max_quantizer", value_range=(-8, 7)).value_range == (-8, 7)
    assert Q.get("int4_quantization_config", block_size=16).block_size == 16
    config = Q.Float8QuantizationConfig()
    assert Q.get(config) is config and Q.get(None) is None
    assert Q.get(Q.serialize(Q.AbsMaxQuantizer(axis=1))).axis == (1,)
    with pytest.raises(ValueError, match="Could not interpret quantizer identifier 'nope'"):
        Q.get("nope")
    with pytest.raises(ValueError, match="Unknown quantizer class 'Nope'"):
        Q.deserialize({"class_name": "Nope", "config": {}})
    with pytest.raises(TypeError, match="Quantizer or a QuantizationConfig.*int"):
        Q.serialize(3)
    assert hl.Quantizer is Q.Quantizer


def test_custom_quantizer_through_custom_objects():
    class Halving(Q.Quantizer):
        def __call__(self, x):
            return hl.ops.cast(x / 2, self.output_dtype), 0.5

        def get_config(self):
            return {"output_dtype": self.output_dtype}

    config = Q.serialize(Q.Int8QuantizationConfig(weight_quantizer=Halving()))
    with pytest.raises(ValueError, match="Unknown quantizer class 'Halving'"):
        Q.deserialize(config)
    rebuilt = Q.deserialize(config, custom_objects={"Halving": Halving})
    assert type(rebuilt.weight_quantizer) is Halving and rebuilt.activation_quantizer == Q.AbsMaxQuantizer()


@pytest.mark.parametrize(
    "build,error,match",
    [
        (lambda: Q.AbsMaxQuantizer(value_range=(-200, 127)), ValueError, r"within \[-128, 127\].*-200"),
        (lambda: Q.AbsMaxQuantizer(value_range=5), ValueError, "pair.*value_range=5"),
        (lambda: Q.Quantizer().get_config(), NotImplementedError, "Quantizer does not implement get_config"),
        (lambda: Q.QuantizationConfig().mode, NotImplementedError, "Int8QuantizationConfig"),
        (lambda: Q.QuantizationConfig("w"), TypeError, "weight_quantizer must be a Quantizer.*'w'"),
        (
            lambda: Q.Int8QuantizationConfig(Q.AbsMaxQuantizer(value_range=(-8, 7), output_dtype="int16")),
            ValueError,
            "output_dtype='int8'.*int16",
        ),
        (lambda: Q.Int4QuantizationConfig(block_size=0), ValueError, "block_size.*positive.*block_size=0"),
        (lambda: Q.Int4QuantizationConfig(Q.AbsMaxQuantizer(value_range=(-8, 7))), ValueError, "sub-channel"),
        (
            lambda: Q.Int4QuantizationConfig(Q.AbsMaxQuantizer(), None, block_size=None),
            ValueError,
            r"value_range=\(-8, 7\).*-127",
        ),
        (lambda: Q.GPTQConfig(None, None, weight_bits=5), ValueError, "2, 3, 4 and 8.*5"),
        (lambda: Q.GPTQConfig(None, None, num_samples=0), ValueError, "num_samples.*positive.*0"),
        (lambda: Q.GPTQConfig(None, None, hessian_damping=2.0), ValueError, r"\[0, 1\].*2.0"),
        (lambda: Q.GPTQConfig(None, None, group_size=0), ValueError, "group_size.*-1.*0"),
        (lambda: Q.AWQConfig(None, None, weight_bits=8), ValueError, "4-bit.*8"),
        (lambda: Q.AWQConfig(None, None, num_grid_points=0), ValueError, "num_grid_points.*0"),
    ],
)
def test_bad_arguments(build, error, match):
    with pytest.raises(error, match=match):
        build()


def test_validate_and_resolve_config():
    resolve = Q.validate_and_resolve_config
    assert isinstance(resolve("int8", None), Q.Int8QuantizationConfig)
    assert resolve(None, "int4").block_size == 128
    gptq = Q.GPTQConfig(None, None)
    assert resolve("gptq", gptq) is gptq and resolve(None, gptq) is gptq
    with pytest.raises(ValueError, match="Contradictory.*'int8'.*'float8'"):
        resolve("int8", Q.Float8QuantizationConfig())
    with pytest.raises(ValueError, match="calibration data.*GPTQConfig"):
        resolve("gptq", None)
    with pytest.raises(ValueError, match="Invalid quantization mode 'int3'"):
        resolve("int3", None)
    with pytest.raises(ValueError, match="QuantizationConfig.*dict"):
        resolve("int8", {})
    assert Q.QUANTIZATION_MODES == ("int8", "float8", "int4", "gptq", "awq")
