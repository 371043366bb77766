"""The frameworks' own start-up log lines stay out of the user's stderr unless HIGHLEVEL_FRAMEWORK_LOGS asks."""

import os
import subprocess
import sys

import pytest

import highlevel as hl
from highlevel.backends.contract.framework_logs import framework_logs_wanted, quiet_native_stderr

FIRST_USE = "import highlevel as hl\nhl.config.set_backend('tensorflow')\nprint(float(hl.ops.add(1.0, 2.0)))\n"


def test_quiet_native_stderr_drops_what_native_code_writes_and_restores_stderr(capfd, monkeypatch):
    monkeypatch.delenv("HIGHLEVEL_FRAMEWORK_LOGS", raising=False)
    with quiet_native_stderr():
        os.write(2, b"dropped\n")
    os.write(2, b"kept\n")
    assert capfd.readouterr().err == "kept\n"


def test_highlevel_framework_logs_lets_them_through(capfd, monkeypatch):
    monkeypatch.setenv("HIGHLEVEL_FRAMEWORK_LOGS", "1")
    assert framework_logs_wanted()
    with quiet_native_stderr():
        os.write(2, b"shown\n")
    assert capfd.readouterr().err == "shown\n"


def _first_use(**env):
    full = {k: v for k, v in os.environ.items() if k not in ("TF_CPP_MIN_LOG_LEVEL", "HIGHLEVEL_FRAMEWORK_LOGS")}
    out = subprocess.run(
        [sys.executable, "-c", FIRST_USE], capture_output=True, text=True, timeout=300, env={**full, **env}
    )
    assert out.returncode == 0 and out.stdout.strip() == "3.0", out.stderr
    return out.stderr


def test_tensorflow_import_lines_are_quiet_by_default_and_shown_on_request():
    if "tensorflow" not in hl.backends.installed():
        pytest.skip("tensorflow is not installed")
    loud = _first_use(HIGHLEVEL_FRAMEWORK_LOGS="1")
    if not loud.strip():
        pytest.skip("this TensorFlow build writes nothing to stderr when imported here: nothing to quieten")
    assert _first_use() == "", "TensorFlow's own log lines reached stderr by default"
