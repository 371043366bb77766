"""Runs every teaching notebook in notebooks/ top to bottom in a fresh kernel, then checks what it claims.

**Running.** The kernel is this interpreter (``sys.executable``), whatever kernelspecs the machine has
installed, with ``HIGHLEVEL_BACKEND`` set to the backend of the test case, matplotlib's non-interactive ``Agg``
backend and one thread per numeric library; files a notebook writes land in a temporary folder. Any error in
a cell fails the test.

**Checking.** After the last cell, the test runs one more cell in the same kernel (appended in memory, never
stored in the notebook): ``check(name, globals())`` from ``lesson_checks.py``, which reads the real computed
values the lesson left behind — models, histories, accuracies, arrays — and checks each thing the lesson's
prose says about them: an accuracy the text calls a success, a loss that "falls", a parameter count it works
out by hand, an equality it calls "bitwise". Every failed claim is listed in the error. The figures checked are
printed with the notebook's time (``pytest -s`` shows them). The saved outputs are checked too: every ``fit``
and ``evaluate`` a cell runs visibly shows its metrics as text, and no cell leaves an empty or widget-only
output behind (``kernel.progress_problems``).

**With and without ipywidgets.** Every lesson also runs once with ``ipywidgets`` hidden in the kernel, as on
a machine that lacks it (``kernel.kernel_env``; test_kernel.py shows the kernel then sees what it sees when the
package is absent), and the same output checks apply: each epoch's metrics and ``evaluate``'s results show as
text. The backend of that run rotates with the lesson's place in the list (lesson 1 on the first backend of the
matrix, lesson 2 on the second, ...). A lesson that runs on every backend makes that backend's run its run
without widgets (no extra run); a lesson that runs once gets one extra run. A new lesson is covered by the same
rule as soon as it is in ``notebooks/`` and ``RUNS_ON``. The check cell also reports whether the kernel found
ipywidgets, so that no run passes in the wrong kind of kernel.

**Which backends.** A notebook's numbers come out the same on the four engines (within float32 rounding;
03's dropout draws from each engine's own generator), and each notebook passes its checks on all four
(``HIGHLEVEL_NOTEBOOK_MATRIX=full``). In the default run the cost of a kernel per backend decides. Measured with
2 workers on 2 cores, a notebook takes 4-10 s on native and 8-25 s on JAX, PyTorch or TensorFlow (mostly
importing the framework and compiling steps); the full matrix takes about 4 minutes, this selection under 2:

* **03** (a custom layer that assigns state in its step, a subclassed model built by its first ``fit``, a
  custom ``train_step`` on ``variables_value_and_grad``, ``add_loss``) runs on **every** backend of the test
  matrix: there the learner's own code meets each engine's step compiler (``jax.jit``, ``tf.function``, the
  recorded steps of native and PyTorch) in ways the unit tests of built-in layers do not cover. So does
  **07**: convolution and recurrence are the kernels that differ most between engines, and it calls layers
  eagerly on arrays outside ``fit``.
* **09** (transfer learning with a MobileNetV2 base) runs once, on the **first** backend. It passes on all four
  (``HIGHLEVEL_NOTEBOOK_MATRIX=full``), but it compiles a 57-layer model's steps nine times (pretraining,
  evaluation, the frozen phase, fine-tuning, the solutions): measured on a loaded 2-core machine, 20-50 s on
  native and PyTorch, 160 s on TensorFlow and 220 s on JAX. What it shows across engines — a frozen base keeps
  every weight, batch norm included, and ``training=False`` keeps batch norm in inference mode while the base
  trains — ``tests/applications/test_transfer_learning.py`` checks on every backend at a fraction of the cost.
* **04** is about the native engine and switches itself to it; it runs once, under the **last** backend of
  the matrix (TensorFlow by default), which tests that switch.
* **10** (LoRA and int8 quantization of a small MLP) runs once, on the **first** backend: it passes on all four
  (``HIGHLEVEL_NOTEBOOK_MATRIX=full``); what it relies on across engines (LoRA's factors, quantized layers and
  their products) ``tests/layers/core/test_lora.py``, ``test_quantize.py`` and the contract tests check on every
  backend.
* **01, 02, 05, 06, 08** run once, on the **first** backend of the matrix (native by default): they use built-in
  layers and the stock ``fit`` loop, whose agreement across engines the conformance suite proves; 05 runs
  all four engines inside itself with ``hl.config.backend_scope``, and 08 moves its model to torch (to JAX when
  it trained on torch). They skip when a framework they need is missing; ``CI=true`` turns a missing one into
  an error.

``HIGHLEVEL_TEST_BACKENDS`` narrows the matrix as for the other tests; ``HIGHLEVEL_NOTEBOOK_MATRIX=full`` runs
every notebook on every backend of the matrix. Notebooks are stored without outputs, and that is checked too.
"""

import importlib.util
import json
import os
import pathlib
import time

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

import highlevel as hl  # noqa: E402

from tests.conftest import selected_backends  # noqa: E402
from tests.notebooks.kernel import kernel_env, progress_problems  # noqa: E402

