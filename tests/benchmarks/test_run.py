"""Keeps ``benchmarks/run.py`` from rotting: smoke runs on tiny workloads, native only (not timing tests)."""

import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_run_quick_native_b2_prints_the_table():
    cmd = [
        sys.executable,
        str(ROOT / "benchmarks" / "run.py"),
        "--quick",
        "--backends",
        "native",
        "--workloads",
        "B2",
        "--steps",
        "5",
        "--epochs",
        "1",
        "--first-rounds",
        "1",
        "--import-runs",
        "1",
        "--clock",
        "cpu",
    ]
    proc = subprocess.run(
        cmd, capture_output=True, text=True, timeout=300, cwd=ROOT, env={**os.environ, "HIGHLEVEL_BACKEND": "native"}
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "FAILED" not in proc.stderr, proc.stderr[-3000:]
    rows = {
        tuple(c.strip() for c in line.strip("|").split("|")[:2]): [c.strip() for c in line.strip("|").split("|")]
        for line in proc.stdout.splitlines()
        if line.startswith("| ")
    }
    for key in [("B2", "native"), ("first step", "native"), ("import", "native"), ("memory B1", "native")]:
        assert key in rows, proc.stdout
        ours, hand, ratio = rows[key][3], rows[key][4], rows[key][6]
        assert ours != "-" and hand != "-" and ratio.endswith("x"), rows[key]
    assert "no framework imported" in rows[("import", "native")][9]
    assert "total" in proc.stdout


def test_run_quick_heavy_workloads_on_native_against_pytorch_eager():
    """B5-B7 smoke run: one step each, ours (native) against the hand-written PyTorch eager loop."""
    pytest.importorskip("torch")
    cmd = [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--backends", "native"]
    cmd += ["--workloads", "B5,B6,B7", "--steps", "1", "--epochs", "1", "--no-extras", "--clock", "cpu"]
    proc = subprocess.run(
        cmd, capture_output=True, text=True, timeout=600, cwd=ROOT, env={**os.environ, "HIGHLEVEL_BACKEND": "native"}
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "FAILED" not in proc.stderr, proc.stderr[-3000:]
    rows = [
        [c.strip() for c in line.strip("|").split("|")] for line in proc.stdout.splitlines() if line.startswith("| ")
    ]
    names = [r[0] for r in rows if r[1] == "native"]
    assert names == ["B5", "B6", "B6-bi", "B7"], proc.stdout
    for row in rows[1:]:
        assert row[3] != "-" and row[4] != "-" and row[6].endswith("x") and "hand<=2" in row[8], row


def _bench_module(name):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_row(workload, backend, r_hand, r_keras, hand_limit=1.1):
    ok = lambda r, limit: "ok" if r <= limit else "MISS"  # noqa: E731
    target = f"hand<={hand_limit:g} {ok(r_hand, hand_limit)}, keras<=1.00 {ok(r_keras, 1.0)}"
    return [workload, backend, "ms/step", "10", "10", "10", f"{r_hand:.2f}x", f"{r_keras:.2f}x", target, ""]


def test_runs_verdict_needs_every_target_met_in_every_run():
    verdict = _bench_module("_verdict")
    run = _bench_module("run")
    runs = [
        [_fake_row("B6", "jax", 0.5, 0.80), _fake_row("B6-bi", "jax", 0.9, 0.88)],
        [_fake_row("B6", "jax", 0.5, 0.81), _fake_row("B6-bi", "jax", 0.9, 1.02)],  # keras missed in run 2 only
        [_fake_row("B6", "jax", 0.5, 0.79)],  # B6-bi absent from run 3: not met there either
    ]
    rows, line = verdict.summarize(run.HEADER, runs)
    assert verdict.summary_header(3) == ["workload", "backend", "target", "run 1", "run 2", "run 3", "met in all"]
    by_target = {tuple(r[:3]): r[3:] for r in rows}
    assert by_target[("B6", "jax", "hand<=1.1")] == ["0.50x ok", "0.50x ok", "0.50x ok", "yes"]
    assert by_target[("B6", "jax", "keras<=1.00")] == ["0.80x ok", "0.81x ok", "0.79x ok", "yes"]
    assert by_target[("B6-bi", "jax", "keras<=1.00")] == ["0.88x ok", "1.02x MISS", "-", "no (runs 2, 3)"]
    assert by_target[("B6-bi", "jax", "hand<=1.1")][-1] == "no (run 3)"
    assert line == (
        "Verdict over 3 runs: 2 target(s) not met in every run: B6-bi jax hand<=1.1 (run 3); "
        "B6-bi jax keras<=1.00 (runs 2, 3)."
    )
    # met in two runs of three is not met
    two_of_three = [[_fake_row("B5", "torch", r, 0.9)] for r in (1.0, 1.2, 1.05)]
    rows, line = verdict.summarize(run.HEADER, two_of_three)
    assert rows[0] == ["B5", "torch", "hand<=1.1", "1.00x ok", "1.20x MISS", "1.05x ok", "no (run 2)"]
    assert "B5 torch hand<=1.1 (run 2)" in line and "keras" not in line
    rows, line = verdict.summarize(run.HEADER, [[_fake_row("B5", "torch", 1.0, 0.9)]] * 3)
    assert line == "Verdict over 3 runs: all 2 target(s) met in every run."
    # a target that could not be measured ("?") is not met; the native/PyTorch and memory rows read ours/hand
    unmeasured = ["memory B5", "native", "MiB", "300", "250", "-", "1.20x", "-", "hand<=1.5 ?", ""]
    rows, _ = verdict.summarize(run.HEADER, [[unmeasured]])
    assert rows == [["memory B5", "native", "hand<=1.5", "1.20x ?", "no (run 1)"]]


def test_runs_option_repeats_the_table_and_prints_each_targets_runs():
    cmd = [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--backends", "native"]
    cmd += ["--workloads", "B1", "--steps", "2", "--epochs", "1", "--no-extras", "--clock", "cpu", "--runs", "3"]
    proc = subprocess.run(
        cmd, capture_output=True, text=True, timeout=300, cwd=ROOT, env={**os.environ, "HIGHLEVEL_BACKEND": "native"}
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "FAILED" not in proc.stderr, proc.stderr[-3000:]
    for r in (1, 2, 3):
        assert f"Run {r} of 3:" in proc.stdout
    tables = [
        [c.strip() for c in line.strip("|").split("|")] for line in proc.stdout.splitlines() if line.startswith("| ")
    ]
    measured = [t for t in tables if t[:2] == ["B1", "native"] and len(t) == 10]
    assert len(measured) == 3, proc.stdout  # one row per run
    summary = [t for t in tables if t[:3] == ["B1", "native", "hand<=1.2"]]
    assert len(summary) == 1, proc.stdout
    cells = summary[0][3:6]
    assert [c.split()[0] for c in cells] == [m[6] for m in measured]  # each run's own ratio
    met = all(c.endswith(" ok") for c in cells)
    assert summary[0][6] == "yes" if met else summary[0][6].startswith("no (run")
    verdict = [line for line in proc.stdout.splitlines() if line.startswith("Verdict over 3 runs:")]
    assert len(verdict) == 1 and ("all 1 target(s) met" in verdict[0]) == met, proc.stdout
    assert "3 runs in a row" in proc.stdout
