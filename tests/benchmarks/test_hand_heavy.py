"""The hand-written JAX and TensorFlow loops of B5-B7 (``benchmarks/_hand_heavy_jax.py``, ``_hand_heavy_tf.py``)
train the same models: from the same initial weights and batch, both frameworks give the same losses step by
step, and the loss falls. Tiny batches; not a timing test."""

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def loops():
    pytest.importorskip("jax")
    pytest.importorskip("tensorflow")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import _hand_heavy_jax
        import _hand_heavy_tf
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return _hand_heavy_jax, _hand_heavy_tf


@pytest.mark.parametrize("model", ["transformer", "bilstm", "resnet"])
def test_jax_and_tensorflow_loops_agree_and_learn(loops, model):
    import jax

    rng = np.random.default_rng(0)
    shape = {"transformer": (4, 128), "bilstm": (4, 64, 32), "resnet": (4, 32, 32, 3)}[model]
    x = rng.integers(0, 1000, shape) if model == "transformer" else rng.normal(size=shape).astype(np.float32)
    y = rng.integers(0, 10, 4)
    jax_mod, tf_mod = loops
    with jax.enable_x64(False):
        jax_epoch = jax_mod.MAKERS[model](x, y, 4)
        jax_losses = [jax_epoch() for _ in range(4)]
    tf_epoch = tf_mod.MAKERS[model](x, y, 4)
    tf_losses = [tf_epoch() for _ in range(4)]
    # the losses after each of steps 1-4: the same numbers in both frameworks (float32 rounding apart)
    np.testing.assert_allclose(jax_losses, tf_losses, rtol=2e-3)
    assert jax_losses[-1] < 0.9 * jax_losses[0], jax_losses
