"""Every code block of the README works as written.

- The Python blocks run, in order, in one fresh process on the native backend (in an empty folder).
- Each line of each shell block is checked by the rule that fits it (a line no rule knows fails the test):
  the test-command block must be exactly what ``.ci/run`` runs (CI runs it, so it is not run again here); an
  install line is checked against ``pyproject.toml`` (its extras exist) and the files it names (the wheel is the
  one ``pip wheel`` writes), not run (that would download packages); ``pip wheel`` builds the wheel for real
  (without dependencies: no network here), the wheel holds every package, and the main job runs from it alone; ``python examples/...`` names a script that exists (``examples/digits.py``
  runs in tests/examples/test_digits.py); ``mkdocs build`` is run by tests/docs/test_site.py.
"""

import os
import pathlib
import re
import shlex
import subprocess
import sys
import zipfile

import tomllib

from tests.docs.markdown_blocks import blocks

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
WHEEL = f"highlevel-{PYPROJECT['project']['version']}-py3-none-any.whl"


def _test_command_of_ci():
    """The block ``.ci/run`` extracts from the README, with its own awk program."""
    ci = (ROOT / ".ci" / "run").read_text()
    awk = re.search(r"cmd=\$\(awk '(.*?)' README.md\)", ci).group(1)
    return subprocess.run(["awk", awk, "README.md"], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def test_readme_python_blocks_run(tmp_path):
    code = "\n".join(c for _, c in blocks(README, "python"))
    env = dict(os.environ, HIGHLEVEL_BACKEND="native")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=900, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr[-3000:]
    # The first block is the quick example: it trains, evaluates and reports the accuracy.
    assert "accuracy" in out.stdout


def test_the_test_command_is_what_ci_runs():
    marked = re.search(r"<!-- test-command.*?-->\s*\n```bash\n(.*?)```", README, re.S).group(1)
    assert _test_command_of_ci().strip() == marked.strip()
    assert 'pip install -r requirements/ci.txt -e ".[test]"' in marked
    assert "python -m pytest" in marked


def test_the_readme_lists_every_extra():
    listed = re.search(r"The extras are listed in `pyproject.toml`: (.*?)\.\n\n", README, re.S).group(1)
    names = set(re.findall(r"`([\w-]+)`", listed))
    assert names == set(PYPROJECT["project"]["optional-dependencies"])


def _check_pip_install(words):
    extras_known = set(PYPROJECT["project"]["optional-dependencies"])
    args = words[2:]
    assert args, "a pip install line without arguments"
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "-r":
            assert (ROOT / args[i + 1]).is_file(), f"{args[i + 1]} does not exist"
            i += 2
            continue
        if arg == "-e":
            i += 1
            continue
        if arg == "--extra-index-url":  # only PyTorch's CPU index (tests/test_packaging.py says where it is needed)
            assert args[i + 1] == "https://download.pytorch.org/whl/cpu", f"an unexpected index: {args[i + 1]}"
            i += 2
            continue
        if arg.startswith("dist/"):  # the wheel the README's `pip wheel` line builds (_check_pip_wheel)
            assert arg == f"dist/{WHEEL}", f"pip install {arg}: the wheel `pip wheel` writes is dist/{WHEEL}"
            i += 1
            continue
        m = re.fullmatch(r"\.(?:\[([\w,]+)\])?", arg)
        assert m, f"pip install {arg!r}: the README installs from the checkout only (highlevel is not published)"
        for extra in (m.group(1) or "").split(","):
            assert not extra or extra in extras_known, f"the extra {extra!r} is not in pyproject.toml"
        i += 1


def _check_pip_wheel(words, tmp_path):
    assert words[:3] == ["pip", "wheel", "."] and "-w" in words, words
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--no-build-isolation", "-w", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    (wheel,) = tmp_path.glob("highlevel-*.whl")
    assert wheel.name == WHEEL, f"the README names {WHEEL}, pip wrote {wheel.name}"
    names = zipfile.ZipFile(wheel).namelist()
    for package in PYPROJECT["tool"]["setuptools"]["packages"]:
        assert f"{package.replace('.', '/')}/__init__.py" in names, f"the wheel lacks {package}"
    assert "highlevel/datasets/data/README.md" in names
    # The main job runs from the wheel alone: unpacked (as pip installs it) first on the path, outside the checkout.
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import runpy, highlevel\n"
        "print('highlevel from', highlevel.__file__)\n"
        f"runpy.run_path({str(ROOT / 'examples' / 'digits.py')!r}, run_name='__main__')\n"
    )
    env = dict(os.environ, PYTHONPATH=str(site), HIGHLEVEL_BACKEND="native")
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert f"highlevel from {site / 'highlevel' / '__init__.py'}" in run.stdout, run.stdout[:500]
    assert re.search(r"backend native: test accuracy 0\.9[6-9]", run.stdout), run.stdout[-1000:]


def test_readme_shell_blocks(tmp_path):
    ci_block = _test_command_of_ci().strip()
    checked = 0
    for _, block in blocks(README, "bash"):
        if block.strip() == ci_block:
            continue  # .ci/run runs it (test_the_test_command_is_what_ci_runs)
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            for command in filter(None, (c.strip() for c in line.split("&&"))):
                words = shlex.split(command)
                while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
                    words = words[1:]  # environment assignments
                if words[:2] == ["pip", "install"]:
                    _check_pip_install(words)
                elif words[:2] == ["pip", "wheel"]:
                    _check_pip_wheel(words, tmp_path)
                elif words[:1] == ["python"] and words[1].startswith("examples/"):
                    assert (ROOT / words[1]).is_file(), f"{words[1]} does not exist"
                elif words[:2] == ["mkdocs", "build"]:
                    assert (ROOT / "mkdocs.yml").is_file()  # built by tests/docs/test_site.py
                else:
                    raise AssertionError(f"no check knows the README's shell command {command!r}")
                checked += 1
    assert checked >= 5
