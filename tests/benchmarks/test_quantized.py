"""The quantization rows of ``benchmarks/run.py`` (``--quantized``): a quick native run prints them, with the
int8 weights 4x smaller than float32's (not a timing test)."""

import os
import pathlib
import subprocess
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_contestants_share_b1s_weights_and_int8_stores_a_quarter_of_the_bytes(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import _quantized

    import highlevel as hl

    backend = hl.config.backend()
    monkeypatch.setenv("HIGHLEVEL_BACKEND", backend)  # make_contestants sets it: restored after the test
    built = _quantized.make_contestants(backend, 1, keras=False)
    assert sorted(built) == ["float32", "int4", "int8"], built
    (f32, f32_sizes), (q8, q8_sizes) = built["float32"], built["int8"]
    assert f32_sizes["weights"] == 4 * (784 * 512 + 512 * 512 + 512 * 10 + 512 + 512 + 10)
    # int8 kernels, float32 biases and per-channel scales
    assert q8_sizes["weights"] == 784 * 512 + 512 * 512 + 512 * 10 + 2 * 4 * (512 + 512 + 10)
    assert q8_sizes["file"] < 0.3 * f32_sizes["file"]
    a, b = f32["predict_on_batch"](), q8["predict_on_batch"]()
    assert np.isfinite(a) and abs(a - b) < 0.05 * (1 + abs(a))  # the same model, quantized


def test_run_quick_quantized_on_native_prints_the_rows():
    cmd = [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--backends", "native", "--workloads", ""]
    cmd += ["--quantized", "--no-extras", "--epochs", "1", "--clock", "cpu"]
    proc = subprocess.run(
        cmd, capture_output=True, text=True, timeout=300, cwd=ROOT, env={**os.environ, "HIGHLEVEL_BACKEND": "native"}
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "FAILED" not in proc.stderr, proc.stderr[-3000:]
    rows = [
        [c.strip() for c in line.strip("|").split("|")] for line in proc.stdout.splitlines() if line.startswith("| ")
    ][1:]
    names = [r[0] for r in rows]
    for mode in ("int8", "int4"):
        assert [f"B1 {mode} {w}" for w in ("on_batch", "predict", "weights", "file")] == names[:4], names
        names = names[4:]
    by_name = {r[0]: r for r in rows}
    assert by_name["B1 int8 weights"][6] == "0.25x" and "hand<=0.26 ok" in by_name["B1 int8 weights"][8]
    assert float(by_name["B1 int8 on_batch"][3]) > 0 and float(by_name["B1 int8 on_batch"][4]) > 0
