"""Error messages name the command that installs a missing optional part, and that command exists.

highlevel is not on a package index: ``pip install "highlevel[h5]"`` finds nothing, so messages give the command
for a checkout (``highlevel._extras.install_command``), with PyTorch's CPU index where the extra brings torch.
"""

import pathlib
import re
import subprocess
import sys

import tomllib

from highlevel._extras import EXTRAS_WITH_TORCH, TORCH_CPU_INDEX, install_command
from tests.test_packaging import _extras_with_torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = [p for folder in ("highlevel", "backends", "callbacks", "layers") for p in (ROOT / folder).rglob("*.py")]
EXTRAS = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])


def test_the_extras_that_bring_torch_are_those_of_pyproject():
    assert set(EXTRAS_WITH_TORCH) == _extras_with_torch()
    assert (
        install_command("test")
        == f'pip install -e ".[test]" --extra-index-url {TORCH_CPU_INDEX} (in a checkout of highlevel)'
    )
    assert install_command("jax") == 'pip install -e ".[jax]" (in a checkout of highlevel)'


def test_every_extra_a_message_names_exists():
    named = set()
    for path in SOURCES:
        named |= set(re.findall(r"install_command\(['\"](\w+)['\"]\)", path.read_text(encoding="utf-8")))
    from highlevel.backends import registry

    named |= {extra for _, _, extra in registry._BUILTIN.values() if extra}
    assert len(named) >= 10, named
    assert named <= EXTRAS, f"messages name extras that pyproject.toml does not have: {sorted(named - EXTRAS)}"


def test_no_message_installs_highlevel_from_an_index():
    unpublished = re.compile(r"pip install ['\"]?highlevel\[")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in SOURCES
        if path.name != "_extras.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if unpublished.search(line)
    ]
    assert not found, f"highlevel is not published; use highlevel._extras.install_command: {found}"


def test_a_missing_backend_says_how_to_install_it_from_a_checkout(tmp_path):
    # A process where torch is not found, as on a machine without it.
    code = (
        "import importlib.util, sys\n"
        "_find = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda name, *a: None if name == 'torch' else _find(name, *a)\n"
        "import highlevel as hl\n"
        "try:\n"
        "    hl.backends.get('torch')\n"
        "except Exception as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    expected = f'pip install -e ".[torch]" --extra-index-url {TORCH_CPU_INDEX} (in a checkout of highlevel)'
    assert "Backend 'torch' needs the 'torch' package" in out.stdout and expected in out.stdout, out.stdout
