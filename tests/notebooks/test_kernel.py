"""The kernel without ipywidgets behaves as on a machine where it is not installed.

``kernel.kernel_env(widgets=False)`` hides ipywidgets with a ``sitecustomize``; the notebook suite's runs without
widgets are only worth something if that is what a learner without ipywidgets meets. A probe reports how the
import system answers for a name (import, ``find_spec``, ``importlib.metadata``) in a process of this interpreter
that loads the kernel's ``sitecustomize``; a hidden package must answer as a package that is really absent does,
and must be found again without the ``sitecustomize``.
"""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from tests.notebooks.kernel import HIDDEN_PACKAGES, kernel_env, progress_problems

ABSENT = "hl_no_such_package_installed"
PROBE = """
import importlib, importlib.metadata, importlib.util, json, sys
name = sys.argv[1]
report = {"find_spec": importlib.util.find_spec(name) is None}
try:
    importlib.import_module(name)
    report["import"] = "imported"
except Exception as e:
    report["import"] = f"{type(e).__name__}: {e}".replace(name, "NAME")
try:
    importlib.metadata.version(name)
    report["metadata"] = "found"
except Exception as e:
    report["metadata"] = type(e).__name__
report["listed"] = any(d.metadata["Name"].lower().replace("-", "_") == name for d in importlib.metadata.distributions())
print(json.dumps(report))
"""


def _probe(name, env):
    out = subprocess.run([sys.executable, "-c", PROBE, name], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)


@pytest.mark.parametrize("package", HIDDEN_PACKAGES)
def test_without_widgets_a_hidden_package_looks_uninstalled(package, tmp_path, monkeypatch):
    if importlib.util.find_spec(package) is None:
        pytest.skip(f"{package} is not installed here, so there is nothing to hide")
    shown = _probe(package, dict(os.environ))
    assert shown["find_spec"] is False and shown["import"] == "imported" and shown["listed"], shown

    kernel_env(tmp_path, monkeypatch, widgets=False)  # sets PYTHONPATH to the folder of the sitecustomize
    env = dict(os.environ)
    hidden, absent = _probe(package, env), _probe(ABSENT, env)
    assert hidden == absent, f"hidden {package}: {hidden}; a package that is not installed: {absent}"
    assert hidden["import"] == "ModuleNotFoundError: No module named 'NAME'", hidden
    assert hidden["metadata"] == "PackageNotFoundError" and not hidden["listed"], hidden


def test_without_widgets_other_packages_still_import(tmp_path, monkeypatch):
    kernel_env(tmp_path, monkeypatch, widgets=False)
    shown = _probe("ipykernel", dict(os.environ))
    assert shown == {"find_spec": False, "import": "imported", "metadata": "found", "listed": True}, shown


def _notebook(source, *outputs):
    nbformat = pytest.importorskip("nbformat")
    cell = nbformat.v4.new_code_cell(source)
    cell.outputs = [nbformat.from_dict(o) for o in outputs]
    return nbformat.v4.new_notebook(cells=[cell])


def _shown(text):
    return {"output_type": "display_data", "metadata": {}, "data": {"text/plain": text}}


def _epoch(n, total=3):
    return _shown(f"Epoch {n}/{total} 9/9 ━━━━━━━━━━━━━━━━━━━━ 20ms 2ms/step - loss: 0.5{n}")


def test_progress_problems_accepts_every_epoch_and_evaluate_shown():
    nb = _notebook(
        "model.fit(x, y, epochs=3)\nmodel.evaluate(x, y)",
        _epoch(1),
        _epoch(2),
        _epoch(3),
        _shown("evaluate 6/6 ━━━━━━━━━━━━━━━━━━━━ 9ms 1ms/step - loss: 0.4"),
    )
    assert progress_problems(nb) == []


@pytest.mark.parametrize(
    "outputs, expected",
    [
        ([_epoch(1), _epoch(3), _shown("evaluate 6/6 - loss: 0.4")], "no metrics for epochs ['2/3']"),
        ([_epoch(1), _epoch(2), _epoch(3)], "calls evaluate but its results show nowhere"),
        ([_shown("evaluate 6/6 - loss: 0.4")], "calls fit but no epoch's metrics show"),
        ([_epoch(1), _epoch(2), _epoch(3), _shown("evaluate 6/6 - loss: 0.4"), _shown("Output()")], "empty output"),
    ],
    ids=["skipped-epoch", "no-evaluate", "no-epoch", "placeholder"],
)
def test_progress_problems_names_what_is_missing(outputs, expected):
    problems = progress_problems(_notebook("model.fit(x, y, epochs=3)\nmodel.evaluate(x, y)", *outputs))
    assert any(expected in p for p in problems), problems
