"""The distribution: every package folder is listed in pyproject.toml under its highlevel.* name; torch's pins."""

import pathlib
import re

import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
MAPPING = {
    "highlevel": "highlevel",
    "highlevel.backends": "backends",
    "highlevel.layers": "layers",
    "highlevel.callbacks": "callbacks",
}


def test_every_package_folder_is_installed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    assert config["tool"]["setuptools"]["package-dir"] == MAPPING
    expected = set()
    for prefix, folder in MAPPING.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            if "__pycache__" in rel.parts:
                continue
            expected.add(".".join([prefix, *rel.parts]) if rel.parts else prefix)
    assert sorted(expected - listed) == [], "add these packages to [tool.setuptools] packages in pyproject.toml"
    assert sorted(listed - expected) == [], "these listed packages have no folder"


def test_core_dependencies_are_small_and_framework_free():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    names = sorted(d.split(">")[0].split("=")[0].split("<")[0].strip() for d in config["project"]["dependencies"])
    # safetensors: the model file's weights, never pickle; ml_dtypes: bfloat16 arrays on the host
    assert names == ["ml_dtypes", "numpy", "rich", "safetensors"]


def test_torch_is_pinned_everywhere_it_is_required():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for extra, deps in config["project"]["optional-dependencies"].items():
        for dep in deps:
            if dep.startswith("torch"):
                assert dep == "torch==2.13.0", f"extra {extra!r} must pin the CPU build: {dep}"
    pins = (ROOT / "requirements" / "ci.txt").read_text().splitlines()
    assert "jax==0.10.2" in pins and "tensorflow-cpu==2.21.0" in pins


def test_ci_requirements_pin_torch_and_say_where_its_cpu_build_is():
    # PyPI's Linux wheel of torch 2.13.0 is the CUDA build: the version pin alone does not give the CPU build.
    # The file pins the version and names PyTorch's CPU index for the command line (an index written into the
    # file would be looked up for every package, and retried wherever it cannot be reached).
    text = (ROOT / "requirements" / "ci.txt").read_text()
    pins = text.splitlines()
    assert [line for line in pins if line.startswith("torch")] == ["torch==2.13.0"]
    assert f"--extra-index-url {TORCH_CPU_INDEX}" in text
    assert not any(line.startswith("--extra-index-url") for line in pins)


def _extras_with_torch():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]

    def brings_torch(extra):
        for dep in extras[extra]:
            if dep.startswith("torch"):
                return True
            if dep.startswith("highlevel["):
                if any(brings_torch(e) for e in dep[len("highlevel[") : dep.index("]")].split(",")):
                    return True
        return False

    return {extra for extra in extras if brings_torch(extra)}


def test_every_documented_install_of_torch_names_the_cpu_index():
    with_torch = _extras_with_torch()
    assert {"torch", "test", "all"} <= with_torch, with_torch
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "notebooks" / "README.md"]
    pages += sorted((ROOT / "docs").rglob("*.md"))
    found, wrong = 0, []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        # an install command: in `backquotes` (which may wrap a line), or a line of a code block up to its comment
        commands = re.findall(r"`(pip install [^`]*)`", text)
        commands += re.findall(r"^[ \t]*(?:[^`\n]*&& )?(pip install [^#\n]*)", text, re.M)
        for command in commands:
            command = " ".join(command.split())
            extras = set(re.findall(r"\[([\w,]+)\]", command))
            if not any(set(e.split(",")) & with_torch for e in extras):
                continue
            found += 1
            if "-r requirements/ci.txt" not in command and f"--extra-index-url {TORCH_CPU_INDEX}" not in command:
                wrong.append(f"{page.relative_to(ROOT)}: {command}")
    assert found >= 3
    assert not wrong, f"these install torch from PyPI (the CUDA build on Linux); add --extra-index-url: {wrong}"
