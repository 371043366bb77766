"""The one promotion table: its lattice properties and Keras-compatible cases."""

import itertools

import numpy as np
import pytest

from highlevel.backends.contract import dtypes

ALL = dtypes.ALLOWED_DTYPES


@pytest.mark.parametrize(
    "a,b,expected",
    [
        ("int32", "float16", "float16"),
        ("int64", "float32", "float32"),
        ("int8", "uint8", "int16"),
        ("uint32", "int32", "int64"),
        ("uint64", "int64", "float32"),
        ("bool", "int8", "int8"),
        ("bfloat16", "float16", "float32"),
        ("float32", "float64", "float64"),
        ("bool", "bool", "bool"),
        ("float16", float, "float16"),
        ("int8", int, "int8"),
        ("int32", float, "float32"),
        ("bool", int, "int32"),
        (int, float, "float32"),
        (int, int, "int32"),
        ("uint8", 3, "uint8"),
        ("float32", 2.0, "float32"),
        # complex numbers, as JAX and Keras: the complex dtype wide enough for both parts
        ("float32", "complex64", "complex64"),
        ("float64", "complex64", "complex128"),
        ("int32", "complex64", "complex64"),
        ("int64", "complex128", "complex128"),
        ("float16", "complex64", "complex64"),
        ("bool", "complex64", "complex64"),
        ("complex64", 2.0, "complex64"),
        ("complex64", 3, "complex64"),
        ("float32", 1j, "complex64"),
        ("float64", 1j, "complex128"),
        ("int8", 1j, "complex64"),
        (complex, float, "complex64"),
    ],
)
def test_known_pairs(a, b, expected):
    assert dtypes.result_type(a, b) == expected


@pytest.mark.parametrize("a,b", list(itertools.combinations_with_replacement(ALL, 2)))
def test_commutative_and_idempotent(a, b):
    assert dtypes.result_type(a, b) == dtypes.result_type(b, a)
    assert dtypes.result_type(a, a) == a


def test_lattice_join_is_associative():
    # Associativity holds on the lattice itself; a materialized result can differ (uint64 + int8 resolves the
    # weak float to float32 before it meets float16), exactly as in JAX.
    nodes = list(ALL) + ["i*", "f*", "c*"]
    for a, b, c in itertools.product(nodes, repeat=3):
        assert dtypes._lub(dtypes._lub(a, b), c) == dtypes._lub(a, dtypes._lub(b, c))


def test_numpy_and_framework_names_are_standardized():
    assert dtypes.standardize_dtype(np.dtype("float64")) == "float64"
    assert dtypes.standardize_dtype("torch.int64") == "int64"
    assert dtypes.standardize_dtype("<dtype: 'bfloat16'>") == "bfloat16"
    assert dtypes.standardize_dtype(np.complex64) == "complex64"
    assert dtypes.standardize_dtype("torch.complex128") == "complex128"
    with pytest.raises(ValueError, match="Unsupported dtype 'complex32'"):
        dtypes.standardize_dtype("complex32")


def test_numpy_scalars_are_strong_python_scalars_weak():
    assert dtypes.result_type("float32", np.float64(2.0)) == "float64"
    assert dtypes.result_type("float32", 2.0) == "float32"
    assert dtypes.result_type("int8", np.int64(3)) == "int64"
    assert dtypes.result_type("int8", 3) == "int8"
