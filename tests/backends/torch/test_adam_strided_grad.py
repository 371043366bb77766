"""The torch engine's Adam with a gradient laid out unlike its weight (a transposed view, as an LSTM kernel's
gradient arrives from aten): the same update, bit for bit, as with the same values contiguous, and numpy's
Keras formula."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import highlevel as hl  # noqa: E402

RNG = np.random.default_rng(11)


def test_transposed_gradient_updates_like_a_contiguous_one():
    w0 = RNG.standard_normal((3, 5)).astype("float32")
    grads = [RNG.standard_normal((5, 3)).astype("float32") for _ in range(3)]
    with hl.config.backend_scope("torch"):
        results = []
        for strided in (True, False):
            var = hl.Variable(w0)
            opt = hl.optimizers.Adam(0.01)
            for g in grads:
                gt = torch.from_numpy(g).t() if strided else torch.from_numpy(np.ascontiguousarray(g.T))
                assert gt.is_contiguous() is not strided
                opt.apply([gt], [var])
            results.append(var.numpy())
    np.testing.assert_array_equal(results[0], results[1])
    w, m, v = w0.astype(np.float64), 0.0, 0.0
    for t, g in enumerate(grads, start=1):
        m = m + (g.T - m) * 0.1
        v = v + (g.T**2 - v) * (1 - 0.999)
        w = w - 0.01 * np.sqrt(1 - 0.999**t) / (1 - 0.9**t) * m / (np.sqrt(v) + 1e-7)
    np.testing.assert_allclose(results[0], w, rtol=1e-5, atol=1e-6)
