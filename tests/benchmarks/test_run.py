"""Keeps ``benchmarks/run.py`` from rotting: a smoke run on one tiny workload, native only (not a timing test)."""

import os
import pathlib
import subprocess
import sys

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
