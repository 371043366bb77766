"""float32 stays float32 through every op family of the native engine, forward and backward."""

import numpy as np
import pytest

from highlevel.backends.contract import dtypes
from highlevel.backends.native import NativeBackend

B = NativeBackend()
X = np.random.default_rng(0).uniform(0.2, 0.9, (2, 3)).astype(np.float32)

UNARY = [
    "negative",
    "abs",
    "sign",
    "sqrt",
    "square",
    "exp",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arctanh",
    "floor",
    "ceil",
    "reciprocal",
    "rsqrt",
    "erf",
    "round",
    "nan_to_num",
    "relu",
    "relu6",
    "sigmoid",
    "softplus",
    "softsign",
    "silu",
    "gelu",
    "elu",
    "selu",
    "leaky_relu",
    "hard_sigmoid",
    "softmax",
    "log_softmax",
    "sum",
    "mean",
    "max",
    "min",
    "prod",
    "var",
    "std",
    "logsumexp",
    "cumsum",
    "cumprod",
    "sort",
    "flip",
    "transpose",
    "squeeze",
    "copy",
    "stop_gradient",
]
BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "mod",
    "power",
    "arctan2",
    "maximum",
    "minimum",
    "logaddexp",
]
OTHER = {
    "matmul": lambda t: B.matmul(t, B.transpose(t)),
    "einsum": lambda t: B.einsum("ij,kj->ik", t, t),
    "tensordot": lambda t: B.tensordot(t, t, axes=([1], [1])),
    "outer": lambda t: B.outer(t, t),
    "clip": lambda t: B.clip(t, 0.3, 0.5),
    "where": lambda t: B.where(t > 0.5, t, 0.0),
    "concatenate": lambda t: B.concatenate([t, t], axis=0),
    "stack": lambda t: B.stack([t, t]),
    "pad": lambda t: B.pad(t, ((1, 1), (0, 2)), mode="reflect"),
    "take": lambda t: B.take(t, [0, 0], axis=1),
    "getitem": lambda t: t[:, [0, 2]],
    "top_k": lambda t: B.top_k(t, 2)[0],
    "moments": lambda t: B.moments(t, axes=(0,))[1],
    "tile": lambda t: B.tile(t, (2, 1)),
    "repeat": lambda t: B.repeat(t, 2, axis=0),
    "slice_update": lambda t: B.slice_update(t, (0, 0), B.ones((1, 2))),
}


def _check(fn):
    x = B.convert_to_tensor(X)
    out = fn(x)
    assert B.dtype(out) == "float32"
    _, g = B.value_and_grad(lambda t: B.sum(fn(t)))(x)
    assert B.dtype(g) == "float32"


@pytest.mark.parametrize("name", UNARY)
def test_unary_and_reductions_keep_float32(name):
    _check(getattr(B, name))


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("other", ["tensor", "python_float", "python_int", "int32_tensor"])
def test_binary_keeps_float32(name, other):
    operand = {
        "tensor": B.convert_to_tensor(X + 1),
        "python_float": 1.5,
        "python_int": 2,
        "int32_tensor": B.convert_to_tensor(np.full((3,), 2, np.int32)),
    }[other]
    _check(lambda t: getattr(B, name)(t, operand))
    _check(lambda t: getattr(B, name)(operand, t))


@pytest.mark.parametrize("name", sorted(OTHER))
def test_other_families_keep_float32(name):
    _check(OTHER[name])


@pytest.mark.parametrize("name", BINARY)
def test_numpy_float64_scalar_promotes_by_the_table(name):
    # NumPy 2 semantics, which the table shares: a numpy float64 scalar is not weak
    x = B.convert_to_tensor(X)
    want = dtypes.result_type("float32", "float64")
    assert want == "float64"
    assert B.dtype(getattr(B, name)(x, np.float64(1.5))) == want
    assert B.dtype(getattr(B, name)(np.float64(1.5), x)) == want
    # while a Python float is weak
    assert B.dtype(getattr(B, name)(x, 1.5)) == dtypes.result_type("float32", 1.5) == "float32"


def test_operators_follow_the_table():
    x = B.convert_to_tensor(X)
    i8 = B.convert_to_tensor(np.array([1, 2], np.int8))
    i32 = B.convert_to_tensor([1, 2])
    assert (x * 2.0).dtype == "float32" and (2.0 * x).dtype == "float32"
    assert (x * np.float64(2.0)).dtype == "float64"
    assert (i8 + 3).dtype == "int8"
    assert (i32 * 2.5).dtype == "float32"
    assert (i32 / i32).dtype == "float32"
    assert (i32 // 2).dtype == "int32" and (i32 % 2).dtype == "int32"
    assert (B.convert_to_tensor(np.array([1.0], np.float16)) + i32).dtype == "float16"
    u8 = B.convert_to_tensor(np.array([1], np.uint8))
    assert (u8 + i8).dtype == "int16"


def test_float_math_on_integers_uses_floatx():
    i = B.convert_to_tensor([1, 4])
    for name in ("sqrt", "exp", "sigmoid", "softmax", "mean", "log"):
        assert B.dtype(getattr(B, name)(i)) == "float32", name
    assert B.dtype(B.divide(i, i)) == "float32"
    assert B.dtype(B.abs(i)) == "int32" and B.dtype(B.square(i)) == "int32"


def test_reduction_dtypes():
    assert B.dtype(B.sum(B.convert_to_tensor([True, False]))) == "int32"
    assert B.dtype(B.sum(B.convert_to_tensor(np.array([1, 2], np.int8)))) == "int8"
    assert B.dtype(B.sum(B.convert_to_tensor([1, 2]))) == "int32"
    assert B.dtype(B.argmax(B.convert_to_tensor(X))) == "int32"
    assert B.dtype(B.top_k(B.convert_to_tensor(X), 1)[1]) == "int32"
    assert B.dtype(B.argsort(B.convert_to_tensor(X))) == "int32"


def test_conversion_defaults():
    assert B.dtype(B.convert_to_tensor(1.0)) == "float32"
    assert B.dtype(B.convert_to_tensor(1)) == "int32"
    assert B.dtype(B.convert_to_tensor(True)) == "bool"
    assert B.dtype(B.convert_to_tensor(np.zeros(2))) == "float64"
    assert B.dtype(B.convert_to_tensor(np.zeros(2, np.int64))) == "int64"
    assert B.dtype(B.convert_to_tensor([[1, 2], [3, 4]])) == "int32"
    assert B.dtype(B.convert_to_tensor([1.0, 2])) == "float32"
    assert B.dtype(B.convert_to_tensor(np.float64(2.0))) == "float64"
    assert B.dtype(B.convert_to_tensor([1, 2], dtype="float16")) == "float16"


def test_float64_stays_float64():
    x = B.convert_to_tensor(X.astype(np.float64))
    for name in ("exp", "sigmoid", "softmax", "gelu", "mean", "erf"):
        assert B.dtype(getattr(B, name)(x)) == "float64", name
    assert B.dtype(B.add(x, 1.5)) == "float64"


@pytest.mark.skipif(not B.capabilities.supports_bfloat16, reason="ml_dtypes is not installed")
def test_bfloat16_when_available():
    x = B.convert_to_tensor([1.0, 2.0], dtype="bfloat16")
    assert B.dtype(x) == "bfloat16"
    assert B.dtype(B.multiply(x, 2.0)) == "bfloat16"
    assert B.dtype(B.add(x, B.convert_to_tensor([1.0, 1.0]))) == "float32"
