"""examples/transformer_encoder.py (a Transformer encoder block as a Layer subclass) learns its generated
sequence task on every backend, with the example's quick settings."""

import os
import pathlib
import subprocess
import sys

import pytest

import highlevel as hl

ROOT = pathlib.Path(__file__).resolve().parents[2]
BACKENDS = ("native", "jax", "torch", "tensorflow")


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_transformer_encoder_example_learns(backend_name):
    if backend_name not in hl.backends.installed():
        pytest.skip(f"backend {backend_name!r} is not installed")
    env = dict(os.environ, HIGHLEVEL_BACKEND=backend_name, HIGHLEVEL_EXAMPLE_QUICK="1")
    # One BLAS thread: on a shared machine, several BLAS threads per process slow small matmuls ~50x.
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env.setdefault("OMP_NUM_THREADS", "1")
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "transformer_encoder.py"), "--quick"],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    line = [l for l in out.stdout.splitlines() if "test accuracy" in l][-1]
    assert line.startswith(f"backend {backend_name}:"), line
    assert float(line.split("test accuracy")[1].split()[0]) >= 0.75, line


def test_encoder_layer_is_reusable_and_serializable():
    """The example's TransformerEncoder is an ordinary Layer: config round trip, masks, any input length."""
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import transformer_encoder as example
    finally:
        sys.path.remove(str(ROOT / "examples"))
    import numpy as np

    with hl.config.backend_scope("native"):
        block = example.TransformerEncoder(embed_dim=8, num_heads=2, ff_dim=16, dropout=0.0, name="enc")
        x = hl.ops.convert_to_tensor(np.random.default_rng(0).normal(size=(2, 5, 8)).astype("float32"))
        mask = hl.ops.convert_to_tensor(np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], bool))
        y = hl.ops.convert_to_numpy(block(x, padding_mask=mask))
        assert y.shape == (2, 5, 8)
        clone = example.TransformerEncoder.from_config(block.get_config())
        clone(x)
        clone.set_weights(block.get_weights())
        np.testing.assert_allclose(hl.ops.convert_to_numpy(clone(x, padding_mask=mask)), y, atol=1e-6)
        # Padding positions do not influence the kept ones.
        x2 = hl.ops.convert_to_numpy(x).copy()
        x2[0, 3:] = 100.0
        y2 = hl.ops.convert_to_numpy(block(hl.ops.convert_to_tensor(x2), padding_mask=mask))
        np.testing.assert_allclose(y2[0, :3], y[0, :3], atol=1e-5)
        assert len(block.trainable_weights) == 8 + 4 + 4  # attention, two layer norms, two dense layers
