"""Dtype policies: names, dtypes, the global policy, layers' ``dtype`` argument and configs."""

import pytest

import highlevel as hl
from highlevel.mixed_precision import DTypePolicy

CASES = [
    ("float32", "float32", "float32"),
    ("mixed_float16", "float16", "float32"),
    ("mixed_bfloat16", "bfloat16", "float32"),
    ("float16", "float16", "float16"),
    ("bfloat16", "bfloat16", "bfloat16"),
    ("float64", "float64", "float64"),
]


@pytest.mark.parametrize("name,compute,variable", CASES)
def test_policy_dtypes(name, compute, variable):
    policy = DTypePolicy(name)
    assert (policy.name, policy.compute_dtype, policy.variable_dtype) == (name, compute, variable)
    assert policy.is_mixed == (compute != variable)
    again = DTypePolicy.from_config(policy.get_config())
    assert again == policy and hash(again) == hash(policy)
    assert hl.mixed_precision.deserialize(hl.mixed_precision.serialize(policy)) == policy
    assert repr(policy) == f'<DTypePolicy "{name}">'


def test_bad_names():
    with pytest.raises(ValueError, match="mixed_float16"):
        DTypePolicy("mixed_float8")
    with pytest.raises(ValueError, match="dtype policy"):
        DTypePolicy("not_a_dtype")
    with pytest.raises(TypeError, match="string"):
        DTypePolicy(3)


def test_global_policy():
    mp = hl.mixed_precision
    assert mp.dtype_policy().name == "float32" and mp.global_policy().name == "float32"
    mp.set_dtype_policy("mixed_float16")
    assert mp.dtype_policy() == DTypePolicy("mixed_float16")
    assert DTypePolicy().name == "mixed_float16"  # no name: the global policy
    mp.set_global_policy(DTypePolicy("mixed_bfloat16"))
    assert mp.global_policy().compute_dtype == "bfloat16"
    assert mp.Policy is DTypePolicy
    mp.set_dtype_policy(None)
    assert mp.dtype_policy().name == "float32"


def test_layer_dtype_argument():
    dense = hl.layers.Dense(2, dtype="mixed_bfloat16")
    assert (dense.compute_dtype, dense.variable_dtype, dense.dtype) == ("bfloat16", "float32", "float32")
    assert dense.dtype_policy == DTypePolicy("mixed_bfloat16")
    dense = hl.layers.Dense(2, dtype=DTypePolicy("mixed_float16"))
    assert dense.compute_dtype == "float16"
    dense = hl.layers.Dense(2, dtype="float64")
    assert (dense.compute_dtype, dense.variable_dtype) == ("float64", "float64")
    dense.dtype_policy = "mixed_float16"
    assert dense.compute_dtype == "float16"


def test_layers_take_the_global_policy():
    hl.mixed_precision.set_dtype_policy("mixed_float16")
    dense = hl.layers.Dense(2)
    assert (dense.compute_dtype, dense.variable_dtype) == ("float16", "float32")
    assert hl.layers.Dense(2, dtype="float32").compute_dtype == "float32"  # an explicit dtype wins


@pytest.mark.parametrize("name", ["mixed_float16", "mixed_bfloat16", "float32"])
def test_layer_config_round_trip(name):
    dense = hl.layers.Dense(3, dtype=name)
    config = dense.get_config()
    assert config["dtype"] == name
    again = hl.layers.Dense.from_config(config)
    assert again.dtype_policy == DTypePolicy(name)
    # A config dict of the policy (Keras's form) is accepted too.
    config["dtype"] = hl.mixed_precision.serialize(DTypePolicy(name))
    assert hl.layers.Dense.from_config(config).dtype_policy.name == name


def test_clear_session_restores_the_default_policy():
    hl.mixed_precision.set_dtype_policy("mixed_bfloat16")
    hl.utils.clear_session()
    assert hl.mixed_precision.dtype_policy().name == "float32"
