"""Keeps ``benchmarks/run.py`` from rotting: smoke runs on tiny workloads, native only (not timing tests)."""

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
