"""The scratch pool hands a given-back buffer out again for the same shape and dtype, never one still viewed
elsewhere or past its byte cap; a convolution's training step recycles its im2col buffers through it."""

import numpy as np
import pytest

from highlevel.backends.native import scratch
from highlevel.backends.native.backend import NativeBackend
from highlevel.backends.native.tensor import Tensor


def test_given_back_buffers_are_reused_by_shape_and_dtype():
    scratch.clear()
    a = scratch.take((512, 1024), np.float32)
    assert a.shape == (512, 1024) and a.dtype == np.float32 and a.flags.c_contiguous
    scratch.give(a)
    assert scratch.take((512, 1024), np.float64) is not a  # another dtype: a new buffer
    assert scratch.take((1024, 512), np.float32) is not a  # another shape: a new buffer
    assert scratch.take((512, 1024), np.float32) is a
    assert scratch.take((512, 1024), np.float32) is not a  # handed out once only
    scratch.clear()


def test_views_small_buffers_and_overflow_are_not_pooled(monkeypatch):
    scratch.clear()
    big = np.empty((1024, 1024), np.float32)
    scratch.give(big[:512])  # a view: its base may still be read
    scratch.give(np.empty(16, np.float32))  # small: the allocator recycles those
    assert scratch.take((512, 1024), np.float32) is not big
    assert scratch.take((16,), np.float32).shape == (16,)
    monkeypatch.setattr(scratch, "MAX_BYTES", big.nbytes - 1)
    scratch.give(big)  # over the cap: dropped
    assert scratch.take((1024, 1024), np.float32) is not big
    scratch.clear()


def test_a_conv_training_step_recycles_its_im2col_buffers():
    scratch.clear()
    b = NativeBackend()
    rng = np.random.default_rng(0)
    x = Tensor(rng.normal(size=(8, 32, 32, 16)).astype(np.float32), requires_grad=True)
    w = Tensor(rng.normal(size=(3, 3, 16, 16)).astype(np.float32), requires_grad=True)
    seen = []
    for _ in range(2):
        y = b.conv(x, w, padding="same")
        (y * y).sum().backward()
        seen.append({id(buf) for bufs in scratch._pool.values() for buf in bufs})
    assert seen[0] and seen[0] == seen[1]  # the second step took and gave back the first step's buffers
    scratch.clear()


def test_a_large_im2col_buffer_is_rebuilt_for_the_kernel_gradient(monkeypatch):
    from highlevel.backends.native import spatial

    b = NativeBackend()
    rng = np.random.default_rng(1)
    xd = rng.normal(size=(4, 9, 9, 3))
    wd = rng.normal(size=(3, 3, 3, 5))
    cot = rng.normal(size=(4, 9, 9, 5))

    def grads():
        x, w = Tensor(xd, requires_grad=True), Tensor(wd, requires_grad=True)
        y = b.conv(x, w, padding="same")
        (y * Tensor(cot)).sum().backward()
        return x.grad, w.grad

    kept = grads()
    monkeypatch.setattr(spatial, "KEEP_COLS_BYTES", 0)  # every buffer rebuilt from the input
    rebuilt = grads()
    for a, b_ in zip(kept, rebuilt):
        np.testing.assert_allclose(a, b_, rtol=1e-12, atol=1e-12)
    # the rebuilt buffer reads the input again, so the input is saved: an in-place change is refused
    x, w = Tensor(xd, requires_grad=True), Tensor(wd, requires_grad=True)
    y = b.conv(x, w, padding="same")
    x.assign_(np.zeros_like(xd))
    with pytest.raises(RuntimeError, match="modified in place"):
        y.sum().backward()
