"""The README's main job: examples/digits.py trains on the embedded digits and reaches 96% on held-out data."""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_digits_example_on_the_native_backend():
    env = dict(os.environ, HIGHLEVEL_BACKEND="native")
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "digits.py")], capture_output=True, text=True, env=env, timeout=600
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    line = [l for l in out.stdout.splitlines() if "test accuracy" in l][-1]
    assert float(line.split("test accuracy")[1].split()[0]) >= 0.96
    assert "Epoch 1/" in out.stdout  # the progress display ran


def test_fit_function_example_runs():
    env = dict(os.environ, HIGHLEVEL_BACKEND="native")
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "fit_function.py")],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert float(out.stdout.strip().splitlines()[-1].split("final mse")[1].split()[0]) < 0.01
