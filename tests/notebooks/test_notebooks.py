"""Runs every teaching notebook in notebooks/ top to bottom in a fresh kernel; any error fails the test.

The kernel is this interpreter (``sys.executable``), whatever kernelspecs the machine has installed, with
``HIGHLEVEL_BACKEND=native``, matplotlib's non-interactive ``Agg`` backend and one thread per numeric
library; files a notebook writes land in a temporary folder. Notebook 05 switches engines inside itself with
``hl.config.backend_scope`` and skips when one of the four frameworks is missing (CI installs all four, and
``CI=true`` turns a missing one into an error). Notebooks are stored without outputs, and that is checked too.
"""

import json
import os
import pathlib
import sys
import time

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

import highlevel as hl  # noqa: E402

NOTEBOOKS = pathlib.Path(__file__).resolve().parents[2] / "notebooks"
CELL_TIMEOUT_S = 300  # one cell; generous because CI shares 2 cores between 2 workers
# One thread per library in the kernel: CI runs 2 xdist workers on 2 cores, and torch's default of one
# thread per core then oversubscribes the CPU (a torch training step measured 15x slower that way).
SINGLE_THREAD = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
                 "TF_NUM_INTRAOP_THREADS": "1", "TF_NUM_INTEROP_THREADS": "1", "TF_CPP_MIN_LOG_LEVEL": "3",
                 # conftest's XLA settings (one thread, the faster compiles of the test suite)
                 "XLA_FLAGS": os.environ.get("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")}
NAMES = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def _kernelspec(tmp_path):
    """A kernelspec that launches this very interpreter, so that the notebook sees the installed highlevel."""
    spec_dir = tmp_path / "kernels" / "hl-test"
    spec_dir.mkdir(parents=True)
    spec = {"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "highlevel tests", "language": "python"}
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    return "hl-test"


def test_every_lesson_is_present_and_linked_from_the_readme():
    assert len(NAMES) == 7, NAMES
    readme = (NOTEBOOKS / "README.md").read_text(encoding="utf-8")
    unlinked = [name for name in NAMES if f"]({name})" not in readme]
    assert not unlinked, f"notebooks/README.md does not link {unlinked}"


@pytest.mark.parametrize("name", NAMES)
def test_lesson_has_exercises_with_collapsed_solutions(name):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    prose = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "## Exercises" in prose and "## Solutions" in prose, name
    solutions = [c for c in nb.cells if c.cell_type == "code" and c.metadata.get("jupyter", {}).get("source_hidden")]
    assert 2 <= len(solutions) <= 3, f"{name}: {len(solutions)} collapsed solution cells"


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_top_to_bottom(name, tmp_path, monkeypatch):
    if name.startswith("05_"):
        missing = [b for b in ("native", "jax", "torch", "tensorflow") if b not in hl.backends.installed()]
        if missing and os.environ.get("CI", "").lower() not in ("1", "true", "yes"):
            pytest.skip(f"notebook 05 needs all four backends; not installed: {missing}")
    path = NOTEBOOKS / name
    nb = nbformat.read(path, as_version=4)
    assert all(not c.get("outputs") and c.get("execution_count") is None
               for c in nb.cells if c.cell_type == "code"), f"{name} is stored with outputs; clear them"

    kernel = _kernelspec(tmp_path)
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path), prepend=os.pathsep)
    monkeypatch.setenv("HIGHLEVEL_BACKEND", "native")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # silences a debugger warning at kernel start
    for var, value in SINGLE_THREAD.items():
        monkeypatch.setenv(var, value)
    workdir = tmp_path / "run"
    workdir.mkdir()  # files a lesson writes (checkpoints, backups) land here, not in the repository
    client = nbclient.NotebookClient(nb, kernel_name=kernel, timeout=CELL_TIMEOUT_S,
                                     resources={"metadata": {"path": str(workdir)}})
    start = time.perf_counter()
    client.execute()  # raises CellExecutionError, naming the cell, on the first error
    print(f"{name}: {time.perf_counter() - start:.1f} s")
