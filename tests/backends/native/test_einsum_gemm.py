"""The native engine's two-operand einsum through one batched matmul, against ``numpy.einsum``."""

import numpy as np
import pytest

from highlevel.backends.native.einsum_gemm import einsum2

CASES = [
    ("aecd,abcd->acbe", (2, 3, 4, 5), (2, 6, 4, 5)),  # attention scores
    ("acbe,aecd->abcd", (2, 4, 6, 3), (2, 3, 4, 5)),  # attention-weighted values
    ("abc,cde->abde", (2, 3, 4), (4, 5, 6)),  # EinsumDense projections
    ("abcd,cde->abe", (2, 3, 4, 5), (4, 5, 6)),
    ("ij,jk->ki", (3, 4), (4, 5)),  # a transposed output
    ("ij,kl->ijkl", (2, 3), (4, 5)),  # an outer product
    ("ijk,ik->j", (2, 3, 4), (2, 4)),
    ("abc,ad->bd", (2, 3, 4), (2, 5)),  # an index only one operand has, summed out
    ("i,i->", (3,), (3,)),
    ("ii,ij->j", (3, 3), (3, 4)),  # a repeated index: left to numpy
    ("ab,ab->ab", (3, 1), (3, 4)),  # a broadcast axis: left to numpy
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("expr,sa,sb", CASES, ids=[c[0] for c in CASES])
def test_matches_numpy_einsum(expr, sa, sb, dtype):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(sa).astype(dtype), rng.standard_normal(sb).astype(dtype)
    got, want = einsum2(expr, a, b), np.einsum(expr, a, b)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-6)


def test_mismatched_sizes_name_the_index():
    with pytest.raises(ValueError, match="index 'j' has sizes 4 and 5"):
        einsum2("ij,jk->ik", np.ones((3, 4)), np.ones((5, 2)))
