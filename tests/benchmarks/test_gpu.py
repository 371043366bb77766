"""``benchmarks/gpu.py`` (the prepared GPU run) refuses cleanly where the GPU, CuPy or a CUDA torch is missing,
and its pieces line up with the other benchmarks (not a timing test: CI has no GPU)."""

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _load():
    spec = importlib.util.spec_from_file_location("gpu_bench", ROOT / "benchmarks" / "gpu.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_a_gpu_it_says_what_is_missing_and_exits_2(monkeypatch, capsys):
    gpu = _load()
    monkeypatch.setattr(gpu, "_missing", lambda: "CuPy sees no GPU")
    assert gpu.main(["--skip-conformance"]) == 2
    err = capsys.readouterr().err
    assert "needs a CUDA GPU" in err and "CuPy sees no GPU" in err


def test_the_workload_is_b1_at_batch_4096():
    gpu = _load()
    assert gpu.WIDTHS == (784, 512, 512, 10) and gpu.BATCH == 4096
    x, y = gpu._data(2)
    assert x.shape == (8192, 784) and x.dtype.name == "float32" and y.max() < 10
