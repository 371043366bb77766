"""The compatibility suite: small programs written the way Keras users write them, run on every backend.

Each module in ``programs/`` has a ``main()`` that builds tiny synthetic data, trains, asserts that the model
learned, and returns its final metrics. A program that needs a feature not built yet is listed in ``PENDING``
with the exact feature: it runs as a strict xfail, so it fails loudly once the feature lands and the entry
must be removed.
"""

import importlib
import pathlib

import pytest

import highlevel as hl

PROGRAMS = sorted(
    p.stem for p in (pathlib.Path(__file__).parent / "programs").glob("*.py") if not p.stem.startswith("_")
)

#: program -> (backends it fails on, or None for all; the missing feature).
PENDING = {}


@pytest.mark.parametrize("program", PROGRAMS)
def test_program(backend, program, tmp_path, monkeypatch, request):
    backends, reason = PENDING.get(program, ((), None))
    if reason is not None and (backends is None or backend.name in backends):
        request.applymarker(pytest.mark.xfail(strict=True, reason=reason))
    monkeypatch.chdir(tmp_path)  # programs write their files (checkpoints, logs) into the current directory
    module = importlib.import_module(f"tests.compat.programs.{program}")
    try:
        metrics = module.main()
    finally:
        hl.mixed_precision.set_global_policy("float32")
        # Names only: a full garbage collection costs seconds in a test worker that has run thousands of tests
        # (its cost grows with every live object), and Python collects the programs' cycles on its own anyway.
        hl.utils.clear_session(free_memory=False)
    assert isinstance(metrics, dict) and metrics, f"{program}.main() returned {metrics!r}, not its final metrics"


def test_the_suite_is_large_enough():
    assert len(PROGRAMS) >= 32, PROGRAMS
