"""The TensorFlow engine's einsum puts the operand whose free indices lead the output first (no transpose of the
result): the same values and gradients as numpy, and the swap chosen only where it helps."""

import numpy as np
import pytest

from highlevel.backends.tensorflow.einsum_order import transpose_free_order

RNG = np.random.default_rng(3)


@pytest.mark.parametrize(
    "subscripts, expected",
    [
        ("aecd,abcd->acbe", ("abcd,aecd->acbe", True)),  # attention scores, key first: swapped
        ("bqhd,bkhd->bhqk", ("bqhd,bkhd->bhqk", False)),  # query first already
        ("acbe,aecd->abcd", ("acbe,aecd->abcd", False)),  # scores x value
        ("abc,cde->abde", ("abc,cde->abde", False)),  # a projection
        ("jk,ij->ik", ("ij,jk->ik", True)),
        ("ij,jk", ("ij,jk", False)),  # implicit output: left alone
        ("...ij,...jk->...ik", ("...ij,...jk->...ik", False)),  # ellipsis: left alone
        ("ij,ij->i", ("ij,ij->i", False)),  # no free indices
        ("ij,jk,kl->il", ("ij,jk,kl->il", False)),  # three operands
    ],
)
def test_transpose_free_order(subscripts, expected):
    assert transpose_free_order(subscripts) == expected


def test_swapped_einsum_matches_numpy_with_gradients(tfb, tf):
    k = RNG.standard_normal((2, 5, 3, 4)).astype("float32")
    q = RNG.standard_normal((2, 6, 3, 4)).astype("float32")
    w = RNG.standard_normal((2, 3, 6, 5)).astype("float32")
    ref = np.einsum("aecd,abcd->acbe", k, q)

    @tf.function(autograph=False)
    def run(kt, qt):
        with tf.GradientTape() as tape:
            tape.watch([kt, qt])
            out = tfb.einsum("aecd,abcd->acbe", kt, qt)
            loss = tf.reduce_sum(out * w)
        return out, tape.gradient(loss, [kt, qt])

    out, (gk, gq) = run(tf.constant(k), tf.constant(q))
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-5, atol=1e-5)
    assert out.shape == (2, 3, 6, 5)
    np.testing.assert_allclose(gk.numpy(), np.einsum("acbe,abcd->aecd", w, q), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gq.numpy(), np.einsum("acbe,aecd->abcd", w, k), rtol=1e-5, atol=1e-5)


def test_swapped_einsum_keeps_integer_promotion(tfb):
    a = np.arange(6, dtype="int32").reshape(2, 3)
    b = np.arange(12, dtype="int8").reshape(4, 3)
    out = tfb.einsum("kj,ij->ik", b, a)  # swapped to "ij,kj->ik"
    np.testing.assert_array_equal(tfb.to_numpy(out), np.einsum("kj,ij->ik", b.astype(np.int64), a))
    assert str(tfb.to_numpy(out).dtype) == "int32"
