"""The tree passes the linter and is formatted (ruff, configured in pyproject.toml; the same checks as the
pre-commit hooks). Run ``ruff check --fix . && ruff format .`` to fix what this reports."""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _ruff(*args):
    exe = shutil.which("ruff") or os.path.join(os.path.dirname(sys.executable), "ruff")
    if not os.path.exists(exe):
        pytest.fail("ruff is not installed: it is in the test extras (pip install -e '.[test]').")
    return subprocess.run([exe, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_linter_passes():
    proc = _ruff("check", "--no-cache", "--output-format", "concise", ".")
    assert proc.returncode == 0, f"ruff check found problems (fix with `ruff check --fix .`):\n{proc.stdout[-6000:]}"


def test_every_file_is_formatted():
    proc = _ruff("format", "--no-cache", "--check", ".")
    assert proc.returncode == 0, f"files not formatted (run `ruff format .`):\n{proc.stdout[-6000:]}"
