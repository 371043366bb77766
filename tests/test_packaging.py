"""The distribution: every package folder is listed in pyproject.toml under its highlevel.* name."""

import pathlib

import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]
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
    pins = (ROOT / "requirements" / "ci.txt").read_text()
    assert "torch==2.13.0" in pins and "jax==0.10.2" in pins and "tensorflow-cpu==2.21.0" in pins
