"""Every Python block of the user guides runs, page by page, on the native engine.

The blocks of one page run in order in one fresh process, as a reader would type them, in an empty working
folder. A block that cannot run on one machine (several hosts, devices this machine lacks) is marked
``<!-- not run: reason -->`` right before its fence; such a block must say why, and a page may not be all such.
"""

import os
import pathlib
import subprocess
import sys

import pytest

from .markdown_blocks import blocks, not_run_reason

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "hooks" not in p.parts)


def page_script(page):
    """The page's runnable Python blocks joined into one script."""
    parts = []
    for note, code in blocks(page.read_text(encoding="utf-8"), "python"):
        if note.startswith("not run"):
            assert not_run_reason(note), f"{page.name}: a block marked 'not run' must give its reason"
            continue
        parts.append(code)
    return "\n".join(parts)


def test_the_guides_are_there():
    names = {p.relative_to(DOCS).as_posix() for p in PAGES}
    for guide in (
        "getting-started",
        "model-apis",
        "training-and-callbacks",
        "saving-and-export",
        "backends",
        "distributed",
        "native-engine",
    ):
        assert f"guides/{guide}.md" in names, f"docs/guides/{guide}.md is missing"


@pytest.mark.parametrize(
    "page", [p for p in PAGES if "```python" in p.read_text(encoding="utf-8")], ids=lambda p: p.stem
)
def test_guide_examples_run(page, tmp_path):
    script = page_script(page)
    assert script.strip(), f"{page.name} has Python blocks but none of them runs"
    env = dict(os.environ, HIGHLEVEL_BACKEND="native", PYTHONPATH=str(DOCS.parent))
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path
    )
    assert out.returncode == 0, f"{page.name}'s examples failed:\n{out.stderr[-4000:]}"
