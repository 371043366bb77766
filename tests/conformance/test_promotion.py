"""The promotion table on every backend: every pair of dtypes through ``add``, and Python scalars.

``add(a, b)`` of tensors of dtypes ``a`` and ``b`` must give ``contract.dtypes.result_type(a, b)``
(the JAX/Keras lattice), and a Python scalar must be weak (``float32 + 2.0 -> float32``,
``int8 + 3 -> int8``, ``int32 + 2.5 -> floatx``).
"""

import numpy as np
import pytest

from highlevel.backends.contract import dtypes as D

from .harness import BFLOAT16, SHORT

PAIRS = [(a, b) for a in D.ALLOWED_DTYPES for b in D.ALLOWED_DTYPES]


def _tensor(backend, dtype, values=(1, 0, 1)):
    if dtype == "bfloat16":
        if not backend.capabilities.supports_bfloat16:
            pytest.skip(f"{backend.name}: capabilities.supports_bfloat16 is False")
        if BFLOAT16 is None:
            pytest.skip("ml_dtypes is not installed")
        return backend.cast(backend.convert_to_tensor(np.asarray(values, np.float32)), "bfloat16")
    if dtype == "float64" and not backend.capabilities.supports_float64:
        pytest.skip(f"{backend.name}: capabilities.supports_float64 is False")
    return backend.convert_to_tensor(np.asarray(values, dtype=dtype))


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{SHORT[a]}+{SHORT[b]}" for a, b in PAIRS])
def test_add_promotes_by_the_table(backend, a, b):
    want = D.result_type(a, b)
    if want == "float64" and not backend.capabilities.supports_float64:
        pytest.skip(f"{backend.name}: capabilities.supports_float64 is False")
    out = backend.add(_tensor(backend, a), _tensor(backend, b, (1, 1, 0)))
    assert backend.dtype(out) == want, (
        f"{backend.name}: add({a}, {b}) gave dtype {backend.dtype(out)!r}; the promotion table says {want!r}"
    )
    got = np.asarray(backend.to_numpy(out)).astype(np.float64)
    expected = [1.0, 1.0, 1.0] if want == "bool" else [2.0, 1.0, 1.0]
    np.testing.assert_array_equal(got, expected, err_msg=f"{backend.name}: add({a}, {b}) values")


SCALARS = [(d, s) for d in D.ALLOWED_DTYPES for s in (3, 2.5, True)]


@pytest.mark.parametrize("dtype,scalar", SCALARS, ids=[f"{SHORT[d]}+{s!r}" for d, s in SCALARS])
def test_python_scalars_are_weak(backend, dtype, scalar):
    want = D.result_type(dtype, scalar)
    out = backend.add(_tensor(backend, dtype), scalar)
    assert backend.dtype(out) == want, (
        f"{backend.name}: add({dtype} tensor, Python {type(scalar).__name__} {scalar!r}) gave dtype "
        f"{backend.dtype(out)!r}; the promotion table says {want!r} (Python scalars are weak)"
    )
    out_left = backend.add(scalar, _tensor(backend, dtype))
    assert backend.dtype(out_left) == want, (
        f"{backend.name}: add(Python {scalar!r}, {dtype} tensor) gave dtype {backend.dtype(out_left)!r}; "
        f"expected {want!r}"
    )


@pytest.mark.parametrize(
    "scalar,want",
    [
        (np.float64(2.0), "float64"),
        (np.float32(2.0), "float32"),
        (np.int64(2), "float32"),
        (np.float16(2.0), "float32"),
    ],
    ids=["np-float64", "np-float32", "np-int64", "np-float16"],
)
def test_numpy_scalars_are_strong(backend, scalar, want):
    if want == "float64" and not backend.capabilities.supports_float64:
        pytest.skip(f"{backend.name}: capabilities.supports_float64 is False")
    out = backend.multiply(_tensor(backend, "float32"), scalar)
    assert backend.dtype(out) == want, (
        f"{backend.name}: float32 tensor * {type(scalar).__name__}(2) gave {backend.dtype(out)!r}; numpy "
        f"scalars are not weak, expected {want!r}"
    )
