"""The TensorFlow engine's dense on inputs of rank 3 or more: one flat matrix product (no broadcast batched
product), the same values and gradients as numpy, static and unknown leading axes alike."""

import numpy as np
import pytest

RNG = np.random.default_rng(5)
X = RNG.standard_normal((2, 3, 4, 6)).astype("float32")
W = RNG.standard_normal((6, 5)).astype("float32")
B = RNG.standard_normal(5).astype("float32")
ACT = {None: lambda y: y, "relu": lambda y: np.maximum(y, 0), "tanh": np.tanh}


@pytest.mark.parametrize("activation", [None, "relu", "tanh"])
def test_dense_rank4_matches_numpy_and_is_one_matmul(tfb, tf, activation):
    @tf.function(autograph=False)
    def run(x, w, b):
        with tf.GradientTape() as tape:
            tape.watch([x, w, b])
            y = tfb.dense(x, w, b, activation)
            loss = tf.reduce_sum(y * y)
        return y, tape.gradient(loss, [x, w, b])

    y, (gx, gw, gb) = run(tf.constant(X), tf.constant(W), tf.constant(B))
    ref = ACT[activation](X @ W + B)
    np.testing.assert_allclose(y.numpy(), ref, rtol=1e-5, atol=1e-5)
    d = 2 * ref * {None: 1.0, "relu": (ref > 0), "tanh": 1 - ref**2}[activation]
    np.testing.assert_allclose(gw.numpy(), X.reshape(-1, 6).T @ d.reshape(-1, 5), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gx.numpy(), d @ W.T, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gb.numpy(), d.reshape(-1, 5).sum(0), rtol=1e-4, atol=1e-4)
    graph = run.get_concrete_function(tf.constant(X), tf.constant(W), tf.constant(B)).graph
    types = {op.type for op in graph.get_operations()}
    assert "MatMul" in types and "BatchMatMulV2" not in types


def test_dense_unknown_leading_axes(tfb, tf):
    @tf.function(input_signature=[tf.TensorSpec([None, None, 6], tf.float32)], autograph=False)
    def run(x):
        return tfb.dense(x, W, B)

    y = run(tf.constant(X[0]))
    assert tuple(y.shape) == (3, 4, 5)
    np.testing.assert_allclose(y.numpy(), X[0] @ W + B, rtol=1e-5, atol=1e-5)


def test_dense_falls_back_for_rank2_and_integer_inputs(tfb):
    x2 = X[0, 0]
    np.testing.assert_allclose(tfb.to_numpy(tfb.dense(x2, W, B)), x2 @ W + B, rtol=1e-5, atol=1e-5)
    xi = np.arange(24, dtype="int32").reshape(2, 3, 4)
    wi = np.ones((4, 2), "int32")
    np.testing.assert_array_equal(tfb.to_numpy(tfb.dense(xi, wi)), xi @ wi)
