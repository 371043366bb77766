"""The documentation site builds with no warning and its API pages cover every public name.

The site builds once (it does not depend on the backend under test), with ``mkdocs build --strict`` into a
temporary folder, where any warning (a broken link, a docstring mkdocstrings cannot read) fails the build. One
test does the build and every check of its output, so that test workers never build it twice.
"""

import html
import importlib.util
import pathlib
import re
import subprocess
import sys
import time

from highlevel._public_api import NAMESPACES, public_objects

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _hook():
    spec = importlib.util.spec_from_file_location("api_pages", ROOT / "docs" / "hooks" / "api_pages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build(out):
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    took = time.perf_counter() - start
    assert run.returncode == 0, f"mkdocs build --strict failed after {took:.0f} s:\n{run.stderr[-6000:]}"
    return out


def _ids(page):
    return {html.unescape(i) for i in re.findall(r'\bid="([^"]+)"', page.read_text(encoding="utf-8"))}


def _every_public_name_has_its_entry(site):
    hook = _hook()
    ids = {}
    for path in NAMESPACES:
        page = site / hook.page_name(path).replace(".md", "") / "index.html"
        assert page.is_file(), f"the API page of highlevel.{path} was not built"
        ids[path] = _ids(page)
    missing = []
    for key in public_objects():
        path, _, name = key.rpartition(".")
        if f"highlevel.{key}" not in ids[path]:
            missing.append(key)
    assert not missing, f"{len(missing)} public names have no entry in the API pages: {missing[:20]}"
    # Every name of a namespace appears on its page, including those documented under another path.
    for path in NAMESPACES:
        for name, _ in hook.public_names(path):
            dotted = f"highlevel.{path}.{name}" if path else f"highlevel.{name}"
            assert dotted in ids[path], f"{dotted} is missing from its namespace's page"


def _entries_show_the_docstrings(site):
    page = (site / "api" / "highlevel" / "index.html").read_text(encoding="utf-8")
    fit = page[page.index('id="highlevel.Model.fit"') :][:20000]
    assert "batch_size" in fit and "validation_split" in fit, "Model.fit's arguments are not on the page"
    assert "<code>&gt;&gt;&gt;" not in page, "a doctest example was rendered as text, not as code"
    assert ":class:" not in page and ":meth:" not in page, "a Sphinx role was rendered as written"


def _the_guides_are_in_the_site(site):
    for guide in ROOT.joinpath("docs", "guides").glob("*.md"):
        built = site / "guides" / guide.stem / "index.html"
        assert built.is_file(), f"{guide.name} is not in the built site"


def test_the_site_builds_and_covers_the_api(tmp_path):
    site = _build(tmp_path / "site")
    _every_public_name_has_its_entry(site)
    _entries_show_the_docstrings(site)
    _the_guides_are_in_the_site(site)
