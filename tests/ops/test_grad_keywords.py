"""``hl.ops.value_and_grad`` / ``hl.ops.grad``: keyword arguments of the transformed function reach ``fn`` and get
no gradient, as with ``jax.value_and_grad``."""

import numpy as np

import highlevel as hl


def _loss(w, x, scale=1.0):
    return hl.ops.sum(w * x) * scale


def test_keywords_reach_the_function(backend):
    w, x = hl.ops.convert_to_tensor([1.0, 2.0]), hl.ops.convert_to_tensor([3.0, 4.0])
    value, grads = hl.ops.value_and_grad(_loss)(w, x, scale=2.0)
    assert float(hl.ops.convert_to_numpy(value)) == 22.0
    np.testing.assert_allclose(hl.ops.convert_to_numpy(grads), [6.0, 8.0])
    np.testing.assert_allclose(hl.ops.convert_to_numpy(hl.ops.grad(_loss)(w, x, scale=0.5)), [1.5, 2.0])
    value, _ = hl.ops.value_and_grad(_loss)(w, x)
    assert float(hl.ops.convert_to_numpy(value)) == 11.0
