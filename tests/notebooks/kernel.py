"""Running notebooks in a real Jupyter kernel for the tests, and checking what their outputs show.

``kernel_env`` prepares a kernelspec that launches this interpreter and, with ``widgets=False``, a
``sitecustomize`` that makes ``ipywidgets`` look uninstalled in the kernel: the import system and
``importlib.metadata`` no longer find it, nor the two packages that come with it (``widgetsnbextension``,
``jupyterlab_widgets``), so ``import ipywidgets`` fails as it does on a machine without it and
``importlib.util.find_spec`` answers None (test_kernel.py compares it with a package that is really absent).
``progress_problems`` lists what is wrong with the progress a run left in the saved outputs: a ``fit`` or
``evaluate`` whose metrics show nowhere, an epoch whose line is missing, an empty output, an output that only a
widget can render, a framework's own start-up log lines.
"""

import json
import os
import re
import sys

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
EPOCH_LINE = re.compile(r"^Epoch (\d+)/(\d+) .* - loss: \d", re.M)
EVALUATE_LINE = re.compile(r"^evaluate .* - loss: \d", re.M)
FRAMEWORK_NOISE = ("absl::InitializeLog", "oneDNN custom operations")  # TensorFlow's import, if not quietened
HIDDEN_PACKAGES = ("ipywidgets", "widgetsnbextension", "jupyterlab_widgets")
# The kernel's sitecustomize with widgets=False. It replaces the finder of installed packages by one that does not
# see the hidden ones: modules (find_spec) and their metadata (find_distributions). A None in sys.modules would
# make `import` fail too, but find_spec would then raise ValueError where an absent package gives None.
NO_WIDGETS = f"""import importlib.machinery
import re
import sys

_HIDDEN = {set(HIDDEN_PACKAGES)!r}


def _hidden(name):
    return re.sub(r"[-_.]+", "_", name or "").lower() in _HIDDEN


class _PathFinderWithoutWidgets(importlib.machinery.PathFinder):
    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if _hidden(fullname.partition(".")[0]):
            return None
        return super().find_spec(fullname, path, target)

    @classmethod
    def find_distributions(cls, *args, **kwargs):
        return (d for d in super().find_distributions(*args, **kwargs) if not _hidden(d.metadata["Name"]))


sys.meta_path[:] = [
    _PathFinderWithoutWidgets if f is importlib.machinery.PathFinder else f for f in sys.meta_path
]
"""


def kernel_env(tmp_path, monkeypatch, widgets=True):
    """Sets up ``tmp_path`` and the environment for a kernel of this interpreter; returns the kernel's name."""
    spec_dir = tmp_path / "kernels" / "hl-test"
    spec_dir.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "highlevel tests",
        "language": "python",
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path), prepend=os.pathsep)
    if not widgets:
        site = tmp_path / "no_widgets"
        site.mkdir()
        (site / "sitecustomize.py").write_text(NO_WIDGETS)
        monkeypatch.setenv("PYTHONPATH", str(site), prepend=os.pathsep)
    return "hl-test"


def _texts(cell):
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            yield out.get("text", "")
        else:
            yield out.get("data", {}).get("text/plain", "")


def _empty(out):
    # A stream may hold only print's "\n" (the kernel can send it as a message of its own): not empty.
    kind = out.get("output_type")
    if kind in ("display_data", "execute_result"):
        data = out.get("data", {})
        plain = data.get("text/plain", "").strip()
        shown = {k for k in data if k != WIDGET_MIME}
        return not shown or (set(shown) <= {"text/plain"} and plain in ("", "Output()"))
    return False


def _visible(source, call):
    """Whether ``source`` calls ``call`` and no call in it is silenced with ``verbose=0``."""
    return f".{call}(" in source and not re.search(r"verbose\s*=\s*0\b", source)


def _skipped_epochs(text):
    """Epochs missing from a run of epoch lines: ``Epoch 3/9`` right after ``Epoch 1/9`` skipped epoch 2.

    A run is a sequence of lines with the same total that counts up (a new ``fit``, or one resumed at a later
    epoch, starts a new run).
    """
    skipped, previous = [], None
    for match in EPOCH_LINE.finditer(text):
        epoch, total = int(match.group(1)), int(match.group(2))
        if previous is not None and previous[1] == total and previous[0] + 1 < epoch:
            skipped += [f"{e}/{total}" for e in range(previous[0] + 1, epoch)]
        previous = (epoch, total)
    return skipped


def progress_problems(nb):
    """What is wrong with the progress in ``nb``'s outputs, as a list of sentences (empty when all is well)."""
    problems = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        text = "\n".join(_texts(cell))
        for out in cell.get("outputs", []):
            if _empty(out):
                problems.append(f"cell {index} left an empty output behind: {out}")
            if WIDGET_MIME in out.get("data", {}):
                problems.append(f"cell {index} left a widget output, which a notebook without widget state cannot show")
            if out.get("name") == "stderr" and "ipywidgets" in out.get("text", ""):
                problems.append(f"cell {index} warned about ipywidgets: {out['text'][:200]!r}")
            if out.get("name") == "stderr" and any(noise in out.get("text", "") for noise in FRAMEWORK_NOISE):
                problems.append(f"cell {index} shows a framework's own log lines: {out['text'][:200]!r}")
        if _visible(cell.source, "fit") and not EPOCH_LINE.search(text):
            problems.append(f"cell {index} calls fit but no epoch's metrics show in its outputs: {text[:300]!r}")
        if _skipped_epochs(text):
            problems.append(f"cell {index} shows no metrics for epochs {_skipped_epochs(text)}: {text[:300]!r}")
        if _visible(cell.source, "evaluate") and not EVALUATE_LINE.search(text):
            problems.append(f"cell {index} calls evaluate but its results show nowhere in its outputs: {text[:300]!r}")
    return problems
