"""The JAX backend runs with x64 enabled, yet follows the contract's dtypes: float32 stays float32."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from highlevel.backends import get  # noqa: E402


@pytest.fixture(scope="module")
def b():
    return get("jax")


def test_x64_is_enabled_by_the_backend(b):
    assert jax.config.jax_enable_x64
    assert b.dtype(b.convert_to_tensor(np.zeros(2, np.float64))) == "float64"
    assert b.dtype(b.cast([1, 2], "int64")) == "int64"


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
        ([np.float32(1.0), 2.0], "float32"),
    ],
)
def test_convert_to_tensor_defaults(b, value, expected):
    assert b.dtype(b.convert_to_tensor(value)) == expected


@pytest.mark.parametrize(
    "x_dtype, other, expected",
    [
        ("float32", 2.0, "float32"),
        ("float16", 2.0, "float16"),
        ("bfloat16", 2.0, "bfloat16"),
        ("int8", 3, "int8"),
        ("uint8", 3, "uint8"),
        ("int32", 2.5, "float32"),
        ("int64", 2.5, "float32"),
        ("float32", np.float64(2.0), "float64"),  # numpy scalars are strong
        ("float32", np.float32(2.0), "float32"),
        ("int32", np.int64(2), "int64"),
        ("bool", 1, "int32"),
        ("int8", "uint8", "int16"),
        ("int32", "float16", "float16"),
        ("int64", "float16", "float16"),
        ("uint64", "int64", "float32"),
        ("float16", "bfloat16", "float32"),
    ],
)
def test_binary_promotion_follows_the_contract(b, x_dtype, other, expected):
    x = b.ones((2,), x_dtype)
    if isinstance(other, str):
        other = b.ones((2,), other)
    for op in (b.add, b.multiply, b.subtract, b.maximum):
        assert b.dtype(op(x, other)) == expected, op.__name__
        assert b.dtype(op(other, x)) == expected, op.__name__


def test_weak_scalars_inside_jit_stay_weak(b):
    x = b.ones((3,), "float32")
    out = jax.jit(lambda s: b.multiply(x, s))(0.5)  # a Python float traced to a weak float64
    assert b.dtype(out) == "float32"
    n = b.ones((3,), "int8")
    assert b.dtype(jax.jit(lambda s: b.add(n, s))(3)) == "int8"
    # converted on their own, traced Python scalars resolve like Python scalars
    assert b.dtype(jax.jit(lambda s: b.convert_to_tensor(s))(0.5)) == "float32"
    assert b.dtype(jax.jit(lambda s: b.exp(s))(0.5)) == "float32"
    assert b.dtype(jax.jit(lambda s: b.convert_to_tensor(s))(2)) == "int32"


def test_clip_promotes_like_a_binary_op(b):
    i = b.convert_to_tensor([-3, 0, 3])
    assert b.dtype(b.clip(i, -1, 1)) == "int32"
    assert b.dtype(b.clip(i, -0.5, 0.5)) == "float32"
    assert b.dtype(b.clip(b.ones((2,), "float16"), 0, 1)) == "float16"
    assert b.dtype(b.clip(b.convert_to_tensor([True, False]), 0, 1)) == "int32"


def test_float_math_on_ints_is_floatx(b):
    i = b.convert_to_tensor([1, 4, 9])
    for op in (b.sqrt, b.exp, b.log, b.sigmoid, b.softmax, b.mean, b.tanh, b.relu6, b.reciprocal):
        assert b.dtype(op(i)) == "float32", op.__name__
    assert b.dtype(b.divide(i, i)) == "float32"
    assert b.dtype(b.divide(i, 2)) == "float32"
    assert b.dtype(b.floor_divide(i, 2)) == "int32"
    assert b.dtype(b.mod(i, 2)) == "int32"
    assert b.dtype(b.var(i)) == "float32"


def test_reduction_dtypes(b):
    assert b.dtype(b.sum(b.convert_to_tensor([True, False, True]))) == "int32"
    assert int(b.sum(b.convert_to_tensor([True, False, True]))) == 2
    for dt in ("int8", "int16", "uint8", "int32", "int64", "float16", "float32", "float64"):
        assert b.dtype(b.sum(b.ones((3,), dt))) == dt
        assert b.dtype(b.prod(b.ones((3,), dt))) == dt
        assert b.dtype(b.cumsum(b.ones((3,), dt))) == dt
    for f in (b.argmax, b.argmin, b.argsort):
        assert b.dtype(f(b.ones((3, 2)))) == "int32"
    assert b.dtype(b.top_k(b.ones((3, 4)), 2)[1]) == "int32"


def test_creation_dtypes(b):
    assert b.dtype(b.zeros((2,))) == "float32"
    assert b.dtype(b.ones((2,), "bfloat16")) == "bfloat16"
    assert b.dtype(b.full((2,), 3)) == "int32"
    assert b.dtype(b.full((2,), 3.0)) == "float32"
    assert b.dtype(b.full((2,), True)) == "bool"
    assert b.dtype(b.arange(5)) == "int32"
    assert b.dtype(b.arange(0.0, 1.0, 0.5)) == "float32"
    assert b.dtype(b.linspace(0, 1, 3)) == "float32"
    assert b.dtype(b.eye(3)) == "float32"
    assert b.dtype(b.one_hot([0, 1], 2)) == "float32"
    assert b.dtype(b.random_normal((2,), seed=(1, 2))) == "float32"
    assert b.dtype(b.random_uniform((2,), dtype="float64", seed=(1, 2))) == "float64"


def test_where_concatenate_stack_promote(b):
    f16 = b.ones((2,), "float16")
    i32 = b.ones((2,), "int32")
    assert b.dtype(b.concatenate([f16, i32])) == "float16"
    assert b.dtype(b.stack([i32, f16])) == "float16"
    assert b.dtype(b.where(b.convert_to_tensor([True, False]), f16, 0)) == "float16"
    assert b.dtype(b.where(b.convert_to_tensor([True, False]), i32, 1.5)) == "float32"


def test_float32_pipeline_never_leaks_float64(b):
    x = b.convert_to_tensor(np.random.RandomState(0).randn(4, 3).astype("float32"))
    w = b.convert_to_tensor(np.random.RandomState(1).randn(3, 2).astype("float32"))
    y = b.softmax(b.add(b.matmul(x, w), 0.1))
    loss = b.mean(b.negative(b.log(b.add(y, 1e-7))))
    assert b.dtype(loss) == "float32"
    assert b.dtype(b.clip(x, -1, 1)) == "float32"
    assert b.dtype(b.power(x, 2)) == "float32"
    assert b.dtype(b.nan_to_num(x)) == "float32"
    assert b.dtype(b.elu(x)) == "float32"
    assert b.dtype(b.leaky_relu(x)) == "float32"
    assert b.dtype(b.gelu(x, approximate=False)) == "float32"


def test_jnp_defaults_are_not_used_for_python_scalars(b):
    # the reason for explicit dtypes: under x64 JAX's own default would be float64
    assert jnp.asarray(1.0).dtype == jnp.float64
    assert b.dtype(b.convert_to_tensor(1.0)) == "float32"
