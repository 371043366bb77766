"""The torch backend follows the contract's promotion table, not torch's own rules."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from highlevel.backends import get  # noqa: E402
from highlevel.backends.contract import dtypes as cdt  # noqa: E402


@pytest.fixture(scope="module")
def b():
    return get("torch")


@pytest.mark.parametrize(
    "value, expected",
    [
        (1.5, "float32"),
        (2, "int32"),
        (True, "bool"),
        ([1, 2], "int32"),
        ([1.0, 2], "float32"),
        ([[True, False]], "bool"),
        ([], "float32"),
        (np.float64(2.0), "float64"),
        (np.int64(3), "int64"),
        (np.zeros(2, np.float64), "float64"),
        (np.zeros(2, np.int64), "int64"),
        (np.zeros(2, np.uint8), "uint8"),
        (np.zeros(2, np.uint16), "uint16"),
        (np.zeros(2, np.uint32), "uint32"),
        (np.zeros(2, np.uint64), "uint64"),
        ([np.float32(1.0), 2.0], "float32"),
        (2**40, "int64"),
    ],
)
def test_convert_to_tensor_defaults(b, value, expected):
    assert b.dtype(b.convert_to_tensor(value)) == expected


def test_convert_lists_of_tensors_and_variables(b):
    v = b.create_variable([1.0, 2.0])
    t = b.convert_to_tensor([torch.tensor(1.0), 2.0])
    assert b.dtype(t) == "float32" and b.to_numpy(t).tolist() == [1.0, 2.0]
    assert b.convert_to_tensor(v) is v.handle
    assert b.dtype(b.convert_to_tensor(v, "float64")) == "float64"


@pytest.mark.parametrize(
    "x_dtype, other, expected",
    [
        ("float32", 2.0, "float32"),
        ("float16", 2.0, "float16"),
        ("bfloat16", 2.0, "bfloat16"),
        ("int8", 3, "int8"),
        ("uint8", 3, "uint8"),
        ("uint16", 3, "uint16"),
        ("int32", 2.5, "float32"),  # torch would give its default dtype; the table gives floatx
        ("int64", 2.5, "float32"),
        ("bool", 1, "int32"),
        ("bool", 1.5, "float32"),
        ("float32", np.float64(2.0), "float64"),  # numpy scalars are strong
        ("int32", np.int64(2), "int64"),
    ],
)
def test_python_scalars_are_weak_numpy_scalars_strong(b, x_dtype, other, expected):
    x = b.ones((3,), x_dtype)
    assert b.dtype(b.add(x, other)) == expected
    assert b.dtype(b.multiply(other, x)) == expected


@pytest.mark.parametrize(
    "d1, d2",
    [
        ("int8", "uint8"),
        ("uint8", "int16"),
        ("bool", "int8"),
        ("int32", "float16"),
        ("int64", "bfloat16"),
        ("float16", "bfloat16"),
        ("uint32", "int32"),
        ("uint64", "int64"),
        ("uint16", "uint32"),
        ("float32", "float64"),
        ("bool", "bool"),
    ],
)
def test_tensor_pairs_follow_the_table(b, d1, d2):
    x, y = b.ones((2,), d1), b.ones((2,), d2)
    assert b.dtype(b.add(x, y)) == cdt.result_type(d1, d2)
    assert b.dtype(b.maximum(x, y)) == cdt.result_type(d1, d2)
    assert b.dtype(b.where(b.ones((2,), "bool"), x, y)) == cdt.result_type(d1, d2)
    assert b.dtype(b.concatenate([x, y])) == cdt.result_type(d1, d2)


def test_zero_dim_tensors_are_strong(b):
    # torch treats a 0-d float64 tensor as weak against a float32 tensor; the contract does not
    x = torch.ones(3, dtype=torch.float32)
    s = torch.tensor(2.0, dtype=torch.float64)
    assert b.dtype(b.multiply(x, s)) == "float64"
    assert b.dtype(b.add(x, np.array(2.0))) == "float64"


def test_bool_arithmetic(b):
    t = b.convert_to_tensor([True, False])
    assert b.to_numpy(b.add(t, t)).tolist() == [True, False]
    assert b.dtype(b.add(t, t)) == "bool"
    assert b.to_numpy(b.add(t, 1)).tolist() == [2, 1]


def test_division_and_float_math_of_ints(b):
    i = b.convert_to_tensor([1, 2, 3])
    assert b.dtype(b.divide(i, i)) == "float32"
    assert b.dtype(b.divide(b.ones((2,), "float16"), 2)) == "float16"
    for op in (b.sqrt, b.exp, b.sigmoid, b.floor, b.log1p):
        assert b.dtype(op(i)) == "float32"
    assert b.dtype(b.mean(i)) == "float32"
    assert b.dtype(b.softmax(i)) == "float32"
    assert b.dtype(b.floor_divide(i, 2)) == "int32"
    assert b.dtype(b.mod(i, 2)) == "int32"
    assert b.dtype(b.sqrt(b.ones((2,), "float64"))) == "float64"


def test_floatx_is_followed(b):
    cdt.set_floatx("float64")
    try:
        assert b.dtype(b.convert_to_tensor(1.5)) == "float64"
        assert b.dtype(b.multiply(b.convert_to_tensor([1, 2]), 2.5)) == "float64"
        assert b.dtype(b.zeros((2,))) == "float64"
    finally:
        cdt.set_floatx("float32")
    assert b.dtype(b.multiply(b.convert_to_tensor([1, 2]), 2.5)) == "float32"


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
def test_wide_unsigned_types(b, dtype):
    # torch lacks most kernels for these: the backend computes in int64 and casts back
    x = b.convert_to_tensor(np.array([3, 7, 1], dtype))
    y = b.cast([2, 2, 2], dtype)
    assert b.dtype(x) == dtype and b.shape(x) == (3,)
    for op, ref in (
        (b.add, [5, 9, 3]),
        (b.subtract, [1, 5, 2**64 - 1 if dtype == "uint64" else None]),
        (b.multiply, [6, 14, 2]),
        (b.floor_divide, [1, 3, 0]),
        (b.mod, [1, 1, 1]),
        (b.maximum, [3, 7, 2]),
        (b.minimum, [2, 2, 1]),
    ):
        out = op(x, y)
        assert b.dtype(out) == dtype
        got = b.to_numpy(out).tolist()
        # 1 - 2 wraps; only uint64 wraps exactly like numpy (the others wrap at 2**16 / 2**32 too)
        assert got[:2] == ref[:2] and (ref[2] is None or got[2] == ref[2])
    assert b.to_numpy(b.less(x, y)).tolist() == [False, False, True]
    assert b.to_numpy(b.max(x)).item() == 7 and b.dtype(b.max(x)) == dtype
    assert b.to_numpy(b.sort(x)).tolist() == [1, 3, 7]
    assert b.to_numpy(b.argmax(x)).item() == 1
    assert b.to_numpy(b.sum(x)).item() == 11
    assert b.to_numpy(b.reshape(x, (3, 1))).shape == (3, 1)
    assert b.to_numpy(b.cast(x, "float32")).tolist() == [3.0, 7.0, 1.0]
    assert b.to_numpy(b.where(b.greater(x, 2), x, 0)).tolist() == [3, 7, 0]
    assert b.dtype(b.abs(x)) == dtype and b.dtype(b.square(x)) == dtype


def test_to_numpy_round_trips_every_dtype(b):
    for name in cdt.ALLOWED_DTYPES:
        t = b.cast([0, 1], name)
        a = b.to_numpy(t)
        assert cdt.standardize_dtype(a.dtype) == name
        assert b.dtype(b.convert_to_tensor(a)) == name


def test_uint64_data_movement_is_bit_exact(b):
    # gathers, flips and pads move bits through a signed view, so values >= 2**63 survive
    big = 2**63 + 5
    x = np.array([1, big, 7], np.uint64)
    assert b.to_numpy(b.take(x, [-2])).tolist() == [big]
    assert b.to_numpy(b.flip(x)).tolist() == [7, big, 1]
    assert b.to_numpy(b.getitem(x, slice(None, None, -2))).tolist() == [7, 1]
    assert b.to_numpy(b.pad(x, 1, "edge")).tolist() == [1, 1, big, 7, 7]
    assert sorted(b.to_numpy(b.random_shuffle(x, seed=(1, 2))).tolist()) == [1, 7, big]
