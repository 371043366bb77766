"""The native engine multiplies integer matrices through float BLAS only where that is exact."""

import numpy as np
import pytest

from highlevel.backends.native.ops_linalg import _integer_matmul, matmul
from highlevel.backends.native.tensor import Tensor


@pytest.mark.parametrize("k", [1, 784, 1040, 1041, 5000])
def test_int8_range_products_match_numpys_integer_loop_bit_for_bit(k):
    rng = np.random.default_rng(k)
    a = rng.integers(-127, 128, (7, k)).astype(np.int32)
    b = rng.integers(-127, 128, (k, 5)).astype(np.int32)
    a[0], b[:, 0] = 127, -127  # the extreme partial sums
    got = _integer_matmul(a, b)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, np.matmul(a, b))


def test_products_beyond_float64s_exact_range_use_the_integer_loop():
    a = np.full((2, 3), 2**40, np.int64)
    b = np.full((3, 2), 2**20, np.int64)
    got = _integer_matmul(a, b)
    assert got.dtype == np.int64 and got[0, 0] == 3 * 2**60


def test_matmul_of_int_tensors_keeps_the_integer_dtype_and_batches():
    a = Tensor(np.arange(24, dtype=np.int32).reshape(2, 3, 4))
    b = Tensor(np.arange(8, dtype=np.int32).reshape(4, 2))
    got = matmul(a, b).numpy()
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, np.arange(24).reshape(2, 3, 4) @ np.arange(8).reshape(4, 2))
