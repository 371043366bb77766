"""``import highlevel`` stays light: no framework, and the lazily loaded public names still resolve."""

import os
import subprocess
import sys

FRAMEWORKS = ("jax", "torch", "tensorflow", "keras", "flax", "orbax")


def _fresh(code):
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HIGHLEVEL_BACKEND": "native"},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.split()


def test_import_highlevel_imports_no_framework():
    code = f"import sys, highlevel; print(*[m for m in {FRAMEWORKS!r} if m in sys.modules] or ['none'])"
    assert _fresh(code) == ["none"]


def test_lazy_names_resolve_without_a_framework():
    # a native model built through the lazily loaded layer library still pulls in no framework
    code = (
        "import sys, highlevel as hl\n"
        "assert {'layers', 'Sequential', 'optimizers', 'utils'} <= set(dir(hl))\n"
        "model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])\n"
        "assert hl.layers.Dense is hl.layers.core.Dense and hl.models.Sequential is hl.Sequential\n"
        "assert 'PyDataset' in dir(hl.utils) and hl.utils.PyDataset.__name__ == 'PyDataset'\n"
        f"print(*[m for m in {FRAMEWORKS!r} if m in sys.modules] or ['none'])"
    )
    assert _fresh(code) == ["none"]