NOTEBOOKS = pathlib.Path(__file__).resolve().parents[2] / "notebooks"
CHECKS = pathlib.Path(__file__).resolve().with_name("lesson_checks.py")
CELL_TIMEOUT_S = 300  # one cell; generous because CI shares 2 cores between 2 workers
# One thread per library in the kernel: CI runs 2 xdist workers on 2 cores, and torch's default of one
# thread per core then oversubscribes the CPU (a torch training step measured 15x slower that way).
SINGLE_THREAD = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
                 "TF_NUM_INTRAOP_THREADS": "1", "TF_NUM_INTEROP_THREADS": "1", "TF_CPP_MIN_LOG_LEVEL": "3",
                 # conftest's XLA settings (one thread, the faster compiles of the test suite)
                 "XLA_FLAGS": os.environ.get("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")}
NAMES = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
FIGURES_MARK = "LESSON-FIGURES "
WIDGETS_MARK = "ipywidgets importable in the kernel:"

# The backends each notebook runs on (the module docstring says why): "every", "first" or "last" of the matrix.
RUNS_ON = {"01": "first", "02": "first", "03": "every", "04": "last", "05": "first", "06": "first",
           "07": "every", "08": "first", "09": "first", "10": "first"}


def _cases():
    matrix = selected_backends()
    full = os.environ.get("HIGHLEVEL_NOTEBOOK_MATRIX", "").lower() == "full"
    cases = []
    for place, name in enumerate(NAMES):
        where = "every" if full else RUNS_ON[name[:2]]
        engines = matrix if where == "every" else [matrix[0] if where == "first" else matrix[-1]]
        bare = matrix[place % len(matrix)]  # the backend of this lesson's run without ipywidgets
        with_widgets = [e for e in engines if e != bare] or engines  # a lesson's only run stays; one more comes
        cases += [pytest.param(name, engine, True, id=f"{name[:-6]}-{engine}") for engine in with_widgets]
        cases.append(pytest.param(name, bare, False, id=f"{name[:-6]}-{bare}-no-ipywidgets"))
    return cases


def _check_cell(name):
    """The cell appended after the lesson: runs lesson_checks.check on the kernel's globals, prints the figures."""
    return nbformat.v4.new_code_cell(
        "get_ipython().run_line_magic('colors', 'nocolor')  # a failure's traceback reads as plain text\n"
        "import importlib.util as _ilu, json as _json\n"
        f"_spec = _ilu.spec_from_file_location('lesson_checks', {str(CHECKS)!r})\n"
        "_checks = _ilu.module_from_spec(_spec)\n"
        "_spec.loader.exec_module(_checks)\n"
        f"print({FIGURES_MARK!r} + _json.dumps(_checks.check({name!r}, globals())))\n"
        f"print({WIDGETS_MARK!r}, _ilu.find_spec('ipywidgets') is not None)\n")


def _figures(cell):
    for output in cell.get("outputs", []):
        for line in output.get("text", "").splitlines():
            if line.startswith(FIGURES_MARK):
                return json.loads(line[len(FIGURES_MARK):])
    raise AssertionError(f"the check cell printed no figures: {cell.get('outputs')}")


def test_every_lesson_is_present_and_linked_from_the_readme():
    assert len(NAMES) == 10, NAMES
    assert sorted(RUNS_ON) == sorted(name[:2] for name in NAMES), "RUNS_ON must name every notebook"
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
def test_notebook_is_stored_without_outputs(name):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    assert all(not c.get("outputs") and c.get("execution_count") is None
               for c in nb.cells if c.cell_type == "code"), f"{name} is stored with outputs; clear them"


@pytest.mark.parametrize("name, engine, widgets", _cases())
def test_notebook_runs_and_its_claims_hold(name, engine, widgets, tmp_path, monkeypatch):
    ci = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    needed = ("native", "jax", "torch", "tensorflow") if name.startswith("05_") else (engine,)
    if name.startswith("08_"):  # it moves the model to torch (or, trained on torch, to jax)
        needed = (engine, "jax" if engine == "torch" else "torch")
    missing = [b for b in needed if b not in hl.backends.installed()]
    if missing and not ci:
        pytest.skip(f"{name} on {engine} needs backends that are not installed: {missing}")
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nb.cells.append(_check_cell(name))

    kernel = kernel_env(tmp_path, monkeypatch, widgets=widgets)
    monkeypatch.setenv("HIGHLEVEL_BACKEND", engine)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # silences a debugger warning at kernel start
    for var, value in SINGLE_THREAD.items():
        monkeypatch.setenv(var, value)
    workdir = tmp_path / "run"
    workdir.mkdir()  # files a lesson writes (checkpoints, backups) land here, not in the repository
    client = nbclient.NotebookClient(nb, kernel_name=kernel, timeout=CELL_TIMEOUT_S,
                                     resources={"metadata": {"path": str(workdir)}})
    start = time.perf_counter()
    client.execute()  # raises CellExecutionError, naming the cell (or the failed claims), on the first error
    problems = progress_problems(nb)  # every fit's epochs and evaluate's results show as text, nothing empty
    assert not problems, f"{name}: the outputs do not show the progress a learner expects:\n  " + "\n  ".join(problems)
    # The run had the kernel it was meant to have: ipywidgets hidden, or there (where this machine has it).
    expected = widgets and importlib.util.find_spec("ipywidgets") is not None
    shown = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert f"{WIDGETS_MARK} {expected}" in shown, shown[-500:]
    print(f"{name} on {engine}: {time.perf_counter() - start:.1f} s; {_figures(nb.cells[-1])}")
