"""B8 (MobileNetV2 inference at 224x224, batch 8) is wired into ``benchmarks/run.py``: its hand-written PyTorch
module is the same network as ours, and a quick native run prints its row against it (not a timing test)."""

import importlib.util
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def bench_path(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))


def test_b8_is_mobilenet_v2_inference_at_224_batch_8(bench_path):
    from _workloads import WORKLOADS, make_data

    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    workload = WORKLOADS["B8"]
    assert (workload.model, workload.task, workload.batch, workload.steps()) == ("mobilenetv2", "infer", 8, 5)
    x, _ = make_data(workload, workload.steps())
    assert x.shape == (40, 224, 224, 3) and x.dtype == np.float32
    assert run.KERAS_TARGETS["B8"] == 1.0  # the target: no slower than Keras on any backend


def test_the_hand_written_torch_module_is_the_same_network_as_ours(bench_path):
    torch = pytest.importorskip("torch")
    import _hand_mobilenet

    import highlevel as hl

    ours = hl.applications.MobileNetV2(weights=None)
    module = _hand_mobilenet.build()
    counted = sum(p.numel() for p in module.parameters())
    counted += sum(b.numel() for name, b in module.named_buffers() if name.endswith(("running_mean", "running_var")))
    assert counted == ours.count_params() == 3_538_984
    convs = [m for m in module.modules() if isinstance(m, torch.nn.Conv2d)]
    assert len(convs) == sum(isinstance(layer, (hl.layers.Conv2D, hl.layers.DepthwiseConv2D)) for layer in ours.layers)
    with torch.inference_mode():
        out = module(torch.zeros(2, 3, 224, 224))
    assert tuple(out.shape) == (2, 1000) and torch.allclose(out.sum(-1), torch.ones(2))


def test_run_quick_b8_on_native_against_pytorch_eager():
    pytest.importorskip("torch")
    cmd = [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--backends", "native"]
    cmd += ["--workloads", "B8", "--epochs", "1", "--no-extras", "--clock", "cpu"]
    proc = subprocess.run(
        cmd, capture_output=True, text=True, timeout=600, cwd=ROOT, env={**os.environ, "HIGHLEVEL_BACKEND": "native"}
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "FAILED" not in proc.stderr, proc.stderr[-3000:]
    rows = [
        [c.strip() for c in line.strip("|").split("|")] for line in proc.stdout.splitlines() if line.startswith("| ")
    ]
    assert [r[:3] for r in rows[1:]] == [["B8", "native", "ms/batch"]], proc.stdout
    row = rows[1]
    assert row[3] != "-" and row[4] != "-" and row[6].endswith("x") and "hand<=2" in row[8], row
