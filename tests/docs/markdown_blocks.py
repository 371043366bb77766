"""The fenced code blocks of a Markdown page, for the tests that run the README's and the guides' examples."""

import re
import textwrap

#: A fence with its language, and the HTML comment that may stand right before it (blank lines between allowed).
#: A fence may be indented (a block inside a list item); its body is dedented.
_BLOCK = re.compile(
    r"(?:<!--(?P<note>.*?)-->\s*\n)?^(?P<indent>[ ]*)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```\s*$",
    re.S | re.M,
)


def blocks(text, lang):
    """``[(note, code)]`` for every block of ``lang`` in ``text``; ``note`` is the comment before it, or ""."""
    return [
        ((m.group("note") or "").strip(), textwrap.dedent(m.group("body")))
        for m in _BLOCK.finditer(text)
        if m.group("lang") == lang
    ]


def not_run_reason(note):
    """The reason a block is not run (``<!-- not run: REASON -->``), or None for a block that runs."""
    m = re.match(r"not run:\s*(.+)", note, re.S)
    return m.group(1).strip() if m else None
