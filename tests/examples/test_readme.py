"""The README's first code block runs as written (on the native backend)."""

import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_readme_quick_example_runs():
    text = (ROOT / "README.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    env = dict(os.environ, HIGHLEVEL_BACKEND="native")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600, cwd=str(ROOT)
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert "evaluate" in out.stdout and "accuracy" in out.stdout
